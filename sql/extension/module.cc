// The module: its magic block and _PG_init. Loaded on first use, or at server start with
// shared_preload_libraries = 'snowfleet' (what minting ids from one id space in shared
// memory will require: _PG_init is where it will request that memory and define its GUCs).
#include "pg.hpp"

// PostgreSQL looks up the magic block by name; the module's default visibility is hidden.
#pragma GCC visibility push(default)
extern "C" {
PG_MODULE_MAGIC;
void _PG_init(void);
}
#pragma GCC visibility pop

void _PG_init(void) {}
