// The system random source's per-thread buffer and the scripted source's sequence, for
// the UUIDv7 generator's fast path (random.cc). Internal.
#pragma once

#include <cstdint>

namespace snowfleet {
namespace detail {

/// 48 random bits (the high 16 are 0) from the calling thread's buffer of getrandom(2)
/// output, refilled in blocks and discarded in a forked child. Throws kInternal if
/// getrandom fails.
uint64_t system_random_u48();
/// Advances a splitmix64 state and returns its next output.
uint64_t splitmix64_next(uint64_t* state) noexcept;

}  // namespace detail
}  // namespace snowfleet
