// The C++ conformance runner for text.json (base32 / base62 forms) and range.json
// (min_id / max_id / id_range). The same files are run by the Python, Node, Java and SQL
// runners.
#include <catch2/catch.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "conformance_util.hpp"
#include "snowfleet/snowfleet.hpp"

using json = nlohmann::json;
using namespace snowfleet;
using conformance::expect_outcome;
using conformance::i64;
using conformance::load;

TEST_CASE("conformance: text vectors", "[conformance]") {
  const json doc = load("text.json");
  REQUIRE(doc.at("kind") == "text");
  for (const auto& c : doc.at("cases")) {
    SECTION(c.at("id").get<std::string>()) {
      const json& expect = c.at("expect");
      const std::string op = c.at("op");
      const IdFormat format = parse_id_format(c.at("encoding").get<std::string>());
      if (op == "parse") {
        const auto got = expect_outcome(
            expect, [&] { return parse_id_as(c.at("text").get<std::string>(), format); });
        if (got) CHECK(std::to_string(*got) == expect.at("id").get<std::string>());
        continue;
      }
      const int64_t value = i64(c.at("value"));
      const auto text = expect_outcome(expect, [&] { return format_id_as(value, format); });
      if (!text) continue;
      CHECK(*text == expect.at("text").get<std::string>());
      if (op == "round_trip") CHECK(parse_id_as(*text, format) == value);
    }
  }
}

TEST_CASE("conformance: range vectors", "[conformance]") {
  const json doc = load("range.json");
  REQUIRE(doc.at("kind") == "range");
  for (const auto& c : doc.at("cases")) {
    SECTION(c.at("id").get<std::string>()) {
      const json& expect = c.at("expect");
      const std::string op = c.at("op");
      const Layout layout = Layout::parse(c.at("layout").get<std::string>());
      if (op == "id_range") {
        const int64_t slack = c.contains("slack_ms") ? i64(c.at("slack_ms")) : 0;
        const auto got = expect_outcome(expect, [&] {
          return id_range(layout, i64(c.at("start_ms")), i64(c.at("end_ms")), slack);
        });
        if (got) {
          CHECK(std::to_string(got->first) == expect.at("first").get<std::string>());
          CHECK(std::to_string(got->last) == expect.at("last").get<std::string>());
        }
        continue;
      }
      const int64_t ms = i64(c.at("timestamp_ms"));
      const auto got = expect_outcome(
          expect, [&] { return op == "min_id" ? min_id(layout, ms) : max_id(layout, ms); });
      if (got) CHECK(std::to_string(*got) == expect.at("id").get<std::string>());
    }
  }
}
