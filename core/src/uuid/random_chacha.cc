// ChaCha20 (RFC 8439 §2.3) over kChachaLanes blocks at once: each of the 16 state words
// is a vector whose lane i belongs to block counter + i, so every quarter round works on
// all blocks in the same instructions. GCC and Clang vector extensions, no intrinsics:
// SSE2 on x86_64 and NEON on aarch64 (the baselines of the release artifacts).
#include "random_chacha.hpp"

#include <cstring>

namespace snowfleet {
namespace detail {
namespace {

typedef uint32_t Lanes __attribute__((vector_size(4 * kChachaLanes)));

uint32_t load_le32(const unsigned char* p) noexcept {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
void store_le32(unsigned char* p, uint32_t v) noexcept {
  p[0] = static_cast<unsigned char>(v);
  p[1] = static_cast<unsigned char>(v >> 8);
  p[2] = static_cast<unsigned char>(v >> 16);
  p[3] = static_cast<unsigned char>(v >> 24);
}
#endif

// A macro, not a function: a vector wider than the baseline registers passed by value is
// an ABI hazard (-Wpsabi), and this must inline anyway.
#define SNOWFLEET_ROTL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define SNOWFLEET_QUARTER(a, b, c, d) \
  a += b;                             \
  d ^= a;                             \
  d = SNOWFLEET_ROTL(d, 16);          \
  c += d;                             \
  b ^= c;                             \
  b = SNOWFLEET_ROTL(b, 12);          \
  a += b;                             \
  d ^= a;                             \
  d = SNOWFLEET_ROTL(d, 8);           \
  c += d;                             \
  b ^= c;                             \
  b = SNOWFLEET_ROTL(b, 7)

// kChachaLanes blocks from counter on, to out[0, 64 * kChachaLanes).
void pass(const uint32_t in[16], uint32_t counter, unsigned char* out) noexcept {
  Lanes init[16];
  for (int i = 0; i < 16; ++i) init[i] = Lanes{} + in[i];  // in[i] in every lane
  for (size_t l = 0; l < kChachaLanes; ++l) init[12][l] = counter + static_cast<uint32_t>(l);
  Lanes x[16];
  for (int i = 0; i < 16; ++i) x[i] = init[i];
  for (int round = 0; round < 10; ++round) {  // 10 double rounds: ChaCha20
    SNOWFLEET_QUARTER(x[0], x[4], x[8], x[12]);
    SNOWFLEET_QUARTER(x[1], x[5], x[9], x[13]);
    SNOWFLEET_QUARTER(x[2], x[6], x[10], x[14]);
    SNOWFLEET_QUARTER(x[3], x[7], x[11], x[15]);
    SNOWFLEET_QUARTER(x[0], x[5], x[10], x[15]);
    SNOWFLEET_QUARTER(x[1], x[6], x[11], x[12]);
    SNOWFLEET_QUARTER(x[2], x[7], x[8], x[13]);
    SNOWFLEET_QUARTER(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; ++i) {
    x[i] += init[i];
    uint32_t word[kChachaLanes];
    std::memcpy(word, &x[i], sizeof word);
    for (size_t l = 0; l < kChachaLanes; ++l) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      std::memcpy(out + 64 * l + 4 * i, &word[l], 4);  // already the little-endian bytes
#else
      store_le32(out + 64 * l + 4 * i, word[l]);
#endif
    }
  }
}

#undef SNOWFLEET_QUARTER
#undef SNOWFLEET_ROTL

}  // namespace

void chacha20_blocks(const unsigned char key[32], const unsigned char nonce[12], uint32_t counter,
                     unsigned char* out, size_t blocks) noexcept {
  // RFC 8439 §2.3: the constants "expand 32-byte k", the key, the counter, the nonce.
  uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) in[4 + i] = load_le32(key + 4 * i);
  for (int i = 0; i < 3; ++i) in[13 + i] = load_le32(nonce + 4 * i);
  constexpr size_t kPassBytes = 64 * kChachaLanes;
  for (; blocks >= kChachaLanes; blocks -= kChachaLanes) {
    pass(in, counter, out);
    counter += kChachaLanes;
    out += kPassBytes;
  }
  if (blocks > 0) {  // a short tail: one more pass, of which the first blocks are kept
    unsigned char tail[kPassBytes];
    pass(in, counter, tail);
    std::memcpy(out, tail, 64 * blocks);
  }
}

}  // namespace detail
}  // namespace snowfleet
