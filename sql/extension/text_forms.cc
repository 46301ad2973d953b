// The text forms: layout and layout_text, parse_id / format_id (decimal),
// parse_base32 / format_base32, parse_base62 / format_base62, parse_id_text (any of them).
#include <cstring>
#include <string>
#include <string_view>

#include "bridge.hpp"
#include "call_cache.hpp"
#include "pg.hpp"
#include "snowfleet/codec.hpp"
#include "snowfleet/text_id.hpp"

using namespace snowfleet_pg;

namespace {

std::string_view text_arg(FunctionCallInfo fcinfo, int argno) {
  text* arg = PG_GETARG_TEXT_PP(argno);
  return std::string_view(VARDATA_ANY(arg), VARSIZE_ANY_EXHDR(arg));
}

// An id in `format` (negative ids refused by the core), as text.
Datum format_as(FunctionCallInfo fcinfo, snowfleet::IdFormat format) {
  const int64_t id = PG_GETARG_INT64(0);
  char out[24];
  size_t len = 0;
  Failure f;
  if (!attempt(f, [&] {
        const std::string s = snowfleet::format_id_as(id, format);
        len = s.size();
        std::memcpy(out, s.data(), len);
      }))
    raise(f);
  return PointerGetDatum(cstring_to_text_with_len(out, static_cast<int>(len)));
}

Datum parse_as(FunctionCallInfo fcinfo, snowfleet::IdFormat format) {
  const std::string_view t = text_arg(fcinfo, 0);
  int64_t id = 0;
  Failure f;
  if (!attempt(f, [&] { id = snowfleet::parse_id_as(t, format); })) raise(f);
  return Int64GetDatum(id);
}

}  // namespace

// (epoch_ms, timestamp_bits, datacenter_bits, machine_bits, sequence_bits)
SNOWFLEET_PG_FUNCTION(snowfleet_layout) {
  const snowfleet::Layout& l = layout_arg(fcinfo, 0);
  Datum values[5] = {Int64GetDatum(l.epoch_ms()), Int32GetDatum(l.timestamp_bits()),
                     Int32GetDatum(l.datacenter_bits()), Int32GetDatum(l.machine_bits()),
                     Int32GetDatum(l.sequence_bits())};
  PG_RETURN_DATUM(make_record(fcinfo, values, 5));
}

SNOWFLEET_PG_FUNCTION(snowfleet_layout_text) {
  const snowfleet::Layout& l = layout_arg(fcinfo, 0);
  char out[64];
  Failure f;
  if (!attempt(f, [&] {
        const std::string s = l.to_string();
        std::memcpy(out, s.c_str(), s.size() + 1);  // at most "52.62.62.62@" + 15 digits
      }))
    raise(f);
  PG_RETURN_TEXT_P(cstring_to_text(out));
}

SNOWFLEET_PG_FUNCTION(snowfleet_parse_id) {
  PG_RETURN_DATUM(parse_as(fcinfo, snowfleet::IdFormat::kDecimal));
}
SNOWFLEET_PG_FUNCTION(snowfleet_format_id) {
  PG_RETURN_DATUM(format_as(fcinfo, snowfleet::IdFormat::kDecimal));
}
SNOWFLEET_PG_FUNCTION(snowfleet_parse_base32) {
  PG_RETURN_DATUM(parse_as(fcinfo, snowfleet::IdFormat::kBase32));
}
SNOWFLEET_PG_FUNCTION(snowfleet_format_base32) {
  PG_RETURN_DATUM(format_as(fcinfo, snowfleet::IdFormat::kBase32));
}
SNOWFLEET_PG_FUNCTION(snowfleet_parse_id_text) {
  PG_RETURN_DATUM(parse_as(fcinfo, snowfleet::IdFormat::kAny));
}
SNOWFLEET_PG_FUNCTION(snowfleet_parse_base62) {
  PG_RETURN_DATUM(parse_as(fcinfo, snowfleet::IdFormat::kBase62));
}
SNOWFLEET_PG_FUNCTION(snowfleet_format_base62) {
  PG_RETURN_DATUM(format_as(fcinfo, snowfleet::IdFormat::kBase62));
}
