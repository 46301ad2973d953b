// The etcd claim walk's decisions (core/src/lease/etcd/etcd_claim_pick.hpp), without etcd:
// which slot a claim tries, whether a won slot's mark can be started above, the refusal.
#include <catch2/catch.hpp>

#include <set>

#include "lease/etcd/etcd_claim_pick.hpp"

using snowfleet::Layout;
using namespace snowfleet::detail::etcd;

TEST_CASE("a claim tries only slots nobody holds, claims, skipped or filtered out",
          "[etcd-claim]") {
  const std::set<int64_t> held{0, 1}, claiming{2}, skipped{3};
  SlotChoice choice{8, &held, &claiming, &skipped, [](int64_t n) { return n != 4; }};
  std::mt19937_64 rng(7);
  std::set<int64_t> drawn;
  for (int i = 0; i < 200; ++i) drawn.insert(pick_free_slot(choice, rng));
  CHECK(drawn == std::set<int64_t>{5, 6, 7});
}

TEST_CASE("a claim with no free slot gets -1", "[etcd-claim]") {
  const std::set<int64_t> held{0, 1}, none;
  SlotChoice choice{2, &held, &none, &none, {}};
  std::mt19937_64 rng(1);
  CHECK(pick_free_slot(choice, rng) == -1);
  SlotChoice empty{0, &none, &none, &none, {}};
  CHECK(pick_free_slot(empty, rng) == -1);
}

TEST_CASE("slots being claimed count as taken once", "[etcd-claim]") {
  CHECK(count_taken({1, 2}, {2, 3, 4}) == 4);
  CHECK(count_taken({}, {}) == 0);
}

TEST_CASE("a mark that is not a Unix ms or is past the window is a problem", "[etcd-claim]") {
  const Layout layout = Layout::parse("41.10.12@0");
  CHECK(mark_problem(true, -1, "", "p/marks/0001", layout).empty());
  CHECK(mark_problem(true, layout.max_timestamp_ms(), "", "k", layout).empty());
  CHECK(mark_problem(false, -1, "x", "p/marks/0001", layout) ==
        "the mark key p/marks/0001 holds 'x', not a Unix ms");
  const std::string past = mark_problem(true, layout.max_timestamp_ms() + 1, "", "k", layout);
  CHECK(past.find("past the last millisecond of layout") != std::string::npos);
}

TEST_CASE("a claim that got no slot names why", "[etcd-claim]") {
  CHECK(claim_refusal("q", "p/slots/", -1, 3, 4, "") ==
        "q: no free node id under p/slots/ (3 of 4 slots held)");
  CHECK(claim_refusal("q", "p/slots/", 2, 0, 4, "") ==
        "q: slot 2 under p/slots/ is held by another process");
  CHECK(claim_refusal("q", "p/slots/", 2, 0, 4, "why") ==
        "q: slot 2 under p/slots/ is not available; skipped: why");
}
