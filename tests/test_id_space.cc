// Id spaces: generators share state by the ids they can mint, not by how their layout is
// spelled, which clock object they were given, or whether an earlier generator of the space
// is still open; and every layout the parser accepts mints correctly up to the window's
// last id.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "mint/id_space.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::kind_of;

namespace {
constexpr int64_t E = 1704067200000;
constexpr int64_t kTwitterEpoch = 1288834974657;
using Seg = ScriptedClock::Segment;

// Duplicates among all ids of `runs`.
size_t duplicates(std::vector<std::vector<int64_t>> runs) {
  std::vector<int64_t> all;
  for (auto& r : runs) all.insert(all.end(), r.begin(), r.end());
  std::sort(all.begin(), all.end());
  size_t dups = 0;
  for (size_t i = 1; i < all.size(); ++i) dups += all[i] == all[i - 1];
  return dups;
}

// Mints `n` ids from each generator on its own thread, at once. A call refused under
// saturation (a thread descheduled past its wait budget on a loaded machine) is retried.
std::vector<std::vector<int64_t>> race(std::vector<Generator*> gens, int n) {
  std::vector<std::vector<int64_t>> got(gens.size());
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (size_t i = 0; i < gens.size(); ++i)
    pool.emplace_back([&, i] {
      ready.fetch_add(1);
      while (ready.load() < static_cast<int>(gens.size())) {
      }
      got[i].reserve(static_cast<size_t>(n));
      while (got[i].size() < static_cast<size_t>(n)) {
        try {
          got[i].push_back(gens[i]->next_id());
        } catch (const Error& e) {
          if (e.kind() != ErrorKind::kClockMovedBackwards) throw;
        }
      }
    });
  for (auto& t : pool) t.join();
  return got;
}

// A clock that reads real time but is not the system clock object.
class OtherRealClock final : public Clock {
 public:
  int64_t wall_ns() override { return system_clock()->wall_ns(); }
  int64_t monotonic_ns() override { return system_clock()->monotonic_ns(); }
  void sleep_ns(int64_t ns) override { system_clock()->sleep_ns(ns); }
};
}  // namespace

TEST_CASE("twin layouts of one id space share one state", "[id-space]") {
  // The twitter preset and 41.10.12 with Twitter's epoch put the same bits in the same
  // places: datacenter 1 + machine 5 is node 37 either way.
  for (Mode mode : {Mode::kMonotonic, Mode::kStrict}) {
    GeneratorOptions a;
    a.layout = Layout::kTwitter;
    a.node_id = mode == Mode::kStrict ? (1 << 5) | 5 : (2 << 5) | 6;
    a.mode = mode;
    GeneratorOptions b = a;
    b.layout = Layout::parse("41.10.12@" + std::to_string(kTwitterEpoch));
    Generator ga(a), gb(b);
    const auto runs = race({&ga, &gb}, 200000);
    CHECK(duplicates(runs) == 0);
    CHECK(runs[0].size() + runs[1].size() == 400000);
  }
}

TEST_CASE("a second real-time clock object shares the system clock's state", "[id-space]") {
  GeneratorOptions a;
  a.node_id = 41;
  a.mode = Mode::kMonotonic;
  GeneratorOptions b = a;
  b.clock = std::make_shared<OtherRealClock>();
  Generator ga(a), gb(b);
  CHECK(duplicates(race({&ga, &gb}, 200000)) == 0);
}

TEST_CASE("overlapping id spaces that cannot share a word are refused, naming the other",
          "[id-space]") {
  // 41.10.12 node 5 and 41.11.11 node 10 both mint ids whose bits 12..21 read 5.
  GeneratorOptions a;
  a.node_id = 5;
  Generator ga(a);
  GeneratorOptions b;
  b.layout = Layout::parse("41.11.11@" + std::to_string(E));
  b.node_id = 10;
  const Error e = error_of([&] { Generator gb(b); });
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(e.what()).find("node 5 of layout 41.10.12@1704067200000") != std::string::npos);
  CHECK(std::string(e.what()).find("node 10 of layout 41.11.11") != std::string::npos);
  b.node_id = 12;  // bits 12..21 read 6: disjoint
  Generator ok(b);
  ga.close();  // closed: the overlapping shape can be opened now
  b.node_id = 10;
  Generator gb(b);
  CHECK(decode(b.layout, gb.next_id()).node_id == 10);
}

TEST_CASE("a closed space's last millisecond carries over to an overlapping new shape",
          "[id-space]") {
  auto clock = std::make_shared<ScriptedClock>(E + 500);
  GeneratorOptions a;
  a.node_id = 5;
  a.clock = clock;
  a.mode = Mode::kMonotonic;
  int64_t last;
  {
    Generator ga(a);
    for (int i = 0; i < 5000; ++i) last = ga.next_id();  // borrows E + 501
  }
  GeneratorOptions b;
  b.layout = Layout::parse("41.11.11@" + std::to_string(E));
  b.node_id = 10;
  b.clock = clock;
  Generator gb(b);
  // Strict, clock at E + 500: E + 501 was spent by the other shape, so it must not mint at
  // E + 500 or E + 501 (its ids there could equal ga's).
  CHECK(kind_of([&] { gb.next_id(); }) == ErrorKind::kClockMovedBackwards);
  clock->set_wall_ms(E + 502);
  const int64_t id = gb.next_id();
  CHECK(id > last);
  CHECK(decode(b.layout, id).timestamp_ms == E + 502);
}

TEST_CASE("successive generators of one static node never repeat an id", "[id-space]") {
  for (Mode mode : {Mode::kStrict, Mode::kMonotonic}) {
    std::vector<std::vector<int64_t>> runs;
    for (int cycle = 0; cycle < 100; ++cycle) {
      GeneratorOptions o;
      o.node_id = 37;
      o.mode = mode;
      Generator g(o);
      runs.emplace_back();
      for (int i = 0; i < 3000; ++i) runs.back().push_back(g.next_id());
      if (cycle % 2 == 0) g.close();  // closed, or just destroyed
    }
    CHECK(duplicates(runs) == 0);
  }
  // Memory stays flat: one space, however many generator lifetimes. (Another node: the
  // monotonic cycles above ran node 37 tens of ms ahead, which strict mode must wait out.)
  const size_t spaces = detail::IdSpace::remembered() + 1;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    GeneratorOptions o;
    o.node_id = 38;
    Generator g(o);
    g.next_id();
  }
  CHECK(detail::IdSpace::remembered() == spaces);
}

TEST_CASE("a scripted clock's spaces are forgotten with the clock", "[id-space]") {
  const size_t before = detail::IdSpace::remembered();
  for (int i = 0; i < 100; ++i) {
    GeneratorOptions o;
    o.node_id = i;
    o.clock = std::make_shared<ScriptedClock>(E + 1);
    Generator g(o);
    g.next_id();
  }
  CHECK(detail::IdSpace::remembered() == before);
}

TEST_CASE("scripted clocks are worlds apart, generators on one clock share", "[id-space]") {
  auto c1 = std::make_shared<ScriptedClock>(E + 5);
  auto c2 = std::make_shared<ScriptedClock>(E + 5);
  GeneratorOptions o;
  o.node_id = 7;
  o.clock = c1;
  Generator a(o), b(o);  // one clock: one space
  const int64_t first = a.next_id();
  CHECK(b.next_id() == first + 1);
  o.clock = c2;
  Generator c(o);  // another clock's world: its own state, never refused
  CHECK(decode(Layout(), c.next_id()).sequence == 0);
}

TEST_CASE("strict beside a monotonic sibling never issues ahead of its wall clock",
          "[id-space]") {
  auto clock = std::make_shared<ScriptedClock>(E + 1000);
  GeneratorOptions m;
  m.node_id = 9;
  m.mode = Mode::kMonotonic;
  m.clock = clock;
  GeneratorOptions s = m;
  s.mode = Mode::kStrict;
  Generator mono(m), strict(s);
  strict.next_id();  // strict has seen E + 1000
  for (int i = 0; i < 4096 * 500; ++i) mono.next_id();  // runs ~500 ms ahead
  // The wall clock still reads E + 1000 (not behind what strict saw): strict must wait or
  // refuse, never hand out an id stamped ~500 ms ahead of its clock.
  const Error e = error_of([&] { strict.next_id(); });
  CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
  CHECK(e.drift_ms() >= 499);
  clock->set_wall_ms(E + 1502);
  const int64_t id = strict.next_id();
  CHECK(decode(Layout(), id).timestamp_ms <= E + 1502 + 5);
  // And with the real clock: no strict id is stamped ahead of the wall clock read after it.
  GeneratorOptions rm;
  rm.node_id = 10;
  rm.mode = Mode::kMonotonic;
  GeneratorOptions rs = rm;
  rs.mode = Mode::kStrict;
  Generator rmono(rm), rstrict(rs);
  for (int i = 0; i < 1000; ++i) rstrict.next_id();
  for (int i = 0; i < 4096 * 200; ++i) rmono.next_id();
  int ahead = 0;
  for (int i = 0; i < 20000; ++i) {
    try {
      const int64_t id2 = rstrict.next_id();
      const int64_t wall = system_clock()->wall_ns() / 1000000;
      ahead += decode(Layout(), id2).timestamp_ms > wall + 5;
    } catch (const Error& err) {
      CHECK(err.kind() == ErrorKind::kClockMovedBackwards);
    }
  }
  CHECK(ahead == 0);
}

TEST_CASE("layouts without node bits mint ascending unique ids to the window's end",
          "[id-space][edges]") {
  // Timestamp + sequence = 63 bits: the packed state's last value is 2^63 - 1. Windows
  // that end where a clock can reach (before 2262) are driven to their last millisecond.
  for (const char* text : {"43.0.20@0", "41.0.22@1704067200000", "20.0.43@1704067200000",
                           "1.0.62@0", "30.0.33@1704067200000", "42.1.20@0"}) {
    const Layout layout = Layout::parse(text);
    INFO(text);
    const int64_t last_ms = layout.max_timestamp_ms();
    for (Mode mode : {Mode::kStrict, Mode::kMonotonic}) {
      INFO(mode_name(mode));
      auto clock = std::make_shared<ScriptedClock>(last_ms - 1);
      GeneratorOptions o;
      o.layout = layout;
      o.node_id = layout.max_node_id();
      o.mode = mode;
      o.clock = clock;
      Generator g(o);
      std::vector<int64_t> ids = g.next_ids(5000);
      clock->set_wall_ms(last_ms);  // the window's last millisecond
      const std::vector<int64_t> more = g.next_ids(5000);
      ids.insert(ids.end(), more.begin(), more.end());
      for (size_t i = 1; i < ids.size(); ++i) REQUIRE(ids[i] > ids[i - 1]);
      CHECK(ids.front() >= 0);
      CHECK(decode(layout, ids.back()).timestamp_ms == last_ms);
      CHECK(g.status().drift_ms == 0);
      if (layout.sequence_bits() > 22) continue;  // too many ids to spend one by one
      // Spend the rest of the window: its last id is 2^63 - 1 (all node bits set), and the
      // ids of the last millisecond are consecutive.
      const std::vector<int64_t> rest = g.next_ids(static_cast<size_t>(INT64_MAX - ids.back()));
      REQUIRE(!rest.empty());
      CHECK(rest.front() == ids.back() + 1);
      CHECK(rest.back() == INT64_MAX);
      ErrorKind ended = ErrorKind::kInternal;
      try {
        g.next_id();
      } catch (const Error& e) {
        ended = e.kind();
      }
      // strict waits for a next millisecond the frozen clock never reaches; monotonic has
      // nothing left to borrow.
      CHECK(ended == (mode == Mode::kStrict ? ErrorKind::kClockMovedBackwards
                                            : ErrorKind::kTimestampOutOfRange));
      clock->set_wall_ms(last_ms + 1);
      CHECK(kind_of([&] { g.next_id(); }) == ErrorKind::kTimestampOutOfRange);
      clock->set_wall_ms(last_ms);
      CHECK_THROWS_AS(g.next_id(), Error);  // nothing wraps back to small ids
      CHECK_FALSE(g.status().healthy);
    }
  }
}

TEST_CASE("status figures stay exact for wide timestamp fields", "[id-space][edges]") {
  // 52 timestamp bits: after an id at +9e12 ms, a clock at -9e12 ms is 1.8e13 ms behind,
  // more than an int64 of nanoseconds holds. It must be reported as such, never wrap into
  // "healthy" or a wait.
  const Layout layout = Layout::parse("52.0.11@0");
  constexpr int64_t kFar = 9'000'000'000'000;
  for (Mode mode : {Mode::kMonotonic, Mode::kStrict}) {
    auto clock = std::make_shared<ScriptedClock>(kFar);
    GeneratorOptions o;
    o.layout = layout;
    o.node_id = 0;
    o.mode = mode;
    o.clock = clock;
    Generator g(o);
    g.next_id();
    clock->set_wall_ms(-kFar);
    const Status st = g.status();
    CHECK_FALSE(st.healthy);
    CHECK(st.drift_ms == 2 * kFar);
    CHECK(g.drift_ms() == 2 * kFar);
    clock->set_wall_ms(1);
    const Error e = error_of([&] { g.next_id(); });
    CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
    CHECK(e.drift_ms() == kFar - 1);
    CHECK(g.stats().waits == 0);
  }
}

TEST_CASE("a scripted clock outside the nanosecond range is refused, naming the value",
          "[clock][edges]") {
  const Error e = error_of([] { ScriptedClock c(9'300'000'000'000); });
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(e.what()).find("9300000000000") != std::string::npos);
  CHECK(kind_of([] { ScriptedClock c(int64_t{1} << 62); }) == ErrorKind::kInvalidArgument);
  CHECK(kind_of([] { ScriptedClock c(-(int64_t{1} << 62)); }) == ErrorKind::kInvalidArgument);
  ScriptedClock edge(ScriptedClock::kMaxAbsMs);
  CHECK(edge.wall_ns() == ScriptedClock::kMaxAbsMs * 1000000);
  // A pattern that walks out of the range refuses at the reading that would leave it.
  auto walking = std::make_shared<ScriptedClock>(std::vector<Seg>{{ScriptedClock::kMaxAbsMs - 1, 1, 1}});
  CHECK(walking->wall_ns() == (ScriptedClock::kMaxAbsMs - 1) * 1000000);
  CHECK(walking->wall_ns() == ScriptedClock::kMaxAbsMs * 1000000);
  CHECK(kind_of([&] { walking->wall_ns(); }) == ErrorKind::kInvalidArgument);
  // A generator on such a clock refuses with that error and issues nothing.
  auto far = std::make_shared<ScriptedClock>(std::vector<Seg>{{E + 1}, {ScriptedClock::kMaxAbsMs, 1, 1}});
  GeneratorOptions o;
  o.node_id = 1;
  o.clock = far;
  Generator g(o);
  g.next_id();
  CHECK(kind_of([&] { g.next_id(); }) == ErrorKind::kTimestampOutOfRange);  // 2262 > 2093
  CHECK(kind_of([&] { g.next_id(); }) == ErrorKind::kInvalidArgument);
  CHECK(g.stats().ids_issued == 1);
  ScriptedClock jump(std::vector<Seg>{{0, 1, INT64_MAX}});
  CHECK(jump.wall_ns() == 0);
  CHECK(kind_of([&] { jump.wall_ns(); }) == ErrorKind::kInvalidArgument);
}
