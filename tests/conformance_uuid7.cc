// The C++ runner of conformance/vectors/uuid7.json: UUIDv7 generators on a scripted clock
// and a scripted random source, and decode of UUID text.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "conformance_util.hpp"

using conformance::expect_outcome;
using conformance::i64;
using conformance::json;
using conformance::load;
using namespace snowfleet;

namespace {

std::shared_ptr<ScriptedClock> clock_of(const json& segments) {
  std::vector<ScriptedClock::Segment> script;
  for (const auto& s : segments)
    script.push_back({s.at("ms").get<int64_t>(), s.value("count", int64_t{1}),
                      s.value("step_ms", int64_t{0}), s.value("every", int64_t{1})});
  return std::make_shared<ScriptedClock>(script);
}

void check_uuids(const json& expect, const std::vector<Uuid>& got) {
  if (expect.contains("uuids")) {
    std::vector<std::string> text;
    for (const Uuid& u : got) text.push_back(format_uuid(u));
    CHECK(text == expect.at("uuids").get<std::vector<std::string>>());
    return;
  }
  REQUIRE(got.size() == expect.at("count").get<size_t>());
  CHECK(format_uuid(got.front()) == expect.at("first").get<std::string>());
  CHECK(format_uuid(got.back()) == expect.at("last").get<std::string>());
}

}  // namespace

TEST_CASE("conformance: uuid7 vectors", "[conformance][uuid7]") {
  const json doc = load("uuid7.json");
  REQUIRE(doc.at("kind") == "uuid7");
  for (const auto& c : doc.at("cases")) {
    SECTION(c.at("id").get<std::string>()) {
      if (c.at("op") == "decode") {
        const json& expect = c.at("expect");
        const auto got = expect_outcome(expect, [&] {
          const Uuid u = parse_uuid(c.at("text").get<std::string>());
          return std::make_pair(u, decode_uuid7(u));
        });
        if (got) {
          CHECK(format_uuid(got->first) == expect.at("canonical").get<std::string>());
          CHECK(std::to_string(got->second.timestamp_ms) ==
                expect.at("timestamp_ms").get<std::string>());
          CHECK(got->second.counter == expect.at("counter").get<int64_t>());
          CHECK(std::to_string(got->second.random) == expect.at("random").get<std::string>());
        }
        continue;
      }
      REQUIRE(c.at("op") == "generate");
      Uuid7Options o;
      o.mode = parse_mode(c.at("mode").get<std::string>());
      o.max_wait_ms = c.at("max_wait_ms").get<double>();
      o.clock = clock_of(c.at("clock"));
      o.random = std::make_shared<ScriptedRandom>(static_cast<uint64_t>(i64(c.at("seed"))));
      Uuid7Generator g(o);
      for (const auto& step : c.at("steps")) {
        const json& expect = step.at("expect");
        const auto got = expect_outcome(expect, [&] {
          if (step.at("op") == "next") return std::vector<Uuid>{g.next()};
          return g.next(step.at("n").get<size_t>());
        });
        if (got) check_uuids(expect, *got);
      }
    }
  }
}
