// UUIDv7: RFC 9562 bits, the counter's order, the Snowflake generator's guards, batches,
// fork(), and the text form's refusals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"
#include "uuid/siphash.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::run_child;

namespace {

constexpr int64_t T = 1764720000000;  // 2025-12-03T00:00:00Z

Uuid7Options scripted(std::shared_ptr<Clock> clock, uint64_t seed, Mode mode = Mode::kStrict) {
  Uuid7Options o;
  o.mode = mode;
  o.clock = std::move(clock);
  o.random = std::make_shared<ScriptedRandom>(seed);
  return o;
}

std::shared_ptr<ScriptedClock> frozen(int64_t ms) { return std::make_shared<ScriptedClock>(ms); }

}  // namespace

TEST_CASE("uuid7: SipHash-2-4 matches the reference implementation's vector", "[uuid7]") {
  // vectors.h of the SipHash reference: key 00..0f, message 00..07 -> 62 24 93 9a 79 f5 f5 93.
  CHECK(detail::siphash24_u64(0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL,
                              0x0706050403020100ULL) == 0x93f5f5799a932462ULL);
}

TEST_CASE("uuid7: version, variant, timestamp and an ascending counter", "[uuid7]") {
  Uuid7Generator g(scripted(frozen(T), 1));
  const Uuid a = g.next(), b = g.next();
  for (const Uuid& u : {a, b}) {
    CHECK(((u.hi >> 12) & 0xf) == 7);
    CHECK((u.lo >> 62) == 2);
    CHECK(decode_uuid7(u).timestamp_ms == T);
  }
  CHECK(decode_uuid7(b).counter == decode_uuid7(a).counter + 1);
  // The rollover guard: a millisecond's first counter is below 2^25.
  CHECK(decode_uuid7(a).counter < (int64_t{1} << 25));
  CHECK(a < b);
  CHECK(format_uuid(a).substr(0, 15) == "019ae182-3c00-7");  // T = 0x019ae1823c00
  CHECK(parse_uuid(format_uuid(a)) == a);
  CHECK(Uuid::from_bytes(a.bytes().data()) == a);
}

TEST_CASE("uuid7: a scripted clock and random source make every UUID known", "[uuid7]") {
  Uuid7Generator g1(scripted(frozen(T), 42)), g2(scripted(frozen(T), 42));
  Uuid7Generator other(scripted(frozen(T), 43));
  const std::vector<Uuid> singles{g1.next(), g1.next(), g1.next()};
  CHECK(g2.next(3) == singles);  // the batch form gives what single calls give
  CHECK(other.next() != singles[0]);
}

TEST_CASE("uuid7: the counter is seeded anew each millisecond", "[uuid7]") {
  auto clock = std::make_shared<ScriptedClock>(std::vector<ScriptedClock::Segment>{{T, 1, 1}});
  Uuid7Generator g(scripted(clock, 7));
  std::set<int64_t> counters;
  for (int i = 0; i < 64; ++i) counters.insert(decode_uuid7(g.next()).counter);
  CHECK(counters.size() == 64);  // 25 random bits each: 64 equal seeds would be a bug
}

TEST_CASE("uuid7: strict mode refuses a rewind past the budget and changes nothing", "[uuid7]") {
  auto clock = frozen(T);
  Uuid7Generator g(scripted(clock, 1));
  const Uuid last = g.next();
  clock->set_wall_ms(T - 10);
  const Error e = error_of([&] { g.next(); });
  CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
  CHECK(e.drift_ms() == 10);
  clock->set_wall_ms(T);
  const Uuid next = g.next();
  CHECK(last < next);
  CHECK(decode_uuid7(next).counter == decode_uuid7(last).counter + 1);
}

TEST_CASE("uuid7: monotonic mode runs ahead through a rewind and a spent millisecond", "[uuid7]") {
  auto clock = frozen(T);
  Uuid7Generator g(scripted(clock, 1, Mode::kMonotonic));
  const std::vector<Uuid> v = g.next(32768 + 5);  // one millisecond's sequence, and 5 more
  CHECK(std::is_sorted(v.begin(), v.end()));
  CHECK(std::adjacent_find(v.begin(), v.end()) == v.end());
  CHECK(decode_uuid7(v.back()).timestamp_ms == T + 1);
  clock->set_wall_ms(T - 600);
  CHECK(v.back() < g.next());
}

TEST_CASE("uuid7: strict mode refuses a millisecond whose 2^15 UUIDs are spent", "[uuid7]") {
  Uuid7Options o = scripted(frozen(T), 1);
  o.max_wait_ms = 0;
  Uuid7Generator g(o);
  g.next(32768);
  CHECK(error_of([&] { g.next(); }).kind() == ErrorKind::kClockMovedBackwards);
}

TEST_CASE("uuid7: times outside 48-bit Unix ms are refused", "[uuid7]") {
  Uuid7Generator g(scripted(frozen(-1), 1));
  CHECK(error_of([&] { g.next(); }).kind() == ErrorKind::kTimestampOutOfRange);
}

TEST_CASE("uuid7: bad options and batch sizes are refused naming the value", "[uuid7]") {
  Uuid7Options o;
  o.max_wait_ms = -1;
  const Error e = error_of([&] { Uuid7Generator g(o); });
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(e.what()).find("-1") != std::string::npos);
  Uuid7Generator g(scripted(frozen(T), 1));
  CHECK(std::string(error_of([&] { g.batch_size(-3); }).what()).find("-3") != std::string::npos);
}

TEST_CASE("uuid7: a closed generator refuses", "[uuid7]") {
  Uuid7Generator g(scripted(frozen(T), 1));
  g.close();
  g.close();
  CHECK(g.closed());
  CHECK(error_of([&] { g.next(); }).kind() == ErrorKind::kGeneratorClosed);
  CHECK(error_of([&] { g.next(2); }).kind() == ErrorKind::kGeneratorClosed);
}

TEST_CASE("uuid7: parse and decode refuse other versions and malformed text", "[uuid7]") {
  const Error v4 =
      error_of([] { decode_uuid7(parse_uuid("550e8400-e29b-41d4-a716-446655440000")); });
  CHECK(v4.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(v4.what()) ==
        "not a UUIDv7: 550e8400-e29b-41d4-a716-446655440000 has version 4; want version 7, "
        "variant 10");
  const Error variant =
      error_of([] { decode_uuid7(parse_uuid("019ae206-5800-7000-c000-000000000000")); });
  CHECK(std::string(variant.what()).find("variant") != std::string::npos);
  for (const char* text :
       {"", "019ae206-5800-7000-8000-00000000000", "019ae206x5800-7000-8000-000000000000",
        "019ae206-5800-7000-8000-00000000000g"}) {
    const Error e = error_of([&] { parse_uuid(text); });
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK(std::string(e.what()).find(std::string("'") + text + "'") != std::string::npos);
  }
  CHECK(parse_uuid("019AE20658007000800000000000000A") ==
        parse_uuid("019ae206-5800-7000-8000-00000000000a"));
}

TEST_CASE("uuid7: 10 M UUIDs from the system clock: strictly increasing, so no duplicate",
          "[uuid7][slow]") {
  Uuid7Options o;
  o.mode = Mode::kMonotonic;
  Uuid7Generator g(o);
  Uuid prev = g.next();
  int64_t not_increasing = 0;
  for (int i = 1; i < 10'000'000; ++i) {
    const Uuid u = g.next();
    not_increasing += !(prev < u);
    prev = u;
  }
  CHECK(not_increasing == 0);
  // Monotonic mode runs ahead of the wall clock when minting outpaces 2^15 UUIDs per ms,
  // and every UUIDv7 generator of this process shares that id space: the strict-mode tests
  // after this one would be refused as a rewind. Wait until the wall clock is past it.
  const int64_t last_ms = decode_uuid7(prev).timestamp_ms;
  while (std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count() <= last_ms)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST_CASE("uuid7: 10 M UUIDs from 4 threads: each thread's increasing, none shared",
          "[uuid7][slow]") {
  Uuid7Generator g(Uuid7Options{});
  constexpr int kThreads = 4, kEach = 2'500'000;
  // (ms - start) << 26 | counter: what orders and identifies a UUID of one generator.
  std::vector<std::vector<uint64_t>> keys(kThreads);
  std::vector<int64_t> not_increasing(kThreads, 0);
  const int64_t start = decode_uuid7(g.next()).timestamp_ms;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      keys[t].reserve(kEach);
      Uuid prev{};
      for (int i = 0; i < kEach; ++i) {
        const Uuid u = i % 2 ? g.next() : g.next(1)[0];
        not_increasing[t] += !(prev < u);
        prev = u;
        const Uuid7Fields f = decode_uuid7(u);
        keys[t].push_back((static_cast<uint64_t>(f.timestamp_ms - start) << 26) |
                          static_cast<uint64_t>(f.counter));
      }
    });
  for (auto& th : threads) th.join();
  std::vector<uint64_t> all;
  all.reserve(size_t{kThreads} * kEach);
  for (auto& k : keys) all.insert(all.end(), k.begin(), k.end());
  std::sort(all.begin(), all.end());
  const auto duplicates =
      all.size() - static_cast<size_t>(std::unique(all.begin(), all.end()) - all.begin());
  CHECK(duplicates == 0);
  for (int t = 0; t < kThreads; ++t) CHECK(not_increasing[t] == 0);
}

TEST_CASE("uuid7: a forked child keeps minting, after the parent's UUIDs, with fresh random bits",
          "[uuid7][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  Uuid7Generator g(Uuid7Options{});
  const Uuid before = g.next();  // the parent's random buffer now holds unread words
  const auto [out, code] = run_child([&]() -> std::string {
    std::string text;
    for (const Uuid& u : g.next(8)) text += format_uuid(u) + " ";
    text += format_uuid(g.next());
    return text;
  });
  REQUIRE(code == 0);
  std::vector<std::string> child;
  for (size_t at = 0; at < out.size(); at += 37) child.push_back(out.substr(at, 36));
  REQUIRE(child.size() == 9);
  CHECK(before < parse_uuid(child[0]));
  // The parent draws the same buffer positions the child did: a child that kept the
  // parent's buffer would print the parent's random bits.
  std::set<int64_t> parent_random;
  for (const Uuid& u : g.next(8)) parent_random.insert(decode_uuid7(u).random);
  parent_random.insert(decode_uuid7(g.next()).random);
  int64_t shared = 0;
  for (const auto& text : child)
    shared += parent_random.count(decode_uuid7(parse_uuid(text)).random);
  CHECK(shared == 0);
}

TEST_CASE("uuid7: generators of one process on the system clock are ordered together", "[uuid7]") {
  // They share the (millisecond, sequence) word of layout 48.0.15@0, so with one key for
  // the process their UUIDs interleave in one strictly increasing order.
  Uuid7Generator a(Uuid7Options{}), b(Uuid7Options{});
  Uuid prev = a.next();
  int64_t not_increasing = 0;
  for (int i = 0; i < 10'000; ++i) {
    const Uuid u = (i % 2 ? a : b).next();
    not_increasing += !(prev < u);
    prev = u;
  }
  CHECK(not_increasing == 0);
}
