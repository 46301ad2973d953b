// SipHash-2-4 of one 64-bit word: the keyed function that seeds a UUIDv7 counter per
// millisecond (uuid7.cc). Internal.
#pragma once

#include <cstdint>

namespace snowfleet {
namespace detail {

/// SipHash-2-4 (Aumasson and Bernstein) of the 8-byte little-endian encoding of `m` under
/// the key (k0, k1), each the little-endian reading of 8 key bytes. Matches the reference
/// implementation; conformance/model/uuid7_model.py computes the same.
inline uint64_t siphash24_u64(uint64_t k0, uint64_t k1, uint64_t m) noexcept {
  uint64_t v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1;
  uint64_t v2 = 0x6c7967656e657261ULL ^ k0, v3 = 0x7465646279746573ULL ^ k1;
  auto rotl = [](uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
  auto round = [&] {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  };
  auto compress = [&](uint64_t word) {
    v3 ^= word;
    round();
    round();
    v0 ^= word;
  };
  compress(m);
  compress(uint64_t{8} << 56);  // the final block: the message length, no bytes left
  v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) round();
  return v0 ^ v1 ^ v2 ^ v3;
}

}  // namespace detail
}  // namespace snowfleet
