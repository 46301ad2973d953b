// PostgreSQL's server headers for the extension's C++ files, and the macro that declares a
// SQL-callable function. PostgreSQL's headers are C: they are included with C linkage.
#pragma once

extern "C" {
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
}

// The module is compiled with hidden visibility (the core linked into it stays private to
// it); PostgreSQL 15's PGDLLEXPORT is empty on ELF, so the functions it looks up by name
// are exported here.
#define SNOWFLEET_PG_EXPORT __attribute__((visibility("default")))

// Declares and starts the definition of a version-1 SQL-callable function `name`:
//   SNOWFLEET_PG_FUNCTION(snowfleet_timestamp_ms) { ... PG_RETURN_INT64(v); }
// The body is C++, but PostgreSQL leaves it by longjmp (ereport): it must hold no object
// with a destructor where PostgreSQL can raise, and call the core only inside
// snowfleet_pg::attempt (bridge.hpp).
#define SNOWFLEET_PG_FUNCTION(name)                                 \
  extern "C" {                                                      \
  SNOWFLEET_PG_EXPORT Datum name(PG_FUNCTION_ARGS);                 \
  SNOWFLEET_PG_EXPORT const Pg_finfo_record* pg_finfo_##name(void); \
  const Pg_finfo_record* pg_finfo_##name(void) {                    \
    static const Pg_finfo_record info = {1};                        \
    return &info;                                                   \
  }                                                                 \
  }                                                                 \
  extern "C" Datum name(PG_FUNCTION_ARGS)
