// Moving generators: the moved-into one carries on where the other left off; the moved-from
// one refuses every call as closed; assigning over a live generator closes it (a leased node
// id is released).
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::Opts;
using snowfleet_test::temp_dir;

namespace {

constexpr int64_t T = 1704067200000 + 1'000'000;  // a scripted "now"
constexpr const char* kTwoSlots = "41.1.21@1704067200000";

GeneratorOptions static_node(int64_t node, int64_t now = T) {
  GeneratorOptions o;
  o.node_id = node;
  o.clock = std::make_shared<ScriptedClock>(now);
  return o;
}

void check_moved_from(Generator& g) {
  for (const Error& e :
       {error_of([&] { g.next_id(); }), error_of([&] { g.next_ids(3); }),
        error_of([&] { g.batch_size(1); }), error_of([&] { g.drift_ms(); })}) {
    CHECK(e.kind() == ErrorKind::kGeneratorClosed);
    CHECK(std::string(e.what()).find("moved from") != std::string::npos);
  }
  int64_t out[2];
  CHECK(error_of([&] { g.next_ids(out, 2); }).kind() == ErrorKind::kGeneratorClosed);
  CHECK(g.closed());
  CHECK(g.node_id() == -1);
  CHECK(g.stats().ids_issued == 0);
  const Status st = g.status();
  CHECK_FALSE(st.healthy);
  CHECK(st.reason.find("moved from") != std::string::npos);
  g.close();  // still nothing to do, no throw
}

}  // namespace

TEST_CASE("a moved generator keeps minting after the ids it issued", "[generator][move]") {
  Generator a(static_node(5));
  const int64_t first = a.next_id();
  Generator b(std::move(a));
  CHECK(b.node_id() == 5);
  CHECK(b.layout().to_string() == Layout().to_string());
  const int64_t second = b.next_id();
  CHECK(second > first);
  CHECK(b.stats().ids_issued == 2);
  CHECK(b.status().healthy);
  check_moved_from(a);
}

TEST_CASE("assigning over a live generator closes it", "[generator][move]") {
  Generator a(static_node(5));
  Generator b(static_node(6));
  const int64_t from_a = a.next_id();
  b = std::move(a);
  CHECK(b.node_id() == 5);
  CHECK(b.next_id() > from_a);
  check_moved_from(a);
  // Node 6's generator is gone: another one for node 6 starts on its own.
  Generator c(static_node(6));
  CHECK(c.next_id() > 0);
  Generator& same = b;
  b = std::move(same);  // a self-move leaves it as it was
  CHECK(b.node_id() == 5);
  CHECK_FALSE(b.closed());
}

TEST_CASE("assigning over a leased generator releases its slot", "[generator][move][local]") {
  const std::string src = "local:" + temp_dir();
  Opts two(src, T, Mode::kStrict, kTwoSlots);
  Generator a(two.o);
  Generator b(two.o);  // both slots held
  CHECK(error_of([&] { Generator none(two.o); }).kind() == ErrorKind::kNodeIdUnavailable);
  const int64_t b_slot = b.node_id();
  b = std::move(a);  // b's slot released, a's moved into b
  CHECK(b.status().lease_state == LeaseState::kHeld);
  CHECK(b.next_id() > 0);
  Generator again(two.o);
  CHECK(again.node_id() == b_slot);
  check_moved_from(a);
  // A moved generator still releases the slot it holds when it closes.
  const int64_t a_slot = b.node_id();
  b.close();
  CHECK(b.status().lease_state == LeaseState::kReleased);
  Generator third(two.o);
  CHECK(third.node_id() == a_slot);
}

TEST_CASE("generators move into containers and out of functions", "[generator][move]") {
  std::vector<Generator> gens;
  for (int64_t node = 10; node < 14; ++node) gens.emplace_back(static_node(node));
  gens.erase(gens.begin());  // moves the others down
  CHECK(gens.size() == 3);
  for (size_t i = 0; i < gens.size(); ++i) {
    CHECK(gens[i].node_id() == 11 + static_cast<int64_t>(i));
    CHECK(gens[i].next_id() > 0);
  }
  auto make = [] { return Generator(static_node(20)); };
  Generator made = make();
  CHECK(made.node_id() == 20);
}

TEST_CASE("uuid7: a moved generator keeps minting, the moved-from one is closed",
          "[uuid7][move]") {
  Uuid7Options o;
  o.clock = std::make_shared<ScriptedClock>(T);
  o.random = std::make_shared<ScriptedRandom>(1);
  o.mode = Mode::kMonotonic;
  o.max_wait_ms = 7;
  o.max_drift_ms = 9;
  Uuid7Generator a(o);
  const Uuid first = a.next();
  Uuid7Generator b(std::move(a));
  CHECK(first < b.next());
  CHECK(b.stats().ids_issued == 2);
  CHECK(b.status().healthy);
  for (const Error& e : {error_of([&] { a.next(); }), error_of([&] { a.next(2); }),
                         error_of([&] { a.batch_size(1); })}) {
    CHECK(e.kind() == ErrorKind::kGeneratorClosed);
    CHECK(std::string(e.what()).find("moved from") != std::string::npos);
  }
  CHECK(a.closed());
  CHECK(a.stats().ids_issued == 0);
  CHECK(a.status().reason.find("moved from") != std::string::npos);
  // As a moved-from Generator: nothing of the state it gave away.
  CHECK(a.status().node_id == -1);
  CHECK(a.mode() == Mode::kStrict);
  CHECK(a.max_wait_ms() == 0);
  CHECK(a.max_drift_ms() == 0);
  CHECK(b.mode() == Mode::kMonotonic);
  CHECK(b.max_wait_ms() == 7);
  CHECK(b.max_drift_ms() == 9);
  a.close();

  Uuid7Generator c(o);
  c = std::move(b);
  CHECK(c.next().hi != 0);
  CHECK(b.closed());
  CHECK(error_of([&] { b.next(); }).kind() == ErrorKind::kGeneratorClosed);
}

TEST_CASE("a slot released by a generator that issued nothing can mint at once",
          "[generator][move][local]") {
  const std::string dir = temp_dir();
  Opts two("local:" + dir, T, Mode::kStrict, kTwoSlots);
  Generator a(two.o);
  Generator b(two.o);
  const int64_t b_slot = b.node_id();
  b = std::move(a);  // b's generator closes without having issued an id
  // The slot's mark is put back (there was none: 0), not left a second ahead.
  CHECK(snowfleet_test::mark_in(dir, b_slot) < T);
  Generator again(two.o);
  REQUIRE(again.node_id() == b_slot);
  // Before: this refused with ClockMovedBackwards ("wall clock is 1000 ms behind the
  // high-water mark ... persisted in local:... slot N").
  CHECK(again.next_id() > 0);
  CHECK(again.status().healthy);
  // The same through close(): b holds a's slot, again holds the other.
  const int64_t a_slot = b.node_id();
  b.close();
  CHECK(snowfleet_test::mark_in(dir, a_slot) < T);
  Generator last(two.o);
  REQUIRE(last.node_id() == a_slot);
  CHECK(last.next_id() > 0);
}
