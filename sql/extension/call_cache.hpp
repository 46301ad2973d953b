// What a call site keeps between rows (in fn_extra, for the life of the query): the
// parsed layout argument, and the row type of a function returning a record. A constant
// layout ('default', '41.10.12@1704067200000') is parsed once per query, not once per row.
#pragma once

#include <cstdint>

#include "pg.hpp"
#include "snowfleet/layout.hpp"

namespace snowfleet_pg {

/// The layout named by text argument `argno` (a preset or a layout text). Throws nothing:
/// a malformed layout is reported with ereport (INVALID_ARGUMENT, the core's message).
const snowfleet::Layout& layout_arg(FunctionCallInfo fcinfo, int argno);

/// The blessed row type of the calling function's result (its OUT parameters), looked up
/// once per call site.
TupleDesc result_type(FunctionCallInfo fcinfo);

/// The Datum of a record of the calling function's result type.
Datum make_record(FunctionCallInfo fcinfo, Datum* values, int count);

}  // namespace snowfleet_pg
