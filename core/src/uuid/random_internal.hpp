// The system random source's per-thread state and the scripted source's sequence, for
// the UUIDv7 generator's fast path (random.cc). Internal.
#pragma once

#include <cstdint>
#include <cstring>

#include "base/internal.hpp"

namespace snowfleet {
namespace detail {

/// Bytes of ChaCha20 output per refill of a thread's buffer (16 blocks): the first 32
/// become the next key (fast key erasure), the rest are handed out, 6 per UUID.
constexpr size_t kRandomBufferBytes = 1024;
constexpr size_t kRandomKeyBytes = 32;

/// A thread's CSPRNG: a ChaCha20 key and the unread part of the last refill's output.
/// Keyed from getrandom(2) before its first use, in every forked child (generation tells
/// it: a child must not reuse the parent's key or bytes), and every kReseedRefills
/// refills; between those, each refill replaces the key with stream output.
struct RandomBuffer {
  uint64_t generation = 0;  // the fork generation it was keyed in; 0: never
  uint32_t pos = kRandomBufferBytes;
  uint32_t refills = 0;  // since the key last came from getrandom(2)
  unsigned char key[kRandomKeyBytes] = {};
  // 8 bytes of slack: take() always loads a whole word (see there); they are never handed out.
  unsigned char bytes[kRandomBufferBytes + 8] = {};
};

/// The calling thread's state on the UUIDv7 hot path: its random buffer and the counter
/// seed of the last millisecond it minted in (uuid7.cc), in one thread_local, so a UUID
/// costs one TLS lookup (in a shared library, each is a __tls_get_addr call).
struct ThreadState {
  RandomBuffer random;
  uint64_t seed_uid = 0;  // the generator the seed is for (Uuid7Generator::uid_)
  int64_t seed_ms = -1;   // and its millisecond
  uint64_t seed = 0;
};
ThreadState& thread_state() noexcept;

/// Refills b (rekeying first if needed). Throws kInternal if getrandom fails.
void refill(RandomBuffer& b);

/// The next `width` (<= 8) bytes of b as the low bytes of a word, refilling b when too
/// few are left or the process forked since it was keyed.
inline uint64_t take(RandomBuffer& b, size_t width) {
  if (b.pos + width > kRandomBufferBytes || b.generation != fork_generation()) refill(b);
  // One 8-byte load, then the `width` bytes at pos kept: copying 6 bytes into a word
  // stored them in two pieces and read the word back, a store-forwarding stall that cost
  // more than the rest of the draw.
  uint64_t v;
  std::memcpy(&v, b.bytes + b.pos, sizeof v);
  b.pos += static_cast<uint32_t>(width);
  if (width == sizeof v) return v;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return v >> (64 - 8 * width);
#else
  return v & ((uint64_t{1} << (8 * width)) - 1);
#endif
}

/// 48 random bits (the high 16 are 0) from the calling thread's buffer. Throws kInternal
/// if getrandom fails.
inline uint64_t system_random_u48(RandomBuffer& b) { return take(b, 6); }
uint64_t system_random_u48();
/// Advances a splitmix64 state and returns its next output.
uint64_t splitmix64_next(uint64_t* state) noexcept;

}  // namespace detail
}  // namespace snowfleet
