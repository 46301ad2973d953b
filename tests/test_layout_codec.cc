// Layout and codec behaviour beyond the conformance vectors: round trips over many
// layouts and values, text formatting, and the content of error messages.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::kind_of;


TEST_CASE("layout text form round-trips for every valid bit split", "[layout]") {
  std::mt19937_64 rng(42);
  int checked = 0;
  for (int ts = 1; ts <= Layout::kMaxTimestampBits; ++ts) {
    for (int seq = 0; seq + ts <= 63; seq += 5) {
      const int node = 63 - ts - seq;
      const int64_t epoch = static_cast<int64_t>(rng() % 2000000000000ULL);
      const Layout l = Layout::create(epoch, ts, node, seq);
      REQUIRE(Layout::parse(l.to_string()) == l);
      REQUIRE(l.timestamp_shift() + l.timestamp_bits() == 63);
      if (node >= 2) {
        const Layout s = Layout::create_split(epoch, ts, 1, node - 1, seq);
        REQUIRE(Layout::parse(s.to_string()) == s);
        REQUIRE(s.max_node_id() == l.max_node_id());
      }
      ++checked;
    }
  }
  CHECK(checked > 200);
}

TEST_CASE("presets have names and the default layout is the reference's", "[layout]") {
  CHECK(std::string(Layout().preset_name()) == "default");
  CHECK(Layout().to_string() == "41.10.12@1704067200000");
  CHECK(std::string(Layout::kTwitter.preset_name()) == "twitter");
  CHECK(std::string(Layout::kDiscord.preset_name()) == "discord");
  CHECK(std::string(Layout::create(0, 41, 10, 12).preset_name()).empty());
  CHECK(Layout::parse("twitter") == Layout::parse("41.5.5.12@1288834974657"));
}

TEST_CASE("layout errors name the bad input", "[layout]") {
  auto e = error_of([] { Layout::parse("41.10.13@1704067200000"); });
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(e.what()).find("64") != std::string::npos);
  e = error_of([] { Layout::parse("bogus"); });
  CHECK(std::string(e.what()).find("'bogus'") != std::string::npos);
  e = error_of([] { Layout::create(-5, 41, 10, 12); });
  CHECK(std::string(e.what()).find("-5") != std::string::npos);
}

TEST_CASE("a layout text with fewer than 3 bit widths is refused", "[layout]") {
  // Layout::parse read the widths it lacked from uninitialized memory: after
  // "41.5.5.12@0" left 5 and 12 there, "41.5@0" parsed as 41.5.5.12@0 (found by
  // tests/fuzz/layout.cc; its corpus keeps the input).
  for (const char* text : {"41.5@0", "41.12@0", "41.22@0", "63@0", "41@1704067200000"}) {
    INFO(text);
    const Layout four = Layout::parse("41.5.5.12@0");
    CHECK(four.split());
    const Error e = error_of([&] { Layout::parse(text); });
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK(std::string(e.what()).find(std::string("'") + text + "'") != std::string::npos);
  }
}

TEST_CASE("compose and decode are inverse over random fields and layouts", "[codec]") {
  std::mt19937_64 rng(7);
  const Layout layouts[] = {Layout(), Layout::kTwitter, Layout::kDiscord,
                            Layout::parse("42.8.13@1704067200000"), Layout::parse("41.6.16@0"),
                            Layout::parse("52.11.0@0"), Layout::parse("20.21.22@1000")};
  for (const Layout& l : layouts) {
    for (int i = 0; i < 2000; ++i) {
      const int64_t ts = l.epoch_ms() + static_cast<int64_t>(rng() % (static_cast<uint64_t>(l.max_elapsed_ms()) + 1));
      const int64_t node = static_cast<int64_t>(rng() % static_cast<uint64_t>(l.max_node_id() + 1));
      const int64_t seq = static_cast<int64_t>(rng() % static_cast<uint64_t>(l.max_sequence() + 1));
      const int64_t id = compose(l, ts, node, seq);
      REQUIRE(id >= 0);
      const Decoded d = decode(l, id);
      REQUIRE(d.timestamp_ms == ts);
      REQUIRE(d.node_id == node);
      REQUIRE(d.sequence == seq);
      REQUIRE(((d.datacenter_id << l.machine_bits()) | d.machine_id) == node);
      if (l.split()) REQUIRE(compose_split(l, ts, d.datacenter_id, d.machine_id, seq) == id);
    }
  }
}

TEST_CASE("ids order by timestamp first", "[codec]") {
  const Layout l;
  const int64_t t = 1737747358021;
  // The largest id of one millisecond is below the smallest of the next.
  CHECK(compose(l, t, 1023, 4095) < compose(l, t + 1, 0, 0));
  CHECK(compose(l, t + 1, 0, 0) - compose(l, t, 0, 0) == (int64_t{1} << 22));
}

TEST_CASE("decimal ids round-trip and reject everything else", "[codec]") {
  std::mt19937_64 rng(3);
  char buf[20];
  for (int i = 0; i < 10000; ++i) {
    const int64_t id = static_cast<int64_t>(rng() >> 1) >> (rng() % 63);
    const size_t n = format_id(id, buf);
    REQUIRE(std::string(buf, n) == std::to_string(id));
    REQUIRE(parse_id(std::string(buf, n)) == id);
  }
  CHECK(format_id(INT64_MAX) == "9223372036854775807");
  CHECK(format_id(0) == "0");
  const auto e = error_of([] { parse_id("92233720368547758070"); });
  CHECK(std::string(e.what()).find("92233720368547758070") != std::string::npos);
  // One strict parser: no sign, no spaces, no prefix, no trailing byte, nothing past 2^63-1.
  for (const char* text : {"", "-0", "-5", "+1", " 1", "1 ", "0x10", "123abc", "1.0", "1e3",
                           "9223372036854775808", "00000000000000000000001", "1\n", "--1"})
    CHECK(kind_of([&] { parse_id(text); }) == ErrorKind::kInvalidArgument);
  CHECK(parse_id("0000000000000000001") == 1);
  CHECK(parse_id("9223372036854775807") == INT64_MAX);
}

TEST_CASE("ISO-8601 formatting is exact in UTC", "[codec]") {
  CHECK(format_iso8601(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_iso8601(1737747358021) == "2025-01-24T19:35:58.021Z");
  CHECK(format_iso8601(1704067200000) == "2024-01-01T00:00:00.000Z");
  CHECK(format_iso8601(1288834974657) == "2010-11-04T01:42:54.657Z");
  CHECK(format_iso8601(-1) == "1969-12-31T23:59:59.999Z");
  CHECK(format_iso8601(951782400000) == "2000-02-29T00:00:00.000Z");  // leap day
  CHECK(format_iso8601(Layout().max_timestamp_ms()) == "2093-09-06T15:47:35.551Z");
}

TEST_CASE("years outside 0000-9999 are written with a sign, never as 4+ bare digits", "[codec]") {
  // RFC 3339 has no such years; ISO 8601's expanded form, as Java's Instant.toString.
  CHECK(format_iso8601(253402300799999) == "9999-12-31T23:59:59.999Z");
  CHECK(format_iso8601(253402300800000) == "+10000-01-01T00:00:00.000Z");
  CHECK(format_iso8601(Layout::parse("52.0.11@0").max_timestamp_ms()) ==
        "+144683-05-23T16:29:30.495Z");
  CHECK(format_iso8601(INT64_MAX) == "+292278994-08-17T07:12:55.807Z");
  CHECK(format_iso8601(-62167219200000) == "0000-01-01T00:00:00.000Z");
  CHECK(format_iso8601(-62167219200001) == "-0001-12-31T23:59:59.999Z");
  CHECK(format_iso8601(INT64_MIN) == "-292275055-05-16T16:47:04.192Z");
  for (int64_t ms : {int64_t{253402300800000}, int64_t{-62167219200001}})
    CHECK(kind_of([&] { parse_iso8601(format_iso8601(ms)); }) == ErrorKind::kInvalidArgument);
}

TEST_CASE("the error list is closed and codes are unique", "[errors]") {
  const auto& kinds = error_kinds();
  REQUIRE(kinds.size() == 8);
  for (size_t i = 0; i < kinds.size(); ++i) {
    CHECK(static_cast<size_t>(kinds[i].kind) == i);
    CHECK(std::string(error_code(kinds[i].kind)) == kinds[i].code);
    for (size_t j = 0; j < i; ++j) CHECK(std::string(kinds[i].code) != kinds[j].code);
  }
  CHECK(std::string(error_code(ErrorKind::kClockMovedBackwards)) == "CLOCK_MOVED_BACKWARDS");
}
