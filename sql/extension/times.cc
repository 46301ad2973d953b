// from_ms, to_ms, parse_time_ms, parse_time: times between SQL and the core.
#include "times.hpp"

#include <string_view>

#include "bridge.hpp"
#include "snowfleet/codec.hpp"

namespace snowfleet_pg {

using snowfleet::ErrorKind;

int64_t ms_of_timestamptz(TimestampTz t) {
  if (TIMESTAMP_NOT_FINITE(t)) {
    const char* which = TIMESTAMP_IS_NOBEGIN(t) ? "-infinity" : "infinity";
    char message[64];
    snprintf(message, sizeof message, "time must be finite, got %s", which);
    raise(ErrorKind::kTimestampOutOfRange, message);
  }
  if (t % 1000 != 0) {
    // The message writes the time as the plain-SQL file does: to_char in UTC.
    text* shown = DatumGetTextPP(
        DirectFunctionCall2(timestamp_to_char, TimestampGetDatum(t),
                            PointerGetDatum(cstring_to_text("YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\""))));
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
             errmsg_internal("INVALID_ARGUMENT: time must be a whole millisecond (an id's "
                             "timestamp is whole ms; use date_trunc('milliseconds', t)), got %s",
                             text_to_cstring(shown))));
  }
  return t / 1000 + 946684800000;
}

}  // namespace snowfleet_pg

using namespace snowfleet_pg;

SNOWFLEET_PG_FUNCTION(snowfleet_from_ms) {
  const int64_t ms = PG_GETARG_INT64(0);
  if (ms < kMinTimestampMs || ms > kMaxTimestampMs) {
    char message[160];
    snprintf(message, sizeof message,
             "ms must be in [%lld, %lld] (the range of timestamptz), got %lld",
             static_cast<long long>(kMinTimestampMs), static_cast<long long>(kMaxTimestampMs),
             static_cast<long long>(ms));
    raise(ErrorKind::kTimestampOutOfRange, message);
  }
  PG_RETURN_TIMESTAMPTZ(timestamptz_of_ms(ms));
}

SNOWFLEET_PG_FUNCTION(snowfleet_to_ms) {
  PG_RETURN_INT64(ms_of_timestamptz(PG_GETARG_TIMESTAMPTZ(0)));
}

namespace {

int64_t parse_time_arg(FunctionCallInfo fcinfo) {
  text* arg = PG_GETARG_TEXT_PP(0);
  const std::string_view t(VARDATA_ANY(arg), VARSIZE_ANY_EXHDR(arg));
  int64_t ms = 0;
  Failure f;
  if (!attempt(f, [&] { ms = snowfleet::parse_iso8601(t); })) raise(f);
  return ms;
}

}  // namespace

SNOWFLEET_PG_FUNCTION(snowfleet_parse_time_ms) { PG_RETURN_INT64(parse_time_arg(fcinfo)); }

SNOWFLEET_PG_FUNCTION(snowfleet_parse_time) {
  PG_RETURN_TIMESTAMPTZ(timestamptz_of_ms(parse_time_arg(fcinfo)));
}
