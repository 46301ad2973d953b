// The sortable text forms of an id: Crockford base32 (13 characters, TSID's form) and
// fixed-width base62 (11 characters). Fixed width and alphabets in ASCII order make byte
// order equal numeric order.
#include <string>

#include "base/quote.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

constexpr char kBase32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr int8_t kBad = -1;

// Byte -> digit value tables, kBad for bytes outside the alphabet. base32 folds case and
// maps Crockford's aliases (I, L -> 1; O -> 0); U is not in the alphabet.
struct Tables {
  int8_t b32[256];
  int8_t b62[256];
  constexpr Tables() : b32(), b62() {
    for (int i = 0; i < 256; ++i) b32[i] = b62[i] = kBad;
    for (int i = 0; i < 32; ++i) {
      const unsigned char c = static_cast<unsigned char>(kBase32[i]);
      b32[c] = static_cast<int8_t>(i);
      if (c >= 'A' && c <= 'Z') b32[c - 'A' + 'a'] = static_cast<int8_t>(i);
    }
    for (const char c : {'I', 'i', 'L', 'l'}) b32[static_cast<unsigned char>(c)] = 1;
    for (const char c : {'O', 'o'}) b32[static_cast<unsigned char>(c)] = 0;
    for (int i = 0; i < 62; ++i)
      b62[static_cast<unsigned char>(kBase62[i])] = static_cast<int8_t>(i);
  }
};
constexpr Tables kTables;

[[noreturn]] void bad(const char* form, std::string_view text, const std::string& rule) {
  throw Error(ErrorKind::kInvalidArgument,
              std::string(form) + " id must be " + rule + ", got " + detail::quote(text));
}

// The first byte outside `table` (its position is 0-based), as the rule a message names.
std::string bad_char(const int8_t* table, std::string_view text, const char* alphabet) {
  for (size_t i = 0; i < text.size(); ++i)
    if (table[static_cast<unsigned char>(text[i])] == kBad)
      return std::string("characters of ") + alphabet + " (position " + std::to_string(i) +
             " is not)";
  return alphabet;
}

bool has_bad_char(const int8_t* table, std::string_view text) {
  for (char c : text)
    if (table[static_cast<unsigned char>(c)] == kBad) return true;
  return false;
}

// A text of the wrong length in bytes: a byte outside the alphabet is named first, since a
// non-ASCII character is several bytes (13 characters with an "é" are 14 bytes, and "must be
// 13 characters" would be wrong about them). Everything before the first bad byte is ASCII,
// so its byte position is also its character position.
[[noreturn]] void bad_length(const char* form, const int8_t* table, std::string_view text,
                             const char* alphabet, const char* length) {
  bad(form, text, has_bad_char(table, text) ? bad_char(table, text, alphabet) : length);
}

constexpr char kBase32Alphabet[] = "Crockford base32 (0-9 A-Z without U; I, L, O as 1, 1, 0)";
constexpr char kBase62Alphabet[] = "0-9 A-Z a-z";

}  // namespace

IdFormat parse_id_format(std::string_view name) {
  if (name == "decimal") return IdFormat::kDecimal;
  if (name == "base32") return IdFormat::kBase32;
  if (name == "base62") return IdFormat::kBase62;
  if (name == "any") return IdFormat::kAny;
  throw Error(ErrorKind::kInvalidArgument,
              "format must be decimal, base32, base62 or any, got " + detail::quote(name));
}

const char* id_format_name(IdFormat format) noexcept {
  switch (format) {
    case IdFormat::kBase32:
      return "base32";
    case IdFormat::kBase62:
      return "base62";
    case IdFormat::kAny:
      return "any";
    default:
      return "decimal";
  }
}

void format_base32(int64_t id, char* out) noexcept {
  uint64_t v = static_cast<uint64_t>(id);
  for (size_t i = kBase32Length; i-- > 0; v >>= 5) out[i] = kBase32[v & 31];
}

void format_base62(int64_t id, char* out) noexcept {
  uint64_t v = static_cast<uint64_t>(id);
  for (size_t i = kBase62Length; i-- > 0; v /= 62) out[i] = kBase62[v % 62];
}

int64_t parse_base32(std::string_view text) {
  if (text.size() != kBase32Length)
    bad_length("a base32", kTables.b32, text, kBase32Alphabet, "13 characters");
  uint64_t v = 0;
  int acc = 0;  // OR of every digit: one branch for the whole alphabet check
  for (char c : text) {
    const int d = kTables.b32[static_cast<unsigned char>(c)];
    acc |= d;
    v = v << 5 | static_cast<uint64_t>(d & 31);
  }
  if (acc < 0) bad("a base32", text, bad_char(kTables.b32, text, kBase32Alphabet));
  // 13 x 5 = 65 bits: the first digit's top bit is bit 64 (gone from v), its next is bit 63.
  if (kTables.b32[static_cast<unsigned char>(text[0])] > 7)
    bad("a base32", text, "at most 7ZZZZZZZZZZZZ (2^63 - 1): its first character 0-7");
  return static_cast<int64_t>(v);
}

int64_t parse_base62(std::string_view text) {
  if (text.size() != kBase62Length)
    bad_length("a base62", kTables.b62, text, kBase62Alphabet, "11 characters");
  // 62^10 < 2^64: the first 10 digits cannot wrap; only the last one's step can (texts
  // above "LygHa16AHYF"), and that one is checked.
  uint64_t v = 0;
  int acc = 0;
  for (size_t i = 0; i + 1 < kBase62Length; ++i) {
    const int d = kTables.b62[static_cast<unsigned char>(text[i])];
    acc |= d;
    v = v * 62 + static_cast<uint64_t>(d & 63);
  }
  const int last = kTables.b62[static_cast<unsigned char>(text[kBase62Length - 1])];
  acc |= last;
  if (__builtin_mul_overflow(v, uint64_t{62}, &v) ||
      __builtin_add_overflow(v, static_cast<uint64_t>(last & 63), &v))
    acc |= 0x40;
  if (acc < 0) bad("a base62", text, bad_char(kTables.b62, text, kBase62Alphabet));
  if ((acc & 0x40) || v > uint64_t{INT64_MAX})
    bad("a base62", text, "at most AzL8n0Y58m7 (2^63 - 1)");
  return static_cast<int64_t>(v);
}

std::string format_id_as(int64_t id, IdFormat format) {
  if (id < 0)
    throw Error(ErrorKind::kInvalidArgument, "id must be non-negative, got " + std::to_string(id));
  char buf[20];
  switch (format) {
    case IdFormat::kBase32:
      format_base32(id, buf);
      return std::string(buf, kBase32Length);
    case IdFormat::kBase62:
      format_base62(id, buf);
      return std::string(buf, kBase62Length);
    case IdFormat::kAny:
      throw Error(ErrorKind::kInvalidArgument,
                  "format 'any' reads an id in any form; an id is written as decimal, base32 or "
                  "base62");
    default:
      return format_id(id);
  }
}

int64_t parse_id_as(std::string_view text, IdFormat format) {
  switch (format) {
    case IdFormat::kBase32:
      return parse_base32(text);
    case IdFormat::kBase62:
      return parse_base62(text);
    case IdFormat::kAny:
      return parse_id_any(text);
    default:
      return parse_id(text);
  }
}

int64_t parse_id_any(std::string_view text) {
  const bool digits =
      !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  if (digits) return parse_id(text);
  const size_t chars = detail::char_count(text);
  if (chars == kBase32Length) return parse_base32(text);
  if (chars == kBase62Length) return parse_base62(text);
  throw Error(ErrorKind::kInvalidArgument,
              "an id must be decimal digits, 13 characters of base32 or 11 of base62, got " +
                  detail::quote(text) + " (" + std::to_string(chars) + " characters)");
}

}  // namespace snowfleet
