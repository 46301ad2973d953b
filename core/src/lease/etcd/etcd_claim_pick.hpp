// The claim walk's decisions (etcd_claim.cc), apart from its requests: which slot to try,
// whether a won slot's mark can be started above, and the refusal when none can be had.
// Pure: no etcd, no clock. Only built with etcd support. Internal.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>

#include "snowfleet/layout.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

/// The slots a claim may try, below `slots`: neither held in etcd (`held`), nor picked by
/// another claim of this process (`claiming`), nor given back by this claim (`skipped`),
/// and accepted by `usable` when it is set.
struct SlotChoice {
  int64_t slots = 0;
  const std::set<int64_t>* held = nullptr;
  const std::set<int64_t>* claiming = nullptr;
  const std::set<int64_t>* skipped = nullptr;
  std::function<bool(int64_t)> usable;
};

/// A free slot of `choice` drawn uniformly with `rng`; -1 when there is none.
int64_t pick_free_slot(const SlotChoice& choice, std::mt19937_64& rng);

/// Slots held in etcd or being claimed by this process (not in `held` yet).
size_t count_taken(const std::set<int64_t>& held, const std::set<int64_t>& claiming);

/// Why a won slot cannot be started above ("" when it can): a mark key that does not hold a
/// Unix ms (a history we cannot read is not an empty one), or a mark past the layout's
/// window (it blocks the slot for good).
std::string mark_problem(bool mark_readable, int64_t mark_ms, const std::string& mark_text,
                         const std::string& mark_key, const Layout& layout);

/// What a claim that got no slot says: `node` >= 0 is the one slot asked for; `held` of
/// `slots` were taken; `skipped` the first mark problem met ("" when none).
std::string claim_refusal(const std::string& quoted, const std::string& slots_dir, int64_t node,
                          size_t held, int64_t slots, const std::string& skipped);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
