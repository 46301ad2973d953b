// Adversarial cases for a leased generator in forked processes: a grandchild, a child whose
// claim failed, threads that hold a lock the wait hooks release (the Python GIL), and many
// sequential children (no duplicates, no descriptors left in the parent).
#include <catch2/catch.hpp>

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::Opts;
using snowfleet_test::run_child;
using snowfleet_test::temp_dir;

namespace {

constexpr int64_t T = 1704067200000 + 20'000'000;

int open_fds() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d) != nullptr) ++n;
    closedir(d);
  }
  return n;
}

// A stand-in for the GIL: held by a thread while it calls the generator, released by the
// wait hooks around blocking steps (as the Python binding does).
std::mutex g_gil;
void* gil_enter(void*) {
  g_gil.unlock();
  return nullptr;
}
void gil_leave(void*, void*) { g_gil.lock(); }

}  // namespace

TEST_CASE("prefork: a grandchild of a child whose claim failed refuses, no crash",
          "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kStrict, "41.0.22@1704067200000");  // one slot
  Generator g(a.o);
  g.next_id();
  const auto [out, code] = run_child([&]() -> std::string {
    const Error e = error_of([&] { g.next_id(); });  // the only slot is the parent's
    if (e.kind() != ErrorKind::kNodeIdUnavailable) return std::string("child: ") + e.code();
    const auto [gout, gcode] = run_child([&]() -> std::string {
      const Error ge = error_of([&] { g.next_id(); });
      const Status st = g.status();
      g.close();
      return std::string(ge.code()) + "|" + (st.healthy ? "healthy" : "unhealthy");
    });
    return "grandchild " + std::to_string(gcode) + ": " + gout;
  });
  CHECK(code == 0);
  CHECK(out == "grandchild 0: NODE_ID_UNAVAILABLE|unhealthy");
  CHECK(g.status().lease_state == LeaseState::kHeld);
}

TEST_CASE(
    "prefork: a grandchild claims a slot of its own, neither the parent's nor "
    "the child's",
    "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, "41.2.20@1704067200000");  // four slots
  Generator g(a.o);
  const int64_t parent_id = g.next_id();
  const auto [out, code] = run_child([&]() -> std::string {
    const int64_t child_id = g.next_id();
    const int64_t child_node = g.node_id();
    const auto [gout, gcode] = run_child([&]() -> std::string {
      const int64_t id = g.next_id();
      return std::to_string(g.node_id()) + " " + std::to_string(id);
    });
    // The child's slot is still the child's: it mints on.
    const int64_t again = g.next_id();
    g.close();
    return std::to_string(gcode) + " " + gout + " " + std::to_string(child_node) + " " +
           std::to_string(child_id) + " " + std::to_string(again);
  });
  REQUIRE(code == 0);
  long long gcode, gnode, gid, cnode, cid, again;
  REQUIRE(std::sscanf(out.c_str(), "%lld %lld %lld %lld %lld %lld", &gcode, &gnode, &gid, &cnode,
                      &cid, &again) == 6);
  CHECK(gcode == 0);
  CHECK(std::set<long long>{g.node_id(), cnode, gnode}.size() == 3);
  CHECK(std::set<long long>{parent_id, cid, gid, again}.size() == 4);
  CHECK(again > cid);
}

TEST_CASE("prefork: threads holding the GIL make the child's first calls at once",
          "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, "41.2.20@1704067200000");
  a.o.wait_hooks.enter = gil_enter;
  a.o.wait_hooks.leave = gil_leave;
  Generator g(a.o);
  g.next_id();
  const auto [out, code] = run_child(
      [&]() -> std::string {
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
          threads.emplace_back([&g] {
            for (int i = 0; i < 50; ++i) {
              std::lock_guard<std::mutex> gil(g_gil);
              g.next_id();
            }
          });
        for (auto& t : threads) t.join();
        return "ok";
      },
      10);
  CHECK(code == 0);  // 142 (SIGALRM): the threads deadlocked
  CHECK(out == "ok");
}

TEST_CASE(
    "prefork: 200 sequential children each mint once: no duplicates, the "
    "parent keeps no descriptor",
    "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, "41.3.19@1704067200000");  // eight slots
  Generator g(a.o);
  std::set<int64_t> ids{g.next_id()};
  const int fds = open_fds();
  for (int i = 0; i < 200; ++i) {
    // Past the mark a child that exits without close() reserved ahead on its slot.
    a.clock->set_wall_ms(T + 3000 * (i + 1));
    const auto [out, code] = run_child([&]() -> std::string {
      const int64_t id = g.next_id();
      if (i % 2 == 0) g.close();
      return std::to_string(id);
    });
    INFO("child " << i << ": " << out);
    REQUIRE(code == 0);
    CHECK(ids.insert(std::stoll(out)).second);
  }
  CHECK(open_fds() == fds);
  CHECK(g.status().lease_state == LeaseState::kHeld);
}

TEST_CASE(
    "prefork: close() in a child before its first call keeps the parent's slot, "
    "every report still answers",
    "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kStrict, "41.1.21@1704067200000");  // two slots
  Generator g(a.o);
  const int64_t parent_node = g.node_id();
  g.next_id();
  const auto [out, code] = run_child([&]() -> std::string {
    const Stats before = g.stats();
    (void)g.drift_ms();
    const int64_t node = g.node_id();
    g.close();
    const Error e = error_of([&] { g.next_id(); });
    const Error batch = error_of([&] { g.next_ids(3); });
    const Status st = g.status();
    g.close();  // twice: still nothing to release
    return std::to_string(node) + " " + std::to_string(before.ids_issued) + " " + e.code() + " " +
           batch.code() + " " + lease_state_name(st.lease_state) + " " + st.reason;
  });
  CHECK(code == 0);
  CHECK(out == std::to_string(parent_node) +
                   " 1 GENERATOR_CLOSED GENERATOR_CLOSED released generator is closed");
  // The parent's slot is still locked by the parent: a second generator gets the other one.
  Generator other(a.o);
  CHECK(other.node_id() != parent_node);
  CHECK(g.status().lease_state == LeaseState::kHeld);
}

TEST_CASE("prefork: close() in a child after its claim releases the child's slot",
          "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, "41.1.21@1704067200000");  // two slots
  Generator g(a.o);
  const int64_t parent_node = g.node_id();
  const auto [out, code] = run_child([&]() -> std::string {
    g.next_ids(10);
    const int64_t node = g.node_id();
    g.close();
    // Nothing in this process holds a slot now: a new generator of the child gets the
    // child's slot back (the parent's is locked by the parent).
    Generator again(a.o);
    return std::to_string(node) + " " + std::to_string(again.node_id());
  });
  REQUIRE(code == 0);
  const std::string child_node = std::to_string(1 - parent_node);
  CHECK(out == child_node + " " + child_node);
  CHECK(g.status().lease_state == LeaseState::kHeld);
}

namespace {
// close() from the main thread while another thread's call is claiming the child's slot.
std::atomic<int> g_close_step{0};
void* racing_enter(void*) {
  int expected = 0;
  if (g_close_step.compare_exchange_strong(expected, 1)) {
    // Inside the claim (or waiting for it): let close() run, for at most 300 ms.
    for (int i = 0; i < 300 && g_close_step.load() != 2; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return nullptr;
}
void racing_leave(void*, void*) {}
}  // namespace

TEST_CASE(
    "prefork: close() while another thread of the child claims: the generator "
    "stays closed and the claimed slot is given back",
    "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, "41.1.21@1704067200000");  // two slots
  a.o.wait_hooks.enter = racing_enter;
  a.o.wait_hooks.leave = racing_leave;
  Generator g(a.o);
  g_close_step = 5;  // the parent's calls do not take part
  const auto [out, code] = run_child([&]() -> std::string {
    g_close_step = 0;
    std::string first;
    std::thread t([&] {
      try {
        g.next_id();
        first = "minted";
      } catch (const Error& e) {
        first = e.code();
      }
    });
    while (g_close_step.load() != 1) std::this_thread::yield();
    g.close();
    g_close_step = 2;
    t.join();
    std::string after;
    try {
      g.next_id();
      after = "minted";
    } catch (const Error& e) {
      after = e.code();
    }
    // The slot the claim took is free again: a new generator of this process gets it.
    std::string slot;
    try {
      Generator again(a.o);
      slot = "free";
    } catch (const Error& e) {
      slot = e.code();
    }
    return std::string(g.closed() ? "closed" : "open") + " " + after + " " + slot;
  });
  CHECK(code == 0);
  CHECK(out == "closed GENERATOR_CLOSED free");
}

TEST_CASE(
    "prefork: a child whose claim fails after taking the slot (the first mark "
    "write) mints nothing until a later claim succeeds",
    "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, "41.1.21@1704067200000");  // two slots
  Generator g(a.o);
  const int64_t other = 1 - g.node_id();
  // The mark's temporary file is a directory: the first mark write of the other slot fails.
  const std::string tmp = snowfleet_test::slot_path(dir, other, ".mark.tmp");
  REQUIRE(mkdir(tmp.c_str(), 0700) == 0);
  const auto [out, code] = run_child([&]() -> std::string {
    std::string text;
    for (int i = 0; i < 2; ++i) {
      try {
        const int64_t id = g.next_id();
        text += "minted:" + std::to_string(decode(a.o.layout, id).node_id) + " ";
      } catch (const Error& e) {
        text += std::string(e.code()) + " ";
      }
    }
    if (rmdir(tmp.c_str()) != 0) return "rmdir failed";
    const int64_t id = g.next_id();
    const Status st = g.status();
    text += "minted:" + std::to_string(decode(a.o.layout, id).node_id) + " " +
            std::to_string(g.stats().mark_writes > 0) + " " + lease_state_name(st.lease_state);
    g.close();
    return text;
  });
  CHECK(code == 0);
  CHECK(out == "LEASE_LOST LEASE_LOST minted:" + std::to_string(other) + " 1 held");
}

TEST_CASE(
    "prefork: in a child, a monotonic generator's ids stay above the ones it "
    "issued (borrowing ahead) before the fork",
    "[fleet][local][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kMonotonic, "41.10.12@1704067200000");
  Generator g(a.o);
  // 4096 ids a millisecond and a still clock: 20000 ids borrow 4 ms ahead of the wall.
  const std::vector<int64_t> before = g.next_ids(20000);
  REQUIRE(g.drift_ms() >= 4);
  const auto [out, code] = run_child([&]() -> std::string {
    const int64_t id = g.next_id();
    return std::to_string(id) + " " + std::to_string(g.node_id());
  });
  INFO(out);
  REQUIRE(code == 0);
  long long id, node;
  REQUIRE(std::sscanf(out.c_str(), "%lld %lld", &id, &node) == 2);
  CHECK(node != g.node_id());
  CHECK(id > before.back());
}
