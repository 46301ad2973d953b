// snowfleet public API: an id's sortable text forms, Crockford base32 and base62.
// Included by <snowfleet/snowfleet.hpp>.
//
// Both are fixed width, so a text's byte order is its id's numeric order (under a byte /
// "C" collation: a case-folding collation breaks base62's order, where 'a' > 'Z').
//  - base32: 13 characters of Crockford's alphabet 0123456789ABCDEFGHJKMNPQRSTVWXYZ, the
//    text form of TSID (a 64-bit id in 13 x 5 = 65 bits, so the first character carries 4
//    bits; for an id <= 2^63 - 1 it is 0-7). Written in upper case; read case-insensitively,
//    with Crockford's aliases I and L for 1 and O for 0.
//  - base62: 11 characters of 0-9A-Za-z (ASCII order), case-sensitive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace snowfleet {

/// The text forms of an id: decimal (format_id / parse_id), base32, base62; kAny reads
/// whichever of the three a text is in (parse_id_any) and writes nothing.
enum class IdFormat { kDecimal, kBase32, kBase62, kAny };

/// "decimal", "base32", "base62" or "any" to an IdFormat; anything else throws
/// kInvalidArgument quoting the text.
IdFormat parse_id_format(std::string_view name);
/// The name of a format, as parse_id_format() reads it.
const char* id_format_name(IdFormat format) noexcept;

inline constexpr size_t kBase32Length = 13;
inline constexpr size_t kBase62Length = 11;

/// Writes the 13-character base32 form of a non-negative id into `out` (no terminator).
/// No allocation, no check: precondition id >= 0 (the checked form below says so otherwise).
void format_base32(int64_t id, char* out) noexcept;
/// Writes the 11-character base62 form of a non-negative id into `out` (no terminator).
void format_base62(int64_t id, char* out) noexcept;

/// Parses a base32 id. Exactly 13 characters of the alphabet (either case, I/L/O aliases),
/// the first one 0-7 (so the value is at most 2^63 - 1), else kInvalidArgument quoting the
/// text and naming the rule (the length, the first bad character and its position, or the
/// value above 2^63 - 1).
int64_t parse_base32(std::string_view text);
/// Parses a base62 id: exactly 11 characters of 0-9A-Za-z whose value is at most
/// 2^63 - 1 ("AzL8n0Y58m7"), else kInvalidArgument quoting the text and naming the rule.
int64_t parse_base62(std::string_view text);

/// The id in `format`; a negative id or kAny throws kInvalidArgument naming it.
std::string format_id_as(int64_t id, IdFormat format);
/// Parses an id in `format` (parse_id for kDecimal, parse_id_any for kAny).
int64_t parse_id_as(std::string_view text, IdFormat format);
/// Parses an id in whichever text form it is, decode's rule in the CLI: a text of ASCII
/// digits only is decimal whatever its length ("8000000000000", 13 digits, is 8 x 10^12,
/// never base32); else 13 characters are base32 and 11 base62; else kInvalidArgument
/// quoting the text and naming the three forms. A text in a known form reads as
/// parse_id_as(text, form) would (so `--format F` and this agree on every text of form F
/// that is not all digits).
int64_t parse_id_any(std::string_view text);

}  // namespace snowfleet
