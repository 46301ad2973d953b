// The readers of an id: timestamp_ms, timestamp, node_id, datacenter_id, machine_id,
// sequence and decode, each (id bigint, layout text): the core's decode() on the layout
// the call site parsed once.
#include "bridge.hpp"
#include "call_cache.hpp"
#include "pg.hpp"
#include "snowfleet/codec.hpp"
#include "times.hpp"

using namespace snowfleet_pg;

namespace {

snowfleet::Decoded decode_args(FunctionCallInfo fcinfo) {
  const int64_t id = PG_GETARG_INT64(0);
  const snowfleet::Layout& layout = layout_arg(fcinfo, 1);
  snowfleet::Decoded d;
  Failure f;
  if (!attempt(f, [&] { d = snowfleet::decode(layout, id); })) raise(f);
  return d;
}

}  // namespace

SNOWFLEET_PG_FUNCTION(snowfleet_timestamp_ms) { PG_RETURN_INT64(decode_args(fcinfo).timestamp_ms); }

SNOWFLEET_PG_FUNCTION(snowfleet_timestamp) {
  PG_RETURN_TIMESTAMPTZ(timestamptz_of_ms(decode_args(fcinfo).timestamp_ms));
}

SNOWFLEET_PG_FUNCTION(snowfleet_node_id) { PG_RETURN_INT64(decode_args(fcinfo).node_id); }

SNOWFLEET_PG_FUNCTION(snowfleet_datacenter_id) {
  PG_RETURN_INT64(decode_args(fcinfo).datacenter_id);
}

SNOWFLEET_PG_FUNCTION(snowfleet_machine_id) { PG_RETURN_INT64(decode_args(fcinfo).machine_id); }

SNOWFLEET_PG_FUNCTION(snowfleet_sequence) { PG_RETURN_INT64(decode_args(fcinfo).sequence); }

// (timestamp_ms, time, node_id, datacenter_id, machine_id, sequence)
SNOWFLEET_PG_FUNCTION(snowfleet_decode) {
  const snowfleet::Decoded d = decode_args(fcinfo);
  Datum values[6] = {
      Int64GetDatum(d.timestamp_ms), TimestampTzGetDatum(timestamptz_of_ms(d.timestamp_ms)),
      Int64GetDatum(d.node_id),      Int64GetDatum(d.datacenter_id),
      Int64GetDatum(d.machine_id),   Int64GetDatum(d.sequence)};
  PG_RETURN_DATUM(make_record(fcinfo, values, 6));
}
