// The system random source's generator: ChaCha20 against RFC 8439's vectors, every lane of
// each multi-block pass (the baseline's and the widest the CPU runs) against a one-block
// reference, and the per-thread buffer's rekeying (fast key erasure, and getrandom(2) again
// in a new fork generation).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "uuid/random_chacha.hpp"
#include "uuid/random_internal.hpp"

using namespace snowfleet::detail;

namespace {

std::vector<unsigned char> unhex(const std::string& hex) {
  std::vector<unsigned char> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<unsigned char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::string tohex(const unsigned char* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) (s += digits[p[i] >> 4]) += digits[p[i] & 15];
  return s;
}

std::vector<unsigned char> key_00_1f() {
  std::vector<unsigned char> k(32);
  for (int i = 0; i < 32; ++i) k[static_cast<size_t>(i)] = static_cast<unsigned char>(i);
  return k;
}

// RFC 8439 §2.3 written out one block at a time, the plainest way: the reference the
// vectorised pass is compared with (and itself checked against §2.3.2 below).
uint32_t rotl(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }
void quarter(uint32_t* x, int a, int b, int c, int d) {
  x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 16);
  x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 12);
  x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 8);
  x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 7);
}
void reference_block(const unsigned char* key, const unsigned char* nonce, uint32_t counter,
                     unsigned char* out) {
  const auto le = [](const unsigned char* p) {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
  };
  uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) in[4 + i] = le(key + 4 * i);
  in[12] = counter;
  for (int i = 0; i < 3; ++i) in[13 + i] = le(nonce + 4 * i);
  uint32_t x[16];
  std::memcpy(x, in, sizeof x);
  for (int r = 0; r < 10; ++r) {
    quarter(x, 0, 4, 8, 12), quarter(x, 1, 5, 9, 13), quarter(x, 2, 6, 10, 14);
    quarter(x, 3, 7, 11, 15), quarter(x, 0, 5, 10, 15), quarter(x, 1, 6, 11, 12);
    quarter(x, 2, 7, 8, 13), quarter(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i)
    for (int b = 0; b < 4; ++b)
      out[4 * i + b] = static_cast<unsigned char>((x[i] + in[i]) >> 8 * b);
}

// Each pass this machine runs, named for the failure message; the lanes it must report.
struct PassCase {
  ChachaPass pass;
  size_t lanes;
  const char* name;
};
PassCase each_pass() {
  return GENERATE(
      PassCase{ChachaPass::kBaseline, kChachaLanes, "baseline pass"},
      PassCase{ChachaPass::kWidest, chacha_wide_available() ? kChachaWideLanes : kChachaLanes,
               "widest pass"});
}

const char* const kBlock232 =
    "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
    "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e";

}  // namespace

TEST_CASE("random: ChaCha20 matches RFC 8439 §2.3.2 (one block, counter 1)", "[random]") {
  const auto key = key_00_1f();
  const auto nonce = unhex("000000090000004a00000000");
  unsigned char out[64];
  const PassCase c = each_pass();
  INFO(c.name);
  CHECK(chacha20_blocks(key.data(), nonce.data(), 1, out, 1, c.pass) == c.lanes);
  CHECK(tohex(out, 64) == kBlock232);
  reference_block(key.data(), nonce.data(), 1, out);  // the test's own reference, too
  CHECK(tohex(out, 64) == kBlock232);
}

TEST_CASE("random: ChaCha20 matches RFC 8439 A.1 #1 (zero key and nonce, counter 0)", "[random]") {
  const unsigned char zero[32] = {};
  unsigned char out[64];
  const PassCase c = each_pass();
  INFO(c.name);
  CHECK(chacha20_blocks(zero, zero, 0, out, 1, c.pass) == c.lanes);
  CHECK(tohex(out, 64) ==
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
}

TEST_CASE("random: ChaCha20's keystream encrypts RFC 8439 §2.4.2 (two blocks from counter 1)",
          "[random]") {
  const auto key = key_00_1f();
  const auto nonce = unhex("000000000000004a00000000");
  const std::string plain =
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
      "future, sunscreen would be it.";
  REQUIRE(plain.size() == 114);
  unsigned char stream[128];
  const PassCase c = each_pass();
  INFO(c.name);
  CHECK(chacha20_blocks(key.data(), nonce.data(), 1, stream, 2, c.pass) == c.lanes);
  std::vector<unsigned char> cipher(plain.size());
  for (size_t i = 0; i < plain.size(); ++i)
    cipher[i] = static_cast<unsigned char>(plain[i]) ^ stream[i];
  CHECK(tohex(cipher.data(), cipher.size()) ==
        "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
        "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
        "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
        "5af90bbf74a35be6b40b8eedf2785e42874d");
}

TEST_CASE("random: every lane of a pass and a short tail equal the one-block reference",
          "[random]") {
  auto key = key_00_1f();
  key[31] = 0xa5;
  const auto nonce = unhex("0102030405060708090a0b0c");
  // 2 whole passes of the widest lanes (8) and 3 blocks more, from a counter that is no
  // multiple of the lanes, through each pass this machine runs.
  const size_t blocks = 2 * kChachaWideLanes + 3;
  const PassCase c = each_pass();
  INFO(c.name);
  std::vector<unsigned char> out(64 * blocks);
  CHECK(chacha20_blocks(key.data(), nonce.data(), 7, out.data(), blocks, c.pass) == c.lanes);
  for (size_t b = 0; b < blocks; ++b) {
    unsigned char want[64];
    reference_block(key.data(), nonce.data(), static_cast<uint32_t>(7 + b), want);
    INFO("block " << b);
    CHECK(tohex(out.data() + 64 * b, 64) == tohex(want, 64));
  }
}

TEST_CASE("random: the widest pass is AVX2's 8 lanes wherever the CPU has AVX2", "[random]") {
  unsigned char out[64];
  const unsigned char zero[32] = {};
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2");
  CHECK(chacha_wide_available() == avx2);
  CHECK(chacha20_blocks(zero, zero, 0, out, 1) == (avx2 ? kChachaWideLanes : kChachaLanes));
#else
  CHECK_FALSE(chacha_wide_available());
  CHECK(chacha20_blocks(zero, zero, 0, out, 1) == kChachaLanes);
#endif
}

TEST_CASE("random: a refill hands out the key's stream after 32 bytes that become the next key",
          "[random]") {
  RandomBuffer b;
  b.generation = fork_generation();  // keyed already, in this process: no getrandom
  const auto key = key_00_1f();
  std::memcpy(b.key, key.data(), 32);
  refill(b);
  const unsigned char nonce[12] = {};
  std::vector<unsigned char> stream(kRandomBufferBytes);
  chacha20_blocks(key.data(), nonce, 0, stream.data(), kRandomBufferBytes / 64);
  CHECK(b.pos == kRandomKeyBytes);
  CHECK(tohex(b.key, 32) == tohex(stream.data(), 32));  // fast key erasure
  CHECK(tohex(b.bytes, 32) == std::string(64, '0'));    // no copy of the new key is left
  CHECK(tohex(b.bytes + 32, kRandomBufferBytes - 32) ==
        tohex(stream.data() + 32, kRandomBufferBytes - 32));
  // The next refill runs from the new key, so its bytes differ.
  const std::string first = tohex(b.bytes + 32, kRandomBufferBytes - 32);
  refill(b);
  CHECK(tohex(b.bytes + 32, kRandomBufferBytes - 32) != first);
}

TEST_CASE("random: a buffer keyed in another fork generation is rekeyed from getrandom(2)",
          "[random]") {
  // A forked child holds its parent's buffer, key included: continuing that stream would
  // repeat the parent's next bytes. The parent's state continues; the child's must not.
  RandomBuffer parent;
  parent.generation = fork_generation();
  const auto key = key_00_1f();
  std::memcpy(parent.key, key.data(), 32);
  RandomBuffer child = parent;
  child.generation = fork_generation() - 1;  // as a child sees its parent's tag
  refill(parent);
  refill(child);
  CHECK(child.generation == fork_generation());
  CHECK(tohex(child.bytes + 32, 64) != tohex(parent.bytes + 32, 64));
  CHECK(tohex(child.key, 32) != tohex(parent.key, 32));
}

TEST_CASE("random: take() refills when its buffer is spent, never reading past it", "[random]") {
  RandomBuffer b;
  std::vector<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {  // about 6 refills of 165 UUIDs each
    seen.push_back(system_random_u48(b));
    REQUIRE(b.pos <= kRandomBufferBytes);
  }
  for (uint64_t v : seen) CHECK(v >> 48 == 0);
  std::sort(seen.begin(), seen.end());
  CHECK(std::unique(seen.begin(), seen.end()) == seen.end());  // 48 bits: no repeat expected
}

TEST_CASE("random: take() returns exactly the next bytes of the buffer, and no others",
          "[random]") {
  RandomBuffer b;
  b.generation = fork_generation();
  const auto key = key_00_1f();
  std::memcpy(b.key, key.data(), 32);
  refill(b);
  std::vector<unsigned char> bytes(b.bytes, b.bytes + kRandomBufferBytes);
  for (size_t width : {6, 8, 6, 1}) {
    const size_t at = b.pos;
    uint64_t want = 0;
    std::memcpy(&want, bytes.data() + at, width);  // those bytes in the host's order
    CHECK(take(b, width) == want);
    CHECK(b.pos == at + width);
  }
}
