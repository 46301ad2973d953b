// The ChaCha20 block function (RFC 8439 §2.3), several blocks per pass: the keystream
// behind the system random source's per-thread buffers (random.cc). Internal.
#pragma once

#include <cstddef>
#include <cstdint>

namespace snowfleet {
namespace detail {

/// Blocks computed side by side in one pass (lane i of each vector is block counter + i).
/// 4: one 128-bit register per state word (SSE2, NEON); 8 measured slower on x86_64's
/// baseline, whose 16 vector registers then spill.
constexpr size_t kChachaLanes = 4;

/// Writes `blocks` consecutive 64-byte ChaCha20 keystream blocks, block counters
/// counter, counter + 1, ..., for the 32-byte key and 12-byte nonce (byte strings, as in
/// RFC 8439), to out[0, 64 * blocks). The 32-bit counter must not wrap within the call.
void chacha20_blocks(const unsigned char key[32], const unsigned char nonce[12], uint32_t counter,
                     unsigned char* out, size_t blocks) noexcept;

}  // namespace detail
}  // namespace snowfleet
