// snowfleet public API: compose / decode, decimal ids and RFC 3339 times.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "snowfleet/layout.hpp"

namespace snowfleet {

/// The fields of an id. datacenter_id/machine_id are the two halves of node_id
/// (datacenter_id is 0 and machine_id == node_id for an unsplit layout).
struct Decoded {
  int64_t timestamp_ms = 0;  ///< Unix milliseconds
  int64_t node_id = 0;
  int64_t datacenter_id = 0;
  int64_t machine_id = 0;
  int64_t sequence = 0;
};

/// Packs the fields into an id. Nothing is masked: a timestamp outside
/// [epoch_ms, max_timestamp_ms] throws kTimestampOutOfRange, a node id or sequence outside
/// its field throws kInvalidArgument naming the value.
int64_t compose(const Layout& layout, int64_t timestamp_ms, int64_t node_id, int64_t sequence);
/// As compose(), with the node given as datacenter + machine.
int64_t compose_split(const Layout& layout, int64_t timestamp_ms, int64_t datacenter_id,
                      int64_t machine_id, int64_t sequence);
/// The node of an id as a user may give it: node_id, or datacenter_id + machine_id.
struct NodeArgs {
  std::optional<int64_t> node_id;
  std::optional<int64_t> datacenter_id;
  std::optional<int64_t> machine_id;
};
/// compose() with the node given either way, under the rules of resolve_options(): exactly
/// one form (datacenter_id and machine_id together), else kInvalidArgument naming what was
/// given; then the fields are checked in order (timestamp, node, sequence). An absent
/// sequence is 0 (the first id of that node's millisecond).
int64_t compose(const Layout& layout, int64_t timestamp_ms, const NodeArgs& node,
                std::optional<int64_t> sequence = std::nullopt);
/// Unpacks an id. A negative id throws kInvalidArgument.
Decoded decode(const Layout& layout, int64_t id);
/// Unpacks an id given as decimal text (parse_id's rules): how every language decodes an
/// id that arrives as a string (JSON, a URL, a log line).
Decoded decode(const Layout& layout, std::string_view id_text);

/// Parses a decimal id ("141264821508263936"): digits only, 0 <= id <= 2^63 - 1, else
/// kInvalidArgument quoting the text.
int64_t parse_id(std::string_view text);
/// Parses a signed decimal integer ("-42", "1737747358021"): an optional '-', then 1 to 19
/// ASCII digits whose value fits in int64; no '+', no spaces. Else kInvalidArgument quoting
/// the text and naming `what` (e.g. "ms"). For every 64-bit value that arrives as text.
int64_t parse_int(std::string_view text, std::string_view what);
/// Writes the decimal form of a non-negative id into `out` (at least 20 bytes), returns
/// the length. No allocation: the Node binding's string path uses it directly. Precondition:
/// id >= 0 (the checked form below says so otherwise).
size_t format_id(int64_t id, char* out) noexcept;
/// The decimal form of an id; a negative id throws kInvalidArgument naming it.
std::string format_id(int64_t id);
/// ISO-8601 UTC with milliseconds, e.g. "2025-01-24T19:35:58.021Z": RFC 3339 for years
/// 0000-9999. RFC 3339 cannot express other years (parse_iso8601 refuses them): a year past
/// 9999 (a layout whose window reaches it, e.g. 52.0.11@0) is written in ISO 8601's expanded
/// form, '+' and the year, "+144683-05-23T16:29:30.495Z", and one before 0000 as '-' and at
/// least 4 digits, "-0001-12-31T23:59:59.999Z" (as Java's Instant.toString writes both).
std::string format_iso8601(int64_t unix_ms);
/// Parses an RFC 3339 date-time into Unix ms: YYYY-MM-DDTHH:MM:SS[.fraction] then Z,
/// +HH:MM or -HH:MM, e.g. "2025-01-24T19:35:58.021Z" or "2025-01-24T20:35:58.021+01:00".
/// The one time-text parser of snowfleet (the CLI's --time and every language's
/// parse_time / parseTime). The RFC 3339 section 5.6 grammar, with these choices:
///  - 'T' and 'Z' may be lower case, as RFC 3339 allows; a space instead of 'T' (which it
///    only mentions in a note) is refused;
///  - the year is 4 ASCII digits, 0000-9999, without a sign; every field has exactly its
///    digits (ASCII only) and its range; the day must exist in its month and year
///    (proleptic Gregorian leap years);
///  - a fraction has 1 or more digits, and every digit past the third must be 0: an id's
///    timestamp is whole milliseconds, and nothing is truncated silently;
///  - second 60 (a leap second) is refused: Unix milliseconds cannot represent it;
///  - the offset is required: Z, or +HH:MM / -HH:MM with HH 00-23 and MM 00-59 (-00:00 is
///    UTC); no basic format, no comma fraction, no surrounding space, no trailing bytes.
/// An offset may move the instant up to 23:59 outside years 0000-9999. For every ms from
/// 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (Layout::kMaxEpochMs),
/// parse_iso8601(format_iso8601(ms)) == ms. Anything else throws kInvalidArgument quoting
/// the text (cut to 60 bytes, control bytes written as \xNN) and naming the rule that failed.
int64_t parse_iso8601(std::string_view text);

}  // namespace snowfleet
