// Shared id spaces: generators whose state word (and high-water mark limit) live in memory
// the caller provides, as PostgreSQL's backends mint from one word in shared memory: one
// sequence of ids whichever generator mints, nothing above the mark limit, a wait for a
// writer that moves it, a start after a mark, and the same rewind guard and fork refusal as
// in the process's registry.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::kind_of;

namespace {
constexpr int64_t E = 1704067200000;
using Seg = ScriptedClock::Segment;

GeneratorOptions on_shared(std::atomic<int64_t>* state, const std::atomic<int64_t>* limit,
                           std::shared_ptr<Clock> clock, Mode mode = Mode::kStrict) {
  GeneratorOptions o;
  o.node_id = 7;
  o.mode = mode;
  o.clock = std::move(clock);
  o.shared.state = state;
  o.shared.mark_limit = limit;
  o.shared.where = "test memory";
  return o;
}
}  // namespace

TEST_CASE("generators on one shared word mint one ascending sequence", "[shared]") {
  std::atomic<int64_t> word{-1};
  // Advances 1 ms every 3 readings: strict generators share each millisecond's sequence.
  auto clock = std::make_shared<ScriptedClock>(std::vector<Seg>{{E + 100, 1, 1, 3}});
  Generator a(on_shared(&word, nullptr, clock)), b(on_shared(&word, nullptr, clock));
  std::vector<int64_t> ids;
  for (int i = 0; i < 3000; ++i) ids.push_back(i % 3 == 0 ? a.next_id() : b.next_id());
  CHECK(std::is_sorted(ids.begin(), ids.end()));
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  const Decoded last = decode(Layout(), ids.back());
  CHECK(word.load() == ((last.timestamp_ms - E) << 12 | last.sequence));
}

TEST_CASE("threads with a generator each on one shared word never repeat an id", "[shared]") {
  std::atomic<int64_t> word{-1};
  constexpr int kThreads = 4, kIds = 20000;
  std::vector<std::vector<int64_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      GeneratorOptions o = on_shared(&word, nullptr, nullptr);
      o.max_wait_ms = 1000;  // a loaded machine may deschedule a thread mid-wait
      Generator g(std::move(o));
      for (int i = 0; i < kIds; ++i) got[t].push_back(g.next_id());
    });
  for (auto& th : threads) th.join();
  std::vector<int64_t> all;
  for (auto& r : got) {
    CHECK(std::is_sorted(r.begin(), r.end()));
    all.insert(all.end(), r.begin(), r.end());
  }
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
}

TEST_CASE("a shared space issues nothing above its mark limit", "[shared]") {
  std::atomic<int64_t> word{-1}, limit{-1};
  auto clock = std::make_shared<ScriptedClock>(std::vector<Seg>{{E + 100, 1, 1}});
  clock->set_ticking(true);
  GeneratorOptions o = on_shared(&word, &limit, clock);
  o.max_wait_ms = 2;
  Generator g(std::move(o));
  const Error e = error_of([&] { g.next_id(); });
  CHECK(e.kind() == ErrorKind::kLeaseLost);
  CHECK_THAT(e.what(), Catch::Contains("the high-water mark in test memory is not persisted"));
  CHECK(word.load() == -1);  // refused: the state is unchanged
  CHECK(g.stats().lease_refusals == 1);
  limit.store(last_packed_of_ms(Layout(), clock->peek_wall_ms() + 50));
  const int64_t id = g.next_id();
  CHECK(decode(Layout(), id).timestamp_ms >= E + 100);
}

TEST_CASE("a call past the mark limit waits for the writer that moves it", "[shared]") {
  std::atomic<int64_t> word{-1}, limit{-1};
  GeneratorOptions o = on_shared(&word, &limit, nullptr);
  o.max_wait_ms = 2000;
  Generator g(std::move(o));
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    limit.store(last_packed_of_ms(Layout(), system_clock()->wall_ns() / 1000000 + 1000));
  });
  const int64_t id = g.next_id();
  writer.join();
  CHECK(id > 0);
  CHECK(g.stats().lease_refusals == 0);
}

TEST_CASE("a shared space started after a mark continues above it", "[shared]") {
  const int64_t mark = E + 5000;
  SECTION("monotonic: the next id is after the mark") {
    std::atomic<int64_t> word{last_packed_of_ms(Layout(), mark)};
    auto clock = std::make_shared<ScriptedClock>(mark - 10);
    Generator g(on_shared(&word, nullptr, clock, Mode::kMonotonic));
    CHECK(decode(Layout(), g.next_id()).timestamp_ms == mark + 1);
  }
  SECTION("strict: a clock behind the mark is a rewind") {
    std::atomic<int64_t> word{last_packed_of_ms(Layout(), mark)};
    auto clock = std::make_shared<ScriptedClock>(mark - 100);
    Generator g(on_shared(&word, nullptr, clock));
    const Error e = error_of([&] { g.next_id(); });
    CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
    CHECK(e.drift_ms() == 100);
  }
  SECTION("strict, with the start given: the refusal names the mark, not a rewind") {
    const int64_t packed = last_packed_of_ms(Layout(), mark);
    std::atomic<int64_t> word{packed}, start{packed};
    auto clock = std::make_shared<ScriptedClock>(mark - 100);
    GeneratorOptions o = on_shared(&word, nullptr, clock);
    o.shared.start = &start;
    Generator g(std::move(o));
    const Error e = error_of([&] { g.next_id(); });
    CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
    CHECK(e.drift_ms() == 100);
    const std::string m = e.what();
    CHECK(m.find("wall clock is 100 ms behind the high-water mark " + std::to_string(mark) +
                 " (2024-01-01T00:00:05.000Z) in test memory of node 7: ids issued before the "
                 "space started may reach that millisecond") != std::string::npos);
    CHECK(m.find("moved backwards") == std::string::npos);
    CHECK(g.status().reason.find("behind the high-water mark") != std::string::npos);
  }
  SECTION("strict, with the start given, after an id: a rewind is a rewind") {
    const int64_t packed = last_packed_of_ms(Layout(), mark);
    std::atomic<int64_t> word{packed}, start{packed};
    auto clock = std::make_shared<ScriptedClock>(mark + 1);
    GeneratorOptions o = on_shared(&word, nullptr, clock);
    o.shared.start = &start;
    Generator g(std::move(o));
    g.next_id();
    clock->set_wall_ms(mark - 100);
    const std::string m = error_of([&] { g.next_id(); }).what();
    CHECK(m.find("clock moved backwards by 101 ms") != std::string::npos);
  }
}

TEST_CASE("packed values of milliseconds", "[shared]") {
  const Layout l;
  CHECK(last_packed_of_ms(l, E - 1) == -1);
  CHECK(last_packed_of_ms(l, E) == l.max_sequence());
  CHECK(last_packed_of_ms(l, E + 3) == (3 << 12 | 4095));
  CHECK(last_packed_of_ms(l, INT64_MAX) == (l.max_elapsed_ms() << 12 | 4095));
  CHECK(ms_of_packed(l, -1) == E - 1);
  CHECK(ms_of_packed(l, last_packed_of_ms(l, E + 77)) == E + 77);
}

TEST_CASE("a shared space's arguments", "[shared]") {
  std::atomic<int64_t> word{-1}, limit{-1};
  GeneratorOptions o = on_shared(&word, nullptr, nullptr);
  o.node_id = -1;
  o.node_source = "static:3";
  CHECK_THAT(error_of([&] { Generator g(o); }).what(),
             Catch::Contains("a shared id space needs a node_id"));
  GeneratorOptions p;
  p.node_id = 1;
  p.shared.mark_limit = &limit;
  CHECK(kind_of([&] { Generator g(p); }) == ErrorKind::kInvalidArgument);
  p.shared.mark_limit = nullptr;
  p.shared.start = &limit;
  CHECK_THAT(error_of([&] { Generator g(p); }).what(),
             Catch::Contains("a shared id space's start needs its state word"));
}

TEST_CASE("a generator on a shared space is refused in a forked child", "[shared][fork]") {
  std::atomic<int64_t> word{-1};
  Generator g(on_shared(&word, nullptr, nullptr));
  g.next_id();
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 1;
    try {
      g.next_id();
    } catch (const Error& e) {
      code = e.kind() == ErrorKind::kForkDetected ? 0 : 2;
    }
    _exit(code);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
