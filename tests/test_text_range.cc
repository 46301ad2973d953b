// base32 / base62 text forms and the time-range helpers beyond the conformance vectors:
// random round trips, byte order == numeric order, every refused byte, and that a range's
// bounds hold every id of its milliseconds and none outside them, over many layouts.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <string>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::kind_of;

TEST_CASE("base32 and base62 round-trip and keep numeric order as byte order", "[text]") {
  std::mt19937_64 rng(13);
  for (IdFormat f : {IdFormat::kBase32, IdFormat::kBase62}) {
    std::string prev;
    int64_t prev_id = -1;
    for (int i = 0; i < 20000; ++i) {
      // Half uniform over [0, 2^63), half around small and adjacent values.
      const int64_t id =
          i % 2 ? static_cast<int64_t>(rng() >> 1)
                : static_cast<int64_t>(rng() % 100000) + (prev_id < 0 ? 0 : prev_id % 7);
      const std::string text = format_id_as(id, f);
      REQUIRE(text.size() == (f == IdFormat::kBase32 ? kBase32Length : kBase62Length));
      REQUIRE(parse_id_as(text, f) == id);
      if (prev_id >= 0) REQUIRE((std::strcmp(prev.c_str(), text.c_str()) < 0) == (prev_id < id));
      prev = text;
      prev_id = id;
    }
  }
}

TEST_CASE("base32 reads either case and Crockford's aliases, writes upper case", "[text]") {
  const int64_t id = 141264821508263936;
  const std::string up = format_id_as(id, IdFormat::kBase32);
  std::string low = up;
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  CHECK(parse_base32(low) == id);
  CHECK(parse_base32("000000000000I") == 1);
  CHECK(parse_base32("000000000000l") == 1);
  CHECK(parse_base32("000000000000O") == 0);
  CHECK(format_id_as(parse_base32("0000000000o0i"), IdFormat::kBase32) == "0000000000001");
}

TEST_CASE("every byte outside an alphabet is refused at its position", "[text]") {
  const std::string b32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzIiLlOo";
  const std::string b62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    std::string t32 = "0000000000000", t62 = "00000000000";
    t32[5] = c;
    t62[5] = c;
    if (b32.find(c) == std::string::npos) {
      const Error e = error_of([&] { parse_base32(t32); });
      CHECK(e.kind() == ErrorKind::kInvalidArgument);
      CHECK(std::string(e.what()).find("position 5") != std::string::npos);
    } else {
      CHECK_NOTHROW(parse_base32(t32));
    }
    if (b62.find(c) == std::string::npos) {
      const Error e = error_of([&] { parse_base62(t62); });
      CHECK(std::string(e.what()).find("position 5") != std::string::npos);
    } else {
      CHECK_NOTHROW(parse_base62(t62));
    }
  }
}

TEST_CASE("base62 refuses every value above 2^63 - 1, including those past 2^64", "[text]") {
  CHECK(parse_base62("AzL8n0Y58m7") == INT64_MAX);
  for (const char* t : {"AzL8n0Y58m8", "B0000000000", "LygHa16AHYF", "LygHa16AHYG", "zzzzzzzzzzz"})
    CHECK(kind_of([&] { parse_base62(t); }) == ErrorKind::kInvalidArgument);
  CHECK(parse_base32("7ZZZZZZZZZZZZ") == INT64_MAX);
  for (const char* t : {"8000000000000", "G000000000000", "ZZZZZZZZZZZZZ"})
    CHECK(kind_of([&] { parse_base32(t); }) == ErrorKind::kInvalidArgument);
  CHECK(kind_of([] { format_id_as(-1, IdFormat::kBase62); }) == ErrorKind::kInvalidArgument);
  CHECK(kind_of([] { parse_id_format("hex"); }) == ErrorKind::kInvalidArgument);
}

TEST_CASE("min_id / max_id bound every id of their millisecond, over many layouts", "[range]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const int ts = 1 + static_cast<int>(rng() % Layout::kMaxTimestampBits);
    const int seq = static_cast<int>(rng() % (63 - ts + 1));
    const Layout l =
        Layout::create(static_cast<int64_t>(rng() % 2000000000000ULL), ts, 63 - ts - seq, seq);
    const int64_t ms = l.epoch_ms() + static_cast<int64_t>(rng() % (l.max_elapsed_ms() + 1));
    const int64_t node = static_cast<int64_t>(rng() % (static_cast<uint64_t>(l.max_node_id()) + 1));
    const int64_t s = static_cast<int64_t>(rng() % (static_cast<uint64_t>(l.max_sequence()) + 1));
    const int64_t id = compose(l, ms, node, s);
    REQUIRE(min_id(l, ms) <= id);
    REQUIRE(id <= max_id(l, ms));
    REQUIRE(min_id(l, ms) == compose(l, ms, 0, 0));
    REQUIRE(max_id(l, ms) == compose(l, ms, l.max_node_id(), l.max_sequence()));
    if (ms > l.epoch_ms()) REQUIRE(max_id(l, ms - 1) + 1 == min_id(l, ms));  // no gap, no overlap
    const IdRange r = id_range(l, ms, ms + 1);  // end_ms may be the window's last ms + 1
    REQUIRE(r.first == min_id(l, ms));
    REQUIRE(r.last == max_id(l, ms));
  }
}

TEST_CASE("id_range: slack widens the upper bound only, clamped to the window", "[range]") {
  const Layout l;
  const int64_t e = l.epoch_ms();
  const IdRange exact = id_range(l, e + 100, e + 200);
  CHECK(exact.first == min_id(l, e + 100));
  CHECK(exact.last == max_id(l, e + 199));
  const IdRange slack = id_range(l, e + 100, e + 200, 1000);
  CHECK(slack.first == exact.first);
  CHECK(slack.last == max_id(l, e + 1199));
  CHECK(id_range(l, e, l.max_timestamp_ms() + 1, INT64_MAX).last == INT64_MAX);
  const Error bad = error_of([&] { id_range(l, e + 5, e + 5); });
  CHECK(bad.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(bad.what()).find("end_ms") != std::string::npos);
  CHECK(kind_of([&] { id_range(l, e - 1, e + 5); }) == ErrorKind::kTimestampOutOfRange);
  CHECK(kind_of([&] { id_range(l, e, e + 5, -1); }) == ErrorKind::kInvalidArgument);
}

TEST_CASE("whole_ms: a host's seconds + ns as Unix ms, whole milliseconds only", "[range]") {
  CHECK(whole_ms("time", 1737747358, 21'000'000) == 1737747358021);
  CHECK(whole_ms("time", 0, 0) == 0);
  CHECK(whole_ms("time", -1, 999'000'000) == -1);  // 1969-12-31T23:59:59.999Z
  // A finer part is refused, not rounded: the message names the argument and the instant.
  const Error e = error_of([] { whole_ms("start", 1796083200, 500'000); });
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(e.what()) ==
        "start must be a whole millisecond (an id's timestamp is whole ms), got "
        "2026-12-01T00:00:00.0005Z");
  CHECK(std::string(error_of([] { whole_ms("end", -1, 999'999'999); }).what())
            .find("got 1969-12-31T23:59:59.999999999Z") != std::string::npos);
  CHECK(kind_of([] { whole_ms("time", 1, 1'000'000'000); }) == ErrorKind::kInvalidArgument);
  CHECK(kind_of([] { whole_ms("time", 1, -1); }) == ErrorKind::kInvalidArgument);
  // Past int64 Unix ms (a Java Instant reaches year 1,000,000,000).
  const Error far = error_of([] { whole_ms("time", INT64_MAX / 1000 + 1, 0); });
  CHECK(far.kind() == ErrorKind::kTimestampOutOfRange);
  CHECK(std::string(far.what()).find("time is outside 64-bit Unix ms") != std::string::npos);
  CHECK(kind_of([] { whole_ms("time", INT64_MAX / 1000, 999'000'000); }) ==
        ErrorKind::kTimestampOutOfRange);
}
