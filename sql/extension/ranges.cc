// min_id_ms, max_id_ms and id_range_ms: the core's range.hpp.
#include "bridge.hpp"
#include "call_cache.hpp"
#include "pg.hpp"
#include "snowfleet/range.hpp"

using namespace snowfleet_pg;

SNOWFLEET_PG_FUNCTION(snowfleet_min_id_ms) {
  const int64_t ms = PG_GETARG_INT64(0);
  const snowfleet::Layout& layout = layout_arg(fcinfo, 1);
  int64_t id = 0;
  Failure f;
  if (!attempt(f, [&] { id = snowfleet::min_id(layout, ms); })) raise(f);
  PG_RETURN_INT64(id);
}

SNOWFLEET_PG_FUNCTION(snowfleet_max_id_ms) {
  const int64_t ms = PG_GETARG_INT64(0);
  const snowfleet::Layout& layout = layout_arg(fcinfo, 1);
  int64_t id = 0;
  Failure f;
  if (!attempt(f, [&] { id = snowfleet::max_id(layout, ms); })) raise(f);
  PG_RETURN_INT64(id);
}

// (start_ms, end_ms, slack_ms, layout) -> (first, last)
SNOWFLEET_PG_FUNCTION(snowfleet_id_range_ms) {
  const int64_t start = PG_GETARG_INT64(0), end = PG_GETARG_INT64(1), slack = PG_GETARG_INT64(2);
  const snowfleet::Layout& layout = layout_arg(fcinfo, 3);
  snowfleet::IdRange r;
  Failure f;
  if (!attempt(f, [&] { r = snowfleet::id_range(layout, start, end, slack); })) raise(f);
  Datum values[2] = {Int64GetDatum(r.first), Int64GetDatum(r.last)};
  PG_RETURN_DATUM(make_record(fcinfo, values, 2));
}
