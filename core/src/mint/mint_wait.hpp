// The two ways a minting call blocks (reserve_slow, mint_slow.cc): sleeping on the clock
// toward a wall millisecond, and waiting for the mark keeper to persist a mark. Both run
// inside the call's budget, with the wait hooks released around them. Internal.
#pragma once

#include <cstdint>

#include "mark_keeper.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

/// Sleeps on `clock` toward the wall millisecond `target_ms` (since the Unix epoch), from
/// the exact reading `wall_ns`: until then, or for `left_ns` if that is shorter, and at
/// least 1 ns. The wait hooks are called around the sleep. `left_ns` > 0.
void nap_toward(Clock& clock, const WaitHooks& hooks, int64_t wall_ns, int64_t target_ms,
                int64_t left_ns);

/// Waits, for at most *budget_ns of real time, until `keeper` has persisted a mark covering
/// the packed value `packed`; not at all while its writes fail or without budget. Takes the
/// time spent from *budget_ns. True when covered.
bool wait_for_keeper(MarkKeeper& keeper, const WaitHooks& hooks, int64_t packed,
                     int64_t* budget_ns);

}  // namespace detail
}  // namespace snowfleet
