// decide_slow(), the slow path's decision, against the reference model's over random
// states with no clock (tests/slow_decision_cases.json, written by
// tests/slow_decision_cases.py from conformance/model/slow_decision_model.py).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "mint/slow_decision.hpp"

using snowfleet::detail::decide_slow;
using snowfleet::detail::SlowDecision;
using snowfleet::detail::SlowRefusal;
using snowfleet::detail::SlowRules;
using snowfleet::detail::SlowStep;
using snowfleet::detail::SlowWait;

namespace {

nlohmann::json as_json(const SlowDecision& d) {
  switch (d.step) {
    case SlowStep::kIssue:
      return {"issue", d.first, d.count,
              d.hold_until == INT64_MIN ? nlohmann::json() : nlohmann::json(d.hold_until)};
    case SlowStep::kWait: {
      const char* why = d.wait == SlowWait::kRewind  ? "rewind"
                        : d.wait == SlowWait::kSpent ? "spent"
                                                     : "drift";
      return {"wait", why, d.wait_until, d.drift};
    }
    case SlowStep::kRefuse:
      break;
  }
  const char* why = d.refusal == SlowRefusal::kOutOfWindow   ? "out_of_window"
                    : d.refusal == SlowRefusal::kWindowSpent ? "window_spent"
                    : d.refusal == SlowRefusal::kBehind      ? "behind"
                                                             : "ahead";
  return {"refuse", why, d.drift};
}

}  // namespace

TEST_CASE("the slow path decides as the reference model over random states", "[slow-decision]") {
  std::ifstream in(SNOWFLEET_SLOW_DECISION_CASES);
  REQUIRE(in);
  const nlohmann::json cases = nlohmann::json::parse(in);
  REQUIRE(cases.size() >= 10000);
  size_t mismatches = 0;
  for (const auto& c : cases) {
    const int bits = c[0].get<int>();
    const int64_t max_elapsed = c[1].get<int64_t>();
    const int64_t mask = (int64_t{1} << bits) - 1;
    const SlowRules rules{bits,
                          mask,
                          max_elapsed,
                          (max_elapsed << bits) | mask,
                          c[2].get<bool>(),
                          c[3].get<int64_t>(),
                          c[4].get<int64_t>()};
    const SlowDecision d =
        decide_slow(rules, {c[5].get<int64_t>(), c[6].get<int64_t>(), c[7].get<int64_t>(),
                            c[8].get<bool>(), c[9].get<int64_t>()});
    if (as_json(d) != c[10] && ++mismatches <= 5) {
      INFO("case " << c.dump() << " decided " << as_json(d).dump());
      CHECK(as_json(d) == c[10]);
    }
  }
  CHECK(mismatches == 0);
}

namespace {

// Four ids per millisecond, a window of 1000 ms, a 5 ms budget.
SlowRules rules(bool strict, int64_t max_drift_ms = 0) {
  return SlowRules{2, 3, 1000, (1000 << 2) | 3, strict, max_drift_ms, 5};
}

int64_t packed(int64_t ms, int64_t seq) { return (ms << 2) | seq; }

}  // namespace

TEST_CASE("strict: a new millisecond issues from its first id, the current one after the state",
          "[slow-decision]") {
  SlowDecision d = decide_slow(rules(true), {packed(10, 1), 11, 8, false, 0});
  CHECK(d.step == SlowStep::kIssue);
  CHECK(d.first == packed(11, 0));
  CHECK(d.count == 4);
  CHECK(d.hold_until == INT64_MIN);
  d = decide_slow(rules(true), {packed(10, 1), 10, 8, false, 0});
  CHECK(d.step == SlowStep::kIssue);
  CHECK(d.first == packed(10, 2));
  CHECK(d.count == 2);
}

TEST_CASE("strict: a rewind within the budget is waited out, a larger one refused",
          "[slow-decision]") {
  SlowDecision d = decide_slow(rules(true), {packed(20, 0), 15, 1, false, 0});
  CHECK(d.step == SlowStep::kWait);
  CHECK(d.wait == SlowWait::kRewind);
  CHECK(d.wait_until == 20);
  CHECK(d.drift == 5);
  d = decide_slow(rules(true), {packed(20, 0), 14, 1, false, 0});
  CHECK(d.step == SlowStep::kRefuse);
  CHECK(d.refusal == SlowRefusal::kBehind);
  CHECK(d.drift == 6);
}

TEST_CASE("strict: a spent millisecond waits for the next, or under contention reserves it",
          "[slow-decision]") {
  SlowDecision d = decide_slow(rules(true), {packed(10, 3), 10, 2, false, 0});
  CHECK(d.step == SlowStep::kWait);
  CHECK(d.wait == SlowWait::kSpent);
  CHECK(d.wait_until == 11);
  CHECK(d.drift == 0);
  d = decide_slow(rules(true), {packed(10, 3), 10, 2, true, 1});
  CHECK(d.step == SlowStep::kIssue);
  CHECK(d.first == packed(11, 0));
  CHECK(d.count == 2);
  CHECK(d.hold_until == 11);
  // Beyond what is left of the budget: wait (the loop refuses at the deadline).
  d = decide_slow(rules(true), {packed(14, 3), 10, 2, true, 1});
  CHECK(d.step == SlowStep::kWait);
}

TEST_CASE("monotonic: borrows up to max_drift_ms ahead, then waits within the budget or refuses",
          "[slow-decision]") {
  SlowDecision d = decide_slow(rules(false, 2), {packed(10, 3), 10, 20, false, 0});
  CHECK(d.step == SlowStep::kIssue);
  CHECK(d.first == packed(11, 0));
  CHECK(d.count == 8);  // ms 11 and 12: no further than 2 ms ahead
  d = decide_slow(rules(false, 2), {packed(15, 3), 10, 1, false, 0});
  CHECK(d.step == SlowStep::kWait);
  CHECK(d.wait == SlowWait::kDrift);
  CHECK(d.wait_until == 14);
  CHECK(d.drift == 6);
  d = decide_slow(rules(false, 2), {packed(20, 3), 10, 1, false, 0});
  CHECK(d.step == SlowStep::kRefuse);
  CHECK(d.refusal == SlowRefusal::kAhead);
  CHECK(d.drift == 11);
}

TEST_CASE("the window's ends are refused, never wrapped", "[slow-decision]") {
  for (bool strict : {true, false}) {
    CHECK(decide_slow(rules(strict), {-1, -1, 1, false, 0}).refusal == SlowRefusal::kOutOfWindow);
    CHECK(decide_slow(rules(strict), {-1, 1001, 1, false, 0}).refusal == SlowRefusal::kOutOfWindow);
  }
  const SlowDecision d = decide_slow(rules(false, 5), {packed(1000, 3), 999, 1, false, 0});
  CHECK(d.step == SlowStep::kRefuse);
  CHECK(d.refusal == SlowRefusal::kWindowSpent);
  const SlowDecision last = decide_slow(rules(false, 5), {packed(998, 3), 998, 100, false, 0});
  CHECK(last.first == packed(999, 0));
  CHECK(last.count == 8);  // to the window's last id
}
