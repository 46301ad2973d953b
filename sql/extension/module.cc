// The module: its magic block and _PG_init. Loaded on first use, or at server start with
// shared_preload_libraries = 'snowfleet', which minting requires: then _PG_init asks for
// the shared memory of the node's id space and starts the mark writer (mint.hpp).
#include "mint.hpp"
#include "pg.hpp"

extern "C" {
#include "miscadmin.h"
}

// PostgreSQL looks up the magic block by name; the module's default visibility is hidden.
#pragma GCC visibility push(default)
extern "C" {
PG_MODULE_MAGIC;
void _PG_init(void);
}
#pragma GCC visibility pop

void _PG_init(void) {
  snowfleet_pg::define_settings();
  if (!process_shared_preload_libraries_in_progress) return;
  snowfleet_pg::check_settings_at_start();
  snowfleet_pg::request_shared_memory();
  snowfleet_pg::register_mark_worker();
}
