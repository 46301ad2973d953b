// uuid7_decode and uuid7_timestamp, of a uuid or of a UUID text (the core's parse_uuid:
// 36 characters 8-4-4-4-12 or 32 hex digits, either case).
#include <string_view>

#include "bridge.hpp"
#include "call_cache.hpp"
#include "pg.hpp"
#include "snowfleet/uuid7.hpp"
#include "times.hpp"

using namespace snowfleet_pg;

namespace {

snowfleet::Uuid7Fields fields_of_uuid(FunctionCallInfo fcinfo) {
  const pg_uuid_t* u = PG_GETARG_UUID_P(0);
  snowfleet::Uuid7Fields out;
  Failure f;
  if (!attempt(f, [&] { out = snowfleet::decode_uuid7(snowfleet::Uuid::from_bytes(u->data)); }))
    raise(f);
  return out;
}

snowfleet::Uuid7Fields fields_of_text(FunctionCallInfo fcinfo) {
  text* arg = PG_GETARG_TEXT_PP(0);
  const std::string_view t(VARDATA_ANY(arg), VARSIZE_ANY_EXHDR(arg));
  snowfleet::Uuid7Fields out;
  Failure f;
  if (!attempt(f, [&] { out = snowfleet::decode_uuid7(snowfleet::parse_uuid(t)); })) raise(f);
  return out;
}

// (timestamp_ms, time, counter, random)
Datum record_of(FunctionCallInfo fcinfo, const snowfleet::Uuid7Fields& u) {
  Datum values[4] = {Int64GetDatum(u.timestamp_ms),
                     TimestampTzGetDatum(timestamptz_of_ms(u.timestamp_ms)),
                     Int64GetDatum(u.counter), Int64GetDatum(u.random)};
  return make_record(fcinfo, values, 4);
}

}  // namespace

SNOWFLEET_PG_FUNCTION(snowfleet_uuid7_decode) {
  PG_RETURN_DATUM(record_of(fcinfo, fields_of_uuid(fcinfo)));
}
SNOWFLEET_PG_FUNCTION(snowfleet_uuid7_decode_text) {
  PG_RETURN_DATUM(record_of(fcinfo, fields_of_text(fcinfo)));
}
SNOWFLEET_PG_FUNCTION(snowfleet_uuid7_timestamp) {
  PG_RETURN_TIMESTAMPTZ(timestamptz_of_ms(fields_of_uuid(fcinfo).timestamp_ms));
}
SNOWFLEET_PG_FUNCTION(snowfleet_uuid7_timestamp_text) {
  PG_RETURN_TIMESTAMPTZ(timestamptz_of_ms(fields_of_text(fcinfo).timestamp_ms));
}
