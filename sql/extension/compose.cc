// compose_ms and compose_split_ms: the core's compose() and compose_split().
#include "bridge.hpp"
#include "call_cache.hpp"
#include "pg.hpp"
#include "snowfleet/codec.hpp"

using namespace snowfleet_pg;

// (timestamp_ms, node_id, sequence, layout)
SNOWFLEET_PG_FUNCTION(snowfleet_compose_ms) {
  const int64_t ms = PG_GETARG_INT64(0), node = PG_GETARG_INT64(1), seq = PG_GETARG_INT64(2);
  const snowfleet::Layout& layout = layout_arg(fcinfo, 3);
  int64_t id = 0;
  Failure f;
  if (!attempt(f, [&] { id = snowfleet::compose(layout, ms, node, seq); })) raise(f);
  PG_RETURN_INT64(id);
}

// (timestamp_ms, datacenter_id, machine_id, sequence, layout)
SNOWFLEET_PG_FUNCTION(snowfleet_compose_split_ms) {
  const int64_t ms = PG_GETARG_INT64(0), dc = PG_GETARG_INT64(1), machine = PG_GETARG_INT64(2),
                seq = PG_GETARG_INT64(3);
  const snowfleet::Layout& layout = layout_arg(fcinfo, 4);
  int64_t id = 0;
  Failure f;
  if (!attempt(f, [&] { id = snowfleet::compose_split(layout, ms, dc, machine, seq); })) raise(f);
  PG_RETURN_INT64(id);
}
