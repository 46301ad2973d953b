// The ChaCha20 block function (RFC 8439 §2.3), several blocks per pass: the keystream
// behind the system random source's per-thread buffers (random.cc). Internal.
#pragma once

#include <cstddef>
#include <cstdint>

namespace snowfleet {
namespace detail {

/// Blocks computed side by side in one pass of the baseline (lane i of each vector is
/// block counter + i). 4: one 128-bit register per state word (SSE2, NEON); 8 measured
/// slower on x86_64's baseline, whose 16 vector registers then spill. With AVX2, 8 lanes in
/// 256-bit registers (which spill too, less than 8 lanes in SSE2 registers).
constexpr size_t kChachaLanes = 4;
constexpr size_t kChachaWideLanes = 8;

/// Which pass computes the blocks: the widest this CPU runs, or the baseline's (the
/// tests compare the two).
enum class ChachaPass { kWidest, kBaseline };

/// Whether kWidest is wider than the baseline here (an x86_64 CPU and kernel with AVX2).
bool chacha_wide_available() noexcept;

/// Writes `blocks` consecutive 64-byte ChaCha20 keystream blocks, block counters
/// counter, counter + 1, ..., for the 32-byte key and 12-byte nonce (byte strings, as in
/// RFC 8439), to out[0, 64 * blocks). The 32-bit counter must not wrap within the call.
/// Returns the lanes of the pass that computed them (kChachaLanes or kChachaWideLanes).
size_t chacha20_blocks(const unsigned char key[32], const unsigned char nonce[12], uint32_t counter,
                       unsigned char* out, size_t blocks,
                       ChachaPass pass = ChachaPass::kWidest) noexcept;

}  // namespace detail
}  // namespace snowfleet
