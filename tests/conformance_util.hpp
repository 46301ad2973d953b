// What the C++ conformance runners share: loading a vector file, its number rule, and
// checking an expected error.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace conformance {

using json = nlohmann::json;
using namespace snowfleet;

inline json load(const std::string& name) {
  std::ifstream f(std::string(SNOWFLEET_CONFORMANCE_DIR) + "/" + name);
  REQUIRE(f.good());
  json doc = json::parse(f);
  REQUIRE(doc.at("schema_version") == 1);
  return doc;
}

inline int64_t i64(const json& v) {
  // 64-bit values travel as decimal strings; negative ones only appear in invalid inputs.
  const std::string s = v.get<std::string>();
  if (!s.empty() && s[0] == '-') return -parse_id(s.substr(1));
  return parse_id(s);
}

// Runs `fn`; if `expect` holds an error, checks the thrown snowfleet::Error matches it and
// returns nullopt; otherwise returns fn's result.
template <class F>
inline auto expect_outcome(const json& expect, F fn) -> std::optional<decltype(fn())> {
  if (!expect.contains("error")) return fn();
  try {
    fn();
  } catch (const Error& e) {
    CHECK(std::string(e.code()) == expect["error"].get<std::string>());
    if (expect.contains("drift_ms")) CHECK(e.drift_ms() == expect["drift_ms"].get<int64_t>());
    if (expect.contains("message_contains"))
      for (const auto& part : expect["message_contains"])
        CHECK(std::string(e.what()).find(part.get<std::string>()) != std::string::npos);
    return std::nullopt;
  }
  FAIL("expected error " << expect["error"] << " but the call succeeded");
  return std::nullopt;
}

}  // namespace conformance
