// ChaCha20 (RFC 8439 §2.3) over several blocks at once: each of the 16 state words is a
// vector whose lane i belongs to block counter + i, so every quarter round works on all
// blocks in the same instructions. GCC and Clang vector extensions, no intrinsics: 4 lanes
// on the release artifacts' baselines (SSE2 on x86_64, NEON on aarch64), and 8 in AVX2
// registers on an x86_64 CPU that has them, chosen at run time.
#include "random_chacha.hpp"

#include <atomic>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define SNOWFLEET_CHACHA_WIDE 1
#else
#define SNOWFLEET_CHACHA_WIDE 0
#endif

namespace snowfleet {
namespace detail {
namespace {

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

// Macros, not functions: a vector wider than the baseline registers passed by value is an
// ABI hazard (-Wpsabi), and these must inline anyway. R16 and R8 rotate by 16 and 8.
#define SNOWFLEET_ROTL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define SNOWFLEET_ROTL16(v) SNOWFLEET_ROTL(v, 16)
#define SNOWFLEET_ROTL8(v) SNOWFLEET_ROTL(v, 8)
#define SNOWFLEET_QUARTER(a, b, c, d, R16, R8) \
  a += b;                                      \
  d ^= a;                                      \
  d = R16(d);                                  \
  c += d;                                      \
  b ^= c;                                      \
  b = SNOWFLEET_ROTL(b, 12);                   \
  a += b;                                      \
  d ^= a;                                      \
  d = R8(d);                                   \
  c += d;                                      \
  b ^= c;                                      \
  b = SNOWFLEET_ROTL(b, 7)
#define SNOWFLEET_DOUBLE_ROUND(x, R16, R8)              \
  SNOWFLEET_QUARTER(x[0], x[4], x[8], x[12], R16, R8);  \
  SNOWFLEET_QUARTER(x[1], x[5], x[9], x[13], R16, R8);  \
  SNOWFLEET_QUARTER(x[2], x[6], x[10], x[14], R16, R8); \
  SNOWFLEET_QUARTER(x[3], x[7], x[11], x[15], R16, R8); \
  SNOWFLEET_QUARTER(x[0], x[5], x[10], x[15], R16, R8); \
  SNOWFLEET_QUARTER(x[1], x[6], x[11], x[12], R16, R8); \
  SNOWFLEET_QUARTER(x[2], x[7], x[8], x[13], R16, R8);  \
  SNOWFLEET_QUARTER(x[3], x[4], x[9], x[14], R16, R8)

typedef uint32_t Lanes4 __attribute__((vector_size(16)));
#if SNOWFLEET_CHACHA_WIDE
typedef uint32_t Lanes8 __attribute__((vector_size(32)));
#endif

#if SNOWFLEET_CHACHA_WIDE && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
// The rotations by whole bytes of 8 lanes as byte shuffles: one AVX2 vpshufb each, where
// shifts take three instructions.
typedef unsigned char Bytes32 __attribute__((vector_size(32)));
#define SNOWFLEET_BYTES8(v, i0, i1, i2, i3)                                                       \
  __builtin_shufflevector((Bytes32)(v), (Bytes32)(v), i0, i1, i2, i3, i0 + 4, i1 + 4, i2 + 4,     \
                          i3 + 4, i0 + 8, i1 + 8, i2 + 8, i3 + 8, i0 + 12, i1 + 12, i2 + 12,      \
                          i3 + 12, i0 + 16, i1 + 16, i2 + 16, i3 + 16, i0 + 20, i1 + 20, i2 + 20, \
                          i3 + 20, i0 + 24, i1 + 24, i2 + 24, i3 + 24, i0 + 28, i1 + 28, i2 + 28, \
                          i3 + 28)
// Little-endian lanes: rotating left by 16 swaps the halves; by 8, byte k of a lane takes
// byte k - 1 (byte 0 takes byte 3).
#define SNOWFLEET_ROTL16_BYTES(v) ((Lanes8)SNOWFLEET_BYTES8(v, 2, 3, 0, 1))
#define SNOWFLEET_ROTL8_BYTES(v) ((Lanes8)SNOWFLEET_BYTES8(v, 3, 0, 1, 2))
#define SNOWFLEET_CHACHA_SHUFFLES 1
#endif
#endif
#ifndef SNOWFLEET_CHACHA_SHUFFLES
#define SNOWFLEET_CHACHA_SHUFFLES 0
#endif

// L blocks from counter on, to out[0, 64 * L), in vectors V of L lanes (8 lanes rotate by
// whole bytes with byte shuffles where the compiler has them). Always inlined, so each pass
// below is compiled for its own instruction set.
template <typename V, size_t L>
__attribute__((always_inline)) inline void pass_of(const uint32_t in[16], uint32_t counter,
                                                   unsigned char* out) noexcept {
  static_assert(sizeof(V) == 4 * L, "L lanes of 32 bits");
  V init[16];
  for (int i = 0; i < 16; ++i) init[i] = V{} + in[i];  // in[i] in every lane
  for (size_t l = 0; l < L; ++l) init[12][l] = counter + static_cast<uint32_t>(l);
  V x[16];
  for (int i = 0; i < 16; ++i) x[i] = init[i];
  for (int round = 0; round < 10; ++round) {  // 10 double rounds: ChaCha20
#if SNOWFLEET_CHACHA_SHUFFLES
    if constexpr (L == kChachaWideLanes) {
      SNOWFLEET_DOUBLE_ROUND(x, SNOWFLEET_ROTL16_BYTES, SNOWFLEET_ROTL8_BYTES);
      continue;
    }
#endif
    SNOWFLEET_DOUBLE_ROUND(x, SNOWFLEET_ROTL16, SNOWFLEET_ROTL8);
  }
  for (int i = 0; i < 16; ++i) {
    x[i] += init[i];
    uint32_t word[L];
    std::memcpy(word, &x[i], sizeof word);
    for (size_t l = 0; l < L; ++l) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      std::memcpy(out + 64 * l + 4 * i, &word[l], 4);  // already the little-endian bytes
#else
      store_le32(out + 64 * l + 4 * i, word[l]);
#endif
    }
  }
}

#undef SNOWFLEET_DOUBLE_ROUND
#undef SNOWFLEET_QUARTER
#undef SNOWFLEET_ROTL8
#undef SNOWFLEET_ROTL16
#undef SNOWFLEET_ROTL

// Four blocks a pass: one 128-bit register per state word (SSE2 on x86_64, NEON on aarch64).
void pass4(const uint32_t in[16], uint32_t counter, unsigned char* out) noexcept {
  pass_of<Lanes4, kChachaLanes>(in, counter, out);
}

#if SNOWFLEET_CHACHA_WIDE
// Eight blocks a pass in 256-bit registers, and the rotations by 16 and 8 as byte
// shuffles: under half the instructions per byte of pass4. Called only where the CPU and
// the kernel have AVX2 (chacha_wide_available).
__attribute__((target("avx2"))) void pass8(const uint32_t in[16], uint32_t counter,
                                           unsigned char* out) noexcept {
  pass_of<Lanes8, kChachaWideLanes>(in, counter, out);
  // The upper halves of the vector registers cleared before SSE code runs again: GCC adds
  // this itself only from -O2 on, and dirty halves slow later SSE code on Intel CPUs.
  __builtin_ia32_vzeroupper();
}

bool cpu_has_avx2() noexcept {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  // AVX, and OSXSAVE: the kernel saves the vector registers, whose state XCR0 names.
  if ((c & bit_AVX) == 0 || (c & bit_OSXSAVE) == 0) return false;
  unsigned xcr0_lo, xcr0_hi;
  __asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  if ((xcr0_lo & 6) != 6) return false;  // the SSE and AVX register state
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b & bit_AVX2) != 0;
}
#endif

template <void (*Pass)(const uint32_t*, uint32_t, unsigned char*) noexcept, size_t L>
void blocks_by(const uint32_t in[16], uint32_t counter, unsigned char* out,
               size_t blocks) noexcept {
  for (; blocks >= L; blocks -= L) {
    Pass(in, counter, out);
    counter += L;
    out += 64 * L;
  }
  if (blocks > 0) {  // a short tail: one more pass, of which the first blocks are kept
    unsigned char tail[64 * L];
    Pass(in, counter, tail);
    std::memcpy(out, tail, 64 * blocks);
  }
}

}  // namespace

bool chacha_wide_available() noexcept {
#if SNOWFLEET_CHACHA_WIDE
  // Decided once, without a lock: a static's guard held by one thread at a fork would
  // block the child's first refill for ever. Racing threads compute the same answer.
  static std::atomic<int> known{0};  // 0: not yet; 1: no; 2: yes
  int k = known.load(std::memory_order_relaxed);
  if (k == 0) {
    k = cpu_has_avx2() ? 2 : 1;
    known.store(k, std::memory_order_relaxed);
  }
  return k == 2;
#else
  return false;
#endif
}

size_t chacha20_blocks(const unsigned char key[32], const unsigned char nonce[12], uint32_t counter,
                       unsigned char* out, size_t blocks, ChachaPass pass) noexcept {
  // RFC 8439 §2.3: the constants "expand 32-byte k", the key, the counter, the nonce.
  uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) in[4 + i] = load_le32(key + 4 * i);
  for (int i = 0; i < 3; ++i) in[13 + i] = load_le32(nonce + 4 * i);
#if SNOWFLEET_CHACHA_WIDE
  if (pass == ChachaPass::kWidest && chacha_wide_available()) {
    blocks_by<pass8, kChachaWideLanes>(in, counter, out, blocks);
    return kChachaWideLanes;
  }
#else
  (void)pass;
#endif
  blocks_by<pass4, kChachaLanes>(in, counter, out, blocks);
  return kChachaLanes;
}

}  // namespace detail
}  // namespace snowfleet
