// Pre-fork servers (gunicorn --preload, uWSGI, Celery prefork, multiprocessing with fork)
// make the generator in the parent and fork workers after it exists. A generator with a
// leased node source claims a slot of its own in each child, on first use, once, whichever
// thread comes first; the parent's slot stays the parent's. A static node id still refuses.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::mark_in;
using snowfleet_test::Opts;
using snowfleet_test::run_child;
using snowfleet_test::temp_dir;

namespace {

constexpr int64_t T = 1704067200000 + 10'000'000;
constexpr const char* kFourSlots = "41.2.20@1704067200000";
constexpr int kChildThreads = 4;

}  // namespace

TEST_CASE("prefork: a leased generator claims a slot of its own in a forked child",
          "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, kFourSlots);
  auto g = std::make_unique<Generator>(a.o);
  const int64_t parent_node = g->node_id();
  std::vector<int64_t> parent_ids = g->next_ids(1000);
  const int64_t parent_mark = mark_in(dir, parent_node);

  const auto [out, code] = run_child([&]() -> std::string {
    // Several threads make the child's first calls at once: one claim, one node.
    std::vector<std::vector<int64_t>> got(kChildThreads);
    std::vector<std::thread> threads;
    for (auto& ids : got)
      threads.emplace_back([&g, &ids] {
        for (int i = 0; i < 2000 / kChildThreads; ++i) ids.push_back(g->next_id());
      });
    for (auto& t : threads) t.join();
    std::string text = std::to_string(g->node_id());
    for (const auto& ids : got)
      for (int64_t id : ids) text += " " + std::to_string(id);
    const Status st = g->status();
    if (!st.healthy || st.lease_state != LeaseState::kHeld) return "unhealthy: " + st.reason;
    g->close();  // releases the child's own slot, never the parent's
    return text;
  });
  REQUIRE(code == 0);
  INFO(out.substr(0, 200));
  std::vector<int64_t> child_ids;
  int64_t child_node = -1;
  {
    size_t pos = 0;
    child_node = std::stoll(out, &pos);
    const char* p = out.c_str() + pos;
    char* end;
    for (long long v = std::strtoll(p, &end, 10); end != p; v = std::strtoll(p, &end, 10)) {
      child_ids.push_back(v);
      p = end;
    }
  }
  CHECK(child_node != parent_node);
  CHECK(child_ids.size() == 2000);
  for (int64_t id : child_ids) CHECK(decode(a.o.layout, id).node_id == child_node);
  std::set<int64_t> all(parent_ids.begin(), parent_ids.end());
  all.insert(child_ids.begin(), child_ids.end());
  CHECK(all.size() == parent_ids.size() + child_ids.size());
  // The parent's lease is untouched: still held, its mark written by nobody else.
  CHECK(g->status().lease_state == LeaseState::kHeld);
  CHECK(mark_in(dir, parent_node) == parent_mark);
  CHECK(g->next_id() > parent_ids.back());
}

TEST_CASE("prefork: a child finding no free slot refuses, then claims once one is free",
          "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kStrict, "41.1.21@1704067200000");  // two slots
  Generator g(a.o);
  auto other = std::make_unique<Generator>(a.o);  // the second slot
  const auto [out, code] = run_child([&]() -> std::string {
    const Error e = error_of([&] { g.next_id(); });
    if (e.kind() != ErrorKind::kNodeIdUnavailable) return std::string("first: ") + e.code();
    const Status st = g.status();
    if (st.healthy || st.reason.find("could not claim") == std::string::npos)
      return "status: " + st.reason;
    other.reset();  // in the child: frees nothing (the slot is the parent's)
    return "refused";
  });
  CHECK(code == 0);
  CHECK(out == "refused");
  other.reset();  // the parent frees the second slot: a child now claims it
  const auto [out2, code2] = run_child([&]() -> std::string {
    a.clock->set_wall_ms(T + 2000);  // past the mark the freed slot's holder reserved
    g.next_id();
    return std::to_string(g.node_id());
  });
  INFO(out2);
  CHECK(code2 == 0);
  CHECK(out2 != std::to_string(g.node_id()));
  CHECK(g.status().lease_state == LeaseState::kHeld);
}

TEST_CASE("prefork: a static node id still refuses in the child, and says what to use",
          "[generator][fork]") {
  GeneratorOptions o;
  o.node_id = 612;
  Generator g(o);
  g.next_id();
  const auto [out, code] = run_child([&]() -> std::string {
    const Error e = error_of([&] { g.next_id(); });
    const Error batch = error_of([&] { g.next_ids(0); });
    return std::string(e.code()) + "|" + batch.code() + "|" + e.what();
  });
  CHECK(code == 0);
  CHECK(out.rfind("FORK_DETECTED|FORK_DETECTED|", 0) == 0);
  CHECK(out.find("leased node source") != std::string::npos);
}
