// UUIDv7 generators and Snowflake generators of the same 48-bit-ms shape: a UUID is 128 bits
// and a Snowflake id 64, so no value of one can equal a value of the other, and neither kind
// of generator may refuse, slow or spend the other's ids.
#include <catch2/catch.hpp>

#include <memory>

#include "snowfleet/snowfleet.hpp"

using namespace snowfleet;

namespace {

constexpr int64_t T = 1764720000000;  // 2025-12-03T00:00:00Z

Uuid7Options on(std::shared_ptr<Clock> clock) {
  Uuid7Options o;
  o.clock = std::move(clock);
  o.random = std::make_shared<ScriptedRandom>(1);
  o.max_wait_ms = 0;
  return o;
}

GeneratorOptions snowflake(std::shared_ptr<Clock> clock, const Layout& layout, int64_t node) {
  GeneratorOptions o;
  o.layout = layout;
  o.node_id = node;
  o.clock = std::move(clock);
  o.max_wait_ms = 0;
  return o;
}

}  // namespace

TEST_CASE("uuid7: a UUIDv7 generator does not refuse a Snowflake generator of a 48.x.y@0 layout",
          "[uuid7]") {
  auto clock = std::make_shared<ScriptedClock>(T);
  Uuid7Generator u(on(clock));
  // Same epoch and timestamp shift as 48.0.15@0, so the id-space registry saw an overlap.
  Generator a(snowflake(clock, Layout::create(0, 48, 5, 10), 3));
  CHECK(a.next_id() > 0);
  CHECK(u.next().hi != 0);
}

TEST_CASE("uuid7: a Snowflake generator does not refuse a UUIDv7 generator", "[uuid7]") {
  auto clock = std::make_shared<ScriptedClock>(T);
  Generator a(snowflake(clock, Layout::create(0, 48, 8, 7), 200));
  Uuid7Generator u(on(clock));
  CHECK(u.next().hi != 0);
  CHECK(a.next_id() > 0);
}

TEST_CASE("uuid7: a Snowflake generator of layout 48.0.15@0 does not spend the UUIDs' counter",
          "[uuid7]") {
  auto clock = std::make_shared<ScriptedClock>(T);
  Uuid7Generator u(on(clock));
  Generator s(snowflake(clock, Uuid7Generator::layout(), 0));
  const int64_t before = decode_uuid7(u.next()).counter;
  for (int i = 0; i < 100; ++i) s.next_id();
  CHECK(decode_uuid7(u.next()).counter == before + 1);
  // And the other way: the Snowflake sequence is the Snowflake generator's alone.
  const int64_t id = s.next_id();
  u.next(1000);
  CHECK(s.next_id() == id + 1);
}
