// compose / decode, decimal ids and ISO-8601 times. Nothing is masked: a value outside
// its field is an error naming the value, never silently truncated into another id.
#include <cstdio>
#include <string>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "ids/civil.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

using detail::bad;

void check_field(const char* name, int64_t value, int64_t max) {
  if (value < 0 || value > max)
    bad(std::string(name) + " must be in [0, " + std::to_string(max) + "], got " +
        std::to_string(value));
}

void check_timestamp(const Layout& l, int64_t timestamp_ms) {
  if (timestamp_ms < l.epoch_ms() || timestamp_ms > l.max_timestamp_ms())
    throw Error(ErrorKind::kTimestampOutOfRange,
                "timestamp_ms must be in [" + std::to_string(l.epoch_ms()) + ", " +
                    std::to_string(l.max_timestamp_ms()) + "] for layout " + l.to_string() +
                    ", got " + std::to_string(timestamp_ms));
}

int64_t pack(const Layout& l, int64_t timestamp_ms, int64_t node_id, int64_t sequence) {
  return ((timestamp_ms - l.epoch_ms()) << l.timestamp_shift()) | (node_id << l.node_shift()) |
         sequence;
}

}  // namespace

int64_t compose(const Layout& layout, int64_t timestamp_ms, int64_t node_id, int64_t sequence) {
  // Checked in field order (timestamp, node, sequence): the first bad field is reported.
  check_timestamp(layout, timestamp_ms);
  check_field("node_id", node_id, layout.max_node_id());
  check_field("sequence", sequence, layout.max_sequence());
  return pack(layout, timestamp_ms, node_id, sequence);
}

int64_t compose_split(const Layout& layout, int64_t timestamp_ms, int64_t datacenter_id,
                      int64_t machine_id, int64_t sequence) {
  check_timestamp(layout, timestamp_ms);
  check_field("datacenter_id", datacenter_id, layout.max_datacenter_id());
  check_field("machine_id", machine_id, layout.max_machine_id());
  check_field("sequence", sequence, layout.max_sequence());
  return pack(layout, timestamp_ms, (datacenter_id << layout.machine_bits()) | machine_id,
              sequence);
}

Decoded decode(const Layout& layout, int64_t id) {
  if (id < 0) bad("id must be non-negative, got " + std::to_string(id));
  Decoded d;
  d.timestamp_ms = (id >> layout.timestamp_shift()) + layout.epoch_ms();
  d.node_id = (id >> layout.node_shift()) & layout.max_node_id();
  d.datacenter_id = d.node_id >> layout.machine_bits();
  d.machine_id = d.node_id & layout.max_machine_id();
  d.sequence = id & layout.max_sequence();
  return d;
}

Decoded decode(const Layout& layout, std::string_view id_text) {
  return decode(layout, parse_id(id_text));
}

int64_t parse_id(std::string_view text) {
  int64_t v;
  if (!detail::parse_uint(text, &v)) {
    bad("id must be a decimal integer in [0, 9223372036854775807], got " + detail::quote(text));
  }
  return v;
}

size_t format_id(int64_t id, char* out) noexcept {
  char tmp[20];
  size_t n = 0;
  uint64_t v = static_cast<uint64_t>(id);
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  for (size_t i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  return n;
}

int64_t parse_int(std::string_view text, std::string_view what) {
  int64_t v;
  if (!detail::parse_int64(text, &v, /*allow_negative=*/true))
    bad(std::string(what) + " must be a decimal integer in [-9223372036854775808, "
        "9223372036854775807], got " + detail::quote(text));
  return v;
}

std::string format_id(int64_t id) {
  if (id < 0) bad("id must be non-negative, got " + std::to_string(id));
  char buf[20];
  return std::string(buf, format_id(id, buf));
}

std::string format_iso8601(int64_t unix_ms) {
  // Exact for the whole int64 ms range a layout can produce (ids/civil.hpp).
  int64_t ms = unix_ms % 1000, secs = unix_ms / 1000;
  if (ms < 0) ms += 1000, secs -= 1;
  int64_t days = secs / 86400, sod = secs % 86400;
  if (sod < 0) sod += 86400, days -= 1;
  const auto [y, m, d] = detail::civil_from_days(days);
  // RFC 3339 has 4-digit years only: past 9999 (or before 0000) ISO 8601's expanded form,
  // a sign and at least 4 digits, as Java's Instant.toString writes it.
  const char* sign = y > 9999 ? "+" : y < 0 ? "-" : "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ", sign,
                static_cast<long long>(y < 0 ? -y : y), static_cast<long long>(m),
                static_cast<long long>(d),
                static_cast<long long>(sod / 3600), static_cast<long long>(sod / 60 % 60),
                static_cast<long long>(sod % 60), static_cast<long long>(ms));
  return buf;
}

}  // namespace snowfleet
