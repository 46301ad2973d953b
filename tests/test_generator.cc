// Generator behaviour the vectors cannot express: the real clock, fork(), close(), wait
// hooks, node-id sources, and the guarantee that no error path changes state.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>
#include <string>
#include <vector>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::EnvSet;
using snowfleet_test::kind_of;

namespace {
constexpr int64_t E = 1704067200000;
using Seg = ScriptedClock::Segment;

GeneratorOptions scripted(std::vector<Seg> script, Mode mode = Mode::kStrict, int64_t node = 7) {
  GeneratorOptions o;
  o.node_id = node;
  o.mode = mode;
  o.clock = std::make_shared<ScriptedClock>(std::move(script));
  return o;
}


int64_t wall_ms() { return system_clock()->wall_ns() / 1000000; }
}  // namespace

TEST_CASE("the system clock issues ascending ids stamped with the current time", "[generator]") {
  for (Mode mode : {Mode::kStrict, Mode::kMonotonic}) {
    GeneratorOptions o;
    o.node_id = 37;
    o.mode = mode;
    Generator g(o);
    const int64_t before = wall_ms();
    std::vector<int64_t> ids;
    // Enough ids to cross several milliseconds and several TSC windows.
    for (int i = 0; i < 200000; ++i) ids.push_back(g.next_id());
    const int64_t after = wall_ms();
    for (size_t i = 1; i < ids.size(); ++i) REQUIRE(ids[i] > ids[i - 1]);
    const Decoded first = decode(Layout(), ids.front()), last = decode(Layout(), ids.back());
    CHECK(first.node_id == 37);
    CHECK(first.timestamp_ms >= before);
    // A monotonic generator may run ahead while it borrows; a strict one never does.
    CHECK(last.timestamp_ms <= after + (mode == Mode::kMonotonic ? 60 : 0));
    CHECK(g.stats().ids_issued == ids.size());
    CHECK(g.status().healthy);
  }
}

TEST_CASE("strict mode reaches the next millisecond when a batch exhausts one", "[generator]") {
  GeneratorOptions o;
  o.node_id = 1;
  Generator g(o);
  const std::vector<int64_t> ids = g.next_ids(3 * 4096 + 17);
  for (size_t i = 1; i < ids.size(); ++i) REQUIRE(ids[i] > ids[i - 1]);
  CHECK(decode(Layout(), ids.back()).timestamp_ms - decode(Layout(), ids.front()).timestamp_ms >= 3);
}

TEST_CASE("an error leaves the state exactly as it was", "[generator]") {
  // Issue #6 of Twitter's snowflake: resetting the sequence before throwing lets a retry
  // reissue an id. Here a refused call must not move anything: after a 600 ms rewind is
  // refused three times, the clock returning to the last ms continues at sequence 1.
  Generator g(scripted({{E + 1000}, {E + 400, 3}, {E + 1000}}));
  const int64_t a = g.next_id();
  for (int i = 0; i < 3; ++i) CHECK(kind_of([&] { g.next_id(); }) == ErrorKind::kClockMovedBackwards);
  const int64_t b = g.next_id();
  CHECK(b == a + 1);
  CHECK(g.stats().refusals == 3);
  CHECK(g.stats().ids_issued == 2);
}

TEST_CASE("ClockMovedBackwards carries the drift and names it", "[generator]") {
  Generator g(scripted({{E + 1000}, {E + 400}}));
  g.next_id();
  try {
    g.next_id();
    FAIL("a 600 ms rewind must be refused");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
    CHECK(e.drift_ms() == 600);
    CHECK(std::string(e.what()).find("600 ms") != std::string::npos);
    CHECK(std::string(e.code()) == "CLOCK_MOVED_BACKWARDS");
  }
}

TEST_CASE("wait hooks wrap every sleep and nothing else", "[generator]") {
  struct Counts {
    int enter = 0, leave = 0;
  } counts;
  GeneratorOptions o = scripted({{E + 9, 4097 + 2}, {E + 10}});
  o.wait_hooks.context = &counts;
  o.wait_hooks.enter = [](void* c) -> void* {
    ++static_cast<Counts*>(c)->enter;
    return c;
  };
  o.wait_hooks.leave = [](void* c, void* token) {
    CHECK(token == c);
    ++static_cast<Counts*>(c)->leave;
  };
  auto clock = std::static_pointer_cast<ScriptedClock>(o.clock);
  Generator g(o);
  for (int i = 0; i < 4096; ++i) g.next_id();
  CHECK(counts.enter == 0);  // the fast path never calls the hooks
  g.next_id();               // spent ms: sleeps until E + 10
  CHECK(counts.enter == clock->sleep_count());
  CHECK(counts.leave == counts.enter);
  CHECK(counts.enter >= 1);
}

TEST_CASE("a generator inherited across fork() refuses in the child", "[generator][fork]") {
  GeneratorOptions o;
  o.node_id = 5;
  Generator g(o);
  g.next_id();
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    char result = 'x';
    try {
      g.next_id();
      result = 'd';  // minted the parent's ids: the bug this guards against
    } catch (const Error& e) {
      result = e.kind() == ErrorKind::kForkDetected ? 'f' : 'o';
    }
    // A generator created in the child works.
    try {
      Generator child(o);
      child.next_id();
    } catch (...) {
      result = 'c';
    }
    if (write(fds[1], &result, 1) != 1) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  char result = 0;
  REQUIRE(read(fds[0], &result, 1) == 1);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(result == 'f');
  CHECK(g.next_id() > 0);  // the parent is unaffected
  CHECK(g.status().healthy);
}

TEST_CASE("close() is idempotent and later calls refuse", "[generator]") {
  Generator g(scripted({{E + 1, 1, 1}}));
  g.next_id();
  g.close();
  g.close();
  CHECK(g.closed());
  CHECK(kind_of([&] { g.next_id(); }) == ErrorKind::kGeneratorClosed);
  CHECK(kind_of([&] { g.next_ids(3); }) == ErrorKind::kGeneratorClosed);
  CHECK_FALSE(g.status().healthy);
}

TEST_CASE("generator options are validated", "[generator]") {
  GeneratorOptions o;
  o.node_id = 1024;
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kInvalidArgument);
  o.node_id = 1;
  o.max_wait_ms = std::nan("");
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kInvalidArgument);
  o.max_wait_ms = 5;
  o.max_drift_ms = -1;
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kInvalidArgument);
  o.max_drift_ms = 10;
  o.mode = static_cast<Mode>(7);
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kInvalidArgument);
  CHECK(kind_of([] { parse_mode("Strict"); }) == ErrorKind::kInvalidArgument);
  Generator ok(scripted({{E}}));
  CHECK(kind_of([&] { ok.next_ids(Generator::kMaxBatch + 1); }) == ErrorKind::kInvalidArgument);
  CHECK(ok.stats().ids_issued == 0);
}

TEST_CASE("node sources: static, env and k8s", "[generator][node-source]") {
  GeneratorOptions o;
  o.clock = std::make_shared<ScriptedClock>(E + 1);
  o.node_source = "static:37";
  CHECK(Generator(o).node_id() == 37);
  o.node_source = "static:1024";
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kInvalidArgument);
  setenv("SNOWFLEET_TEST_NODE", "12", 1);
  o.node_source = "env:SNOWFLEET_TEST_NODE";
  CHECK(Generator(o).node_id() == 12);
  setenv("SNOWFLEET_TEST_NODE", "twelve", 1);
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kNodeIdUnavailable);
  unsetenv("SNOWFLEET_TEST_NODE");
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kNodeIdUnavailable);
  {
    const EnvSet host("HOSTNAME", "ids-7");
    o.node_source = "k8s";
    CHECK(Generator(o).node_id() == 7);
    o.node_source = "k8s:100";
    CHECK(Generator(o).node_id() == 107);
    const EnvSet other("HOSTNAME", "web-abcde");
    CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kNodeIdUnavailable);
  }
  o.node_source = "zookeeper://x";
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kInvalidArgument);
}

TEST_CASE("scripted clock: segments, continuation and manual control", "[clock]") {
  ScriptedClock c({{100, 2}, {200, 1, -4}});
  std::vector<int64_t> got;
  for (int i = 0; i < 5; ++i) got.push_back(c.wall_ns() / 1000000);
  CHECK(got == std::vector<int64_t>{100, 100, 200, 196, 192});
  CHECK(c.reads() == 5);
  CHECK(c.peek_wall_ms() == 188);
  c.set_wall_ms(50);
  CHECK(c.wall_ns() == 50 * 1000000);
  CHECK(c.wall_ns() == 50 * 1000000);
  c.advance_wall_ms(10);
  CHECK(c.wall_ns() == 60 * 1000000);
  c.sleep_ns(300);
  c.sleep_ns(100);
  CHECK(c.monotonic_ns() == 400);
  CHECK(c.max_sleep_ns() == 300);
  CHECK(c.min_sleep_ns() == 100);
  CHECK(kind_of([] { ScriptedClock bad(std::vector<ScriptedClock::Segment>{}); }) == ErrorKind::kInvalidArgument);
  CHECK(kind_of([] { ScriptedClock bad({{1, 0}}); }) == ErrorKind::kInvalidArgument);
}

TEST_CASE("a ticking scripted clock moves while a generator waits on it", "[clock]") {
  // A frozen clock never lets a spent millisecond roll over: the 3rd id of a 1-sequence-bit
  // layout is refused. Ticking, the generator's own 1 ms nap moves the wall and it succeeds.
  auto clock = std::make_shared<ScriptedClock>(E + 10);
  GeneratorOptions o;
  o.layout = Layout::parse("41.21.1@1704067200000");
  o.node_id = 5;
  o.clock = clock;
  Generator g(o);
  g.next_id();
  g.next_id();
  CHECK(kind_of([&] { g.next_id(); }) == ErrorKind::kClockMovedBackwards);
  clock->set_ticking(true);
  CHECK(clock->ticking());
  const int64_t third = g.next_id();
  CHECK(decode(o.layout, third).timestamp_ms == E + 11);
  CHECK(clock->peek_wall_ms() >= E + 11);
  // Setting the script restarts from it; turning ticking off freezes the clock again.
  clock->set_wall_ms(E + 100);
  CHECK(clock->peek_wall_ms() == E + 100);
  clock->sleep_ns(2'500'000);
  CHECK(clock->peek_wall_ms() == E + 102);
  clock->set_ticking(false);
  CHECK(clock->peek_wall_ms() == E + 100);
}

TEST_CASE("status reports drift and the reason it is unhealthy", "[generator]") {
  Generator g(scripted({{E + 1000}, {E + 900}}, Mode::kStrict));
  g.next_id();
  const Status st = g.status();
  CHECK_FALSE(st.healthy);
  CHECK(st.drift_ms == 100);
  CHECK(st.reason.find("100 ms behind") != std::string::npos);
  CHECK(st.last_ms == E + 1000);
  CHECK(st.wall_ms == E + 900);
}

TEST_CASE("generators of one node id in one process share their state", "[generator][shared]") {
  // Two generators for node 11 on the system clock (say, two threads or two language
  // runtimes that each made their own): they mint from one word, so never the same id.
  GeneratorOptions o;
  o.node_id = 11;
  o.mode = Mode::kMonotonic;
  Generator a(o), b(o);
  std::vector<int64_t> ia, ib;
  std::thread ta([&] { for (int i = 0; i < 50000; ++i) ia.push_back(a.next_id()); });
  std::thread tb([&] { for (int i = 0; i < 50000; ++i) ib.push_back(b.next_id()); });
  ta.join();
  tb.join();
  std::vector<int64_t> all(ia);
  all.insert(all.end(), ib.begin(), ib.end());
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
  // Sequential calls on the two alternate within one ascending sequence.
  const int64_t x = a.next_id(), y = b.next_id(), z = a.next_id();
  CHECK(x < y);
  CHECK(y < z);
  // Closing one leaves the other working; stats stay per generator.
  a.close();
  CHECK(b.next_id() > z);
  CHECK(a.stats().ids_issued == 50002);
  CHECK(b.stats().ids_issued == 50002);
}

TEST_CASE("state is not shared across node ids, layouts or clocks", "[generator][shared]") {
  GeneratorOptions o = scripted({{E + 5}});
  Generator a(o);
  o.clock = std::make_shared<ScriptedClock>(E + 5);  // another clock: a separate world
  Generator b(o);
  CHECK(a.next_id() == b.next_id());  // same node, same ms, independent scripted states
  GeneratorOptions p = o;
  p.node_id = 8;
  Generator c(p);
  CHECK(decode(Layout(), c.next_id()).node_id == 8);
  GeneratorOptions q;
  q.node_id = 7;
  Generator d(q);
  q.layout = Layout::kTwitter;
  Generator e(q);  // same node id, other layout: its own state
  CHECK(decode(Layout::kTwitter, e.next_id()).node_id == 7);
  CHECK(decode(Layout(), d.next_id()).node_id == 7);
}

TEST_CASE("node_id and node_source together are refused", "[generator]") {
  GeneratorOptions o;
  o.node_id = 5;
  o.node_source = "static:37";
  CHECK(kind_of([&] { Generator g(o); }) == ErrorKind::kInvalidArgument);
}

namespace {
// A test clock of one's own (not a ScriptedClock): frozen wall time, virtual monotonic
// time that only sleeps advance.
class FrozenClock : public Clock {
 public:
  explicit FrozenClock(int64_t ms) : wall_ns_(ms * 1000000), domain_(next_domain += 2) {}
  int64_t wall_ns() override { return wall_ns_; }
  int64_t monotonic_ns() override { return mono_ns_; }
  void sleep_ns(int64_t ns) override { mono_ns_ += ns; }
  bool virtual_time() const noexcept override { return true; }
  uint64_t time_domain() const noexcept override { return domain_; }

 private:
  static inline std::atomic<uint64_t> next_domain{uint64_t{1} << 62};  // no address's value
  int64_t wall_ns_, mono_ns_ = 0;
  uint64_t domain_;
};
}  // namespace

TEST_CASE("a clock of virtual time of one's own keeps an id space of its own",
          "[generator][clock]") {
  GeneratorOptions later, earlier;
  later.node_id = earlier.node_id = 7;
  later.max_wait_ms = earlier.max_wait_ms = 0;
  later.clock = std::make_shared<FrozenClock>(E + 10);
  earlier.clock = std::make_shared<FrozenClock>(E + 5);
  Generator a(later);
  CHECK(decode(Layout(), a.next_id()).timestamp_ms == E + 10);
  // Sharing a's id space, b would be 5 ms behind its state and refuse.
  Generator b(earlier);
  CHECK(decode(Layout(), b.next_id()).timestamp_ms == E + 5);
}
