// UUID values: bytes, the canonical text form, and the fields of a UUIDv7.
#include <cstring>
#include <string>

#include "base/quote.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// The two lowercase hex digits of each byte value: one load per byte when formatting.
struct HexPairs {
  char pair[256][2];
  constexpr HexPairs() : pair() {
    for (int v = 0; v < 256; ++v) {
      pair[v][0] = kHex[v >> 4];
      pair[v][1] = kHex[v & 15];
    }
  }
};
constexpr HexPairs kHexPairs;

// The 16 bytes of half (8 bytes, big-endian) as 16 hex digits at out, with hyphens after
// the digits whose count is in the bit mask `dash_after` (bit i: after byte i).
inline char* put_hex(uint64_t half, char* out, unsigned dash_after) noexcept {
  for (int i = 0; i < 8; ++i) {
    std::memcpy(out, kHexPairs.pair[(half >> (56 - 8 * i)) & 0xff], 2);
    out += 2;
    if (dash_after >> i & 1) *out++ = '-';
  }
  return out;
}
// Where each of the 32 hex digits goes in the 36-character canonical form.
constexpr int kDigitPos[32] = {0,  1,  2,  3,  4,  5,  6,  7,  9,  10, 11, 12, 14, 15, 16, 17,
                               19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

[[noreturn]] void bad_uuid(std::string_view text, const std::string& why) {
  throw Error(ErrorKind::kInvalidArgument,
              "not a UUID: " + detail::quote(text) + " (" + why +
                  "; a UUID is 36 characters, 8-4-4-4-12 hex digits, or 32 hex digits)");
}

}  // namespace

std::array<uint8_t, 16> Uuid::bytes() const noexcept {
  std::array<uint8_t, 16> b;
  for (int i = 0; i < 8; ++i) {
    b[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
    b[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
  }
  return b;
}

Uuid Uuid::from_bytes(const uint8_t* b) noexcept {
  Uuid u;
  for (int i = 0; i < 8; ++i) {
    u.hi = (u.hi << 8) | b[i];
    u.lo = (u.lo << 8) | b[8 + i];
  }
  return u;
}

void format_uuid(const Uuid& u, char* out) noexcept {
  // 8-4-4-4-12 digits: hyphens after bytes 3 and 5 of hi, after bytes 1 (7) of hi and of lo.
  put_hex(u.lo, put_hex(u.hi, out, 1u << 3 | 1u << 5 | 1u << 7), 1u << 1);
}

std::string format_uuid(const Uuid& u) {
  std::string s(36, '-');
  format_uuid(u, s.data());
  return s;
}

Uuid parse_uuid(std::string_view text) {
  const size_t chars = detail::char_count(text);
  const bool hyphens = chars == 36;
  if (!hyphens && chars != 32) bad_uuid(text, std::to_string(chars) + " characters");
  // A non-ASCII character of the right count of characters: no hex digit; named at its
  // character position (every byte before it is ASCII, so its byte position is that).
  if (chars != text.size()) {
    size_t at = 0, len = 1;
    while (static_cast<unsigned char>(text[at]) < 0x80) ++at;
    while (at + len < text.size() && len < 4 &&
           (static_cast<unsigned char>(text[at + len]) & 0xC0) == 0x80)
      ++len;
    bad_uuid(text, "bad character " + detail::quote(text.substr(at, len)) + " at position " +
                       std::to_string(at));
  }
  if (hyphens) {
    for (int p : {8, 13, 18, 23})
      if (text[static_cast<size_t>(p)] != '-')
        bad_uuid(text, "no '-' at position " + std::to_string(p));
  }
  uint64_t half[2] = {0, 0};
  for (int i = 0; i < 32; ++i) {
    const size_t at = static_cast<size_t>(hyphens ? kDigitPos[i] : i);
    const int v = hex_value(text[at]);
    if (v < 0)
      bad_uuid(text, "bad character " + detail::quote(text.substr(at, 1)) + " at position " +
                         std::to_string(at));
    half[i / 16] = (half[i / 16] << 4) | static_cast<uint64_t>(v);
  }
  return Uuid{half[0], half[1]};
}

Uuid7Fields decode_uuid7(const Uuid& u) {
  const int version = static_cast<int>((u.hi >> 12) & 0xf);
  const unsigned variant = static_cast<unsigned>(u.lo >> 62);
  if (version != 7 || variant != 2)
    throw Error(ErrorKind::kInvalidArgument,
                "not a UUIDv7: " + format_uuid(u) + " has version " + std::to_string(version) +
                    (variant != 2 ? " and not the RFC 9562 variant (10)" : "") +
                    "; want version 7, variant 10");
  Uuid7Fields f;
  f.timestamp_ms = static_cast<int64_t>(u.hi >> 16);
  f.counter = static_cast<int64_t>(((u.hi & 0xfff) << 14) | ((u.lo >> 48) & 0x3fff));
  f.random = static_cast<int64_t>(u.lo & 0xffffffffffffULL);
  return f;
}

}  // namespace snowfleet
