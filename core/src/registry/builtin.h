/* For a core linked into a program statically (the Rust crate, rust/snowfleet-sys), which
 * has no libsnowfleet_registry.so.1 beside it: what locate.cc finds the process's registry
 * with. Not part of the registry's ABI; nothing here is exported from the program. */
#ifndef SNOWFLEET_REGISTRY_BUILTIN_H
#define SNOWFLEET_REGISTRY_BUILTIN_H

#include <stddef.h>

#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* registry.cc built into the program (-DSNOWFLEET_REGISTRY_BUILTIN): a registry this copy of
 * the core shares with no other copy, for when the process cannot load the image below. */
const snowfleet_registry_api* snowfleet_registry_builtin_v1(void);

/* The bytes of libsnowfleet_registry.so.1 (the same registry.cc, built as the shared library
 * with that SONAME), compiled into the program; size 0 where the build made none. */
extern const unsigned char snowfleet_registry_image[];
extern const size_t snowfleet_registry_image_size;

#ifdef __cplusplus
}
#endif

#endif /* SNOWFLEET_REGISTRY_BUILTIN_H */
