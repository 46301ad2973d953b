// parse_iso8601 beyond the conformance vectors (conformance/vectors/time.json): the round
// trip with format_iso8601 over the whole 0000-9999 range, every truncation of a valid text,
// views that end before their buffer, long and non-ASCII input, and message quoting.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;

namespace {

constexpr int64_t kMsPerDay = 86400000;
constexpr int64_t kFirstMs = -62167219200000;     // 0000-01-01T00:00:00.000Z
constexpr int64_t kLastMs = Layout::kMaxEpochMs;  // 9999-12-31T23:59:59.999Z

std::string message_of(std::string_view text) {
  const Error e = error_of([&] { parse_iso8601(text); });
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  return e.what();
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("parse_iso8601 gives the instants Python's datetime gives", "[time]") {
  // Expected values computed with Python's datetime, not with the core.
  CHECK(parse_iso8601("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_iso8601("1969-12-31T23:59:59.999Z") == -1);
  CHECK(parse_iso8601("1900-03-01T00:00:00Z") == -2203891200000);
  CHECK(parse_iso8601("2000-03-01T00:00:00Z") == 951868800000);
  CHECK(parse_iso8601("2024-02-29T12:34:56.789Z") == 1709210096789);
  CHECK(parse_iso8601("0001-01-01T00:00:00Z") == -62135596800000);
  CHECK(parse_iso8601("0000-01-01T00:00:00Z") == kFirstMs);
  CHECK(parse_iso8601("9999-12-31T23:59:59.999Z") == kLastMs);
  CHECK(parse_iso8601("2025-01-24T20:35:58.021+01:00") == 1737747358021);
  CHECK(parse_iso8601("1999-12-31T16:00:00-08:00") == 946684800000);
  // The reference's literal id, composed from its text.
  CHECK(compose(Layout(), parse_iso8601("2025-01-24T19:35:58.021Z"), 37, 0) == 141264821508263936);
}

TEST_CASE("parse_iso8601(format_iso8601(ms)) == ms from year 0000 to 9999", "[time]") {
  int64_t checked = 0;
  auto round_trip = [&](int64_t ms) {
    const std::string text = format_iso8601(ms);
    INFO(ms << " " << text);
    REQUIRE(parse_iso8601(text) == ms);
    ++checked;
  };
  // Every 11th day of the range (so every month and leap day is hit over the years), each
  // at a different time of day and millisecond.
  for (int64_t day = kFirstMs / kMsPerDay; day * kMsPerDay <= kLastMs; day += 11)
    round_trip(day * kMsPerDay + ((day * 7919 * 1009) % kMsPerDay + kMsPerDay) % kMsPerDay);
  // Every day around the Unix epoch, the presets' epochs and both ends.
  for (int64_t center : {kFirstMs, int64_t{0}, int64_t{951782400000}, Layout().epoch_ms(),
                         Layout::kTwitter.epoch_ms(), Layout::kDiscord.epoch_ms(),
                         Layout().max_timestamp_ms(), kLastMs - 999})
    for (int64_t d = -400; d <= 400; ++d) {
      const int64_t ms = center + d * kMsPerDay + d;
      if (ms >= kFirstMs && ms <= kLastMs) round_trip(ms);
    }
  // Every millisecond of the first and last two seconds.
  for (int64_t i = 0; i < 2000; ++i) {
    round_trip(kFirstMs + i);
    round_trip(kLastMs - i);
  }
  CHECK(checked > 330000);
}

TEST_CASE("a canonical text is formatted back unchanged", "[time]") {
  for (const char* text :
       {"2024-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "0000-02-29T12:00:00.001Z",
        "9999-12-31T23:59:59.999Z", "2010-11-04T01:42:54.657Z"})
    CHECK(format_iso8601(parse_iso8601(text)) == text);
}

TEST_CASE("offsets, fractions and lower case give the same instant", "[time]") {
  const int64_t t = parse_iso8601("2024-06-01T12:00:00.120Z");
  CHECK(parse_iso8601("2024-06-01T12:00:00.12Z") == t);
  CHECK(parse_iso8601("2024-06-01T12:00:00.120000000Z") == t);
  CHECK(parse_iso8601("2024-06-01t12:00:00.120z") == t);
  CHECK(parse_iso8601("2024-06-01T17:30:00.120+05:30") == t);
  CHECK(parse_iso8601("2024-06-01T04:00:00.120-08:00") == t);
  CHECK(parse_iso8601("2024-06-01T12:00:00.120+00:00") == t);
  CHECK(parse_iso8601("2024-06-01T12:00:00.120-00:00") == t);
  CHECK(parse_iso8601("2024-06-02T11:59:00.120+23:59") == t);
  // An offset may carry the instant across the ends of 0000-9999.
  CHECK(parse_iso8601("0000-01-01T00:00:00+23:59") == kFirstMs - (23 * 60 + 59) * 60000);
  CHECK(parse_iso8601("9999-12-31T23:59:59.999-23:59") == kLastMs + (23 * 60 + 59) * 60000);
}

TEST_CASE("every field is checked against its month, year and range", "[time]") {
  CHECK(parse_iso8601("2000-02-29T00:00:00Z") == 951782400000);  // 400-year leap
  CHECK(contains(message_of("1900-02-29T00:00:00Z"), "day 29 is outside 01-28 for 1900-02"));
  CHECK(contains(message_of("2023-02-29T00:00:00Z"), "day 29 is outside 01-28 for 2023-02"));
  CHECK(contains(message_of("2024-02-30T00:00:00Z"), "day 30 is outside 01-29 for 2024-02"));
  CHECK(contains(message_of("2024-04-31T00:00:00Z"), "day 31 is outside 01-30 for 2024-04"));
  CHECK(contains(message_of("2024-01-00T00:00:00Z"), "day 00 is outside 01-31 for 2024-01"));
  CHECK(contains(message_of("2024-00-01T00:00:00Z"), "month 00 is outside 01-12"));
  CHECK(contains(message_of("2024-13-01T00:00:00Z"), "month 13 is outside 01-12"));
  CHECK(contains(message_of("2024-01-01T24:00:00Z"), "hour 24 is outside 00-23"));
  CHECK(contains(message_of("2024-01-01T00:60:00Z"), "minute 60 is outside 00-59"));
  CHECK(contains(message_of("2024-01-01T00:00:61Z"), "second 61 is outside 00-59"));
  CHECK(contains(message_of("2016-12-31T23:59:60Z"), "leap second"));
  CHECK(contains(message_of("2024-01-01T00:00:00+24:00"), "offset hour 24 is outside 00-23"));
  CHECK(contains(message_of("2024-01-01T00:00:00-00:60"), "offset minute 60 is outside 00-59"));
  CHECK(contains(message_of("2024-01-01T00:00:00.1234Z"), "whole milliseconds"));
  CHECK(parse_iso8601("2024-01-01T00:00:00.1230Z") == parse_iso8601("2024-01-01T00:00:00.123Z"));
}

TEST_CASE("every truncation of a valid text is refused", "[time]") {
  const std::string full = "2024-02-29T23:59:59.999+05:30";
  REQUIRE(parse_iso8601(full) == 1709231399999);
  for (size_t n = 0; n < full.size(); ++n) {
    INFO(n);
    // The view ends inside the buffer: the parser must not read the bytes after it.
    CHECK_THROWS_AS(parse_iso8601(std::string_view(full.data(), n)), Error);
  }
  const std::string z = "2024-01-01T00:00:00Z";
  CHECK(contains(message_of(std::string_view(z.data(), z.size() - 1)), "an offset is required"));
}

TEST_CASE("the message quotes at most 60 bytes of the text, cut on a character", "[time]") {
  // "é" is 2 bytes; after the "x", byte 60 is the second byte of the 30th one.
  std::string text = "x";
  for (int i = 0; i < 40; ++i) text += "\xC3\xA9";
  const std::string msg = message_of(text);
  CHECK(contains(msg, "'" + text.substr(0, 59) + "...'"));
  CHECK(contains(msg, "the year must be 4 ASCII digits"));
  CHECK(msg.size() < 250);
}

TEST_CASE("long input is read once and quoted short", "[time]") {
  const std::string zeros(1 << 20, '0');
  CHECK(parse_iso8601("2024-01-01T00:00:00.5" + zeros + "Z") == 1704067200500);
  const std::string msg = message_of("2024-01-01T00:00:00Z" + zeros);
  CHECK(contains(msg, "unexpected text after the offset"));
  CHECK(msg.size() < 250);
}

TEST_CASE("only ASCII digits, no signs, no spaces", "[time]") {
  // Fullwidth and Arabic-Indic digits are digits to Unicode, not to RFC 3339.
  CHECK(contains(message_of("\xEF\xBC\x92\xEF\xBC\x90\xEF\xBC\x92\xEF\xBC\x94-01-01T00:00:00Z"),
                 "the year must be 4 ASCII digits"));
  CHECK(
      contains(message_of("2024-01-\xD9\xA0\xD9\xA1T00:00:00Z"), "the day must be 2 ASCII digits"));
  CHECK(contains(message_of("+2024-01-01T00:00:00Z"), "the year must be 4 ASCII digits"));
  CHECK(contains(message_of("10000-01-01T00:00:00Z"), "the year must be 4 ASCII digits"));
  CHECK(contains(message_of("2024-01-01T-1:00:00Z"), "the hour must be 2 ASCII digits"));
  CHECK(contains(message_of("2024-01-01T00:00:00.-12Z"), "a fraction '.' must be followed"));
  CHECK(contains(message_of("2024-01-01 00:00:00Z"), "not a space"));
  // what() is a C string: a NUL (or a newline) in the text is quoted as \xNN, not raw.
  const std::string msg = message_of(std::string("2024-01-01T00:00:00Z\0\n", 22));
  CHECK(contains(msg, "'2024-01-01T00:00:00Z\\x00\\x0a': unexpected text after the offset"));
  CHECK(contains(message_of(""), "the text is empty"));
}
