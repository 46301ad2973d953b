/* A process that loads libsnowfleet.so.0, mints, unloads it and loads it again mints no id
 * twice: the id-space registry, which remembers the last id of every space, stays loaded
 * for the process's life even when no copy of the core uses it any longer.
 * argv[1]: the library's path. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "snowfleet.h"

typedef void (*options_init_fn)(snowfleet_options*);
typedef snowfleet_result (*generator_new_fn)(const snowfleet_options*, snowfleet_generator**,
                                             snowfleet_error*);
typedef snowfleet_result (*next_ids_fn)(snowfleet_generator*, int64_t*, int64_t,
                                        snowfleet_error*);
typedef void (*generator_free_fn)(snowfleet_generator*);

/* Enough ids to run several milliseconds ahead of the clock: a fresh registry would start
 * the second load inside them. */
#define BATCH 100000

static void* symbol(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (p == NULL) {
    fprintf(stderr, "no %s: %s\n", name, dlerror());
    exit(1);
  }
  return p;
}

/* Loads the library, mints n ids of node 37 into out, frees the generator, unloads it. */
static void mint_in_one_load(const char* path, int64_t* out, int64_t n) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    exit(1);
  }
  options_init_fn options_init = (options_init_fn)symbol(lib, "snowfleet_options_init");
  generator_new_fn generator_new = (generator_new_fn)symbol(lib, "snowfleet_generator_new");
  next_ids_fn next_ids = (next_ids_fn)symbol(lib, "snowfleet_generator_next_ids");
  generator_free_fn generator_free = (generator_free_fn)symbol(lib, "snowfleet_generator_free");
  snowfleet_options options;
  options_init(&options);
  options.node_id = 37;
  options.has_node_id = 1;
  options.mode = "monotonic";
  snowfleet_generator* gen = NULL;
  snowfleet_error err;
  if (generator_new(&options, &gen, &err) != 0 || next_ids(gen, out, n, &err) != 0) {
    fprintf(stderr, "minting: %s\n", err.message);
    exit(1);
  }
  generator_free(gen);
  if (dlclose(lib) != 0) {
    fprintf(stderr, "dlclose: %s\n", dlerror());
    exit(1);
  }
}

int main(int argc, char** argv) {
  static int64_t first[BATCH];
  int64_t second;
  if (argc != 2) {
    fprintf(stderr, "usage: %s libsnowfleet.so.0\n", argv[0]);
    return 2;
  }
  mint_in_one_load(argv[1], first, BATCH);
  if (dlopen("libsnowfleet_registry.so.1", RTLD_NOW | RTLD_NOLOAD) == NULL) {
    fprintf(stderr, "libsnowfleet_registry.so.1 was unloaded with the last copy of the core\n");
    return 1;
  }
  mint_in_one_load(argv[1], &second, 1);
  if (second <= first[BATCH - 1]) {
    fprintf(stderr, "the reloaded library minted %lld, not above %lld minted before\n",
            (long long)second, (long long)first[BATCH - 1]);
    return 1;
  }
  printf("reloaded: %lld after %lld\n", (long long)second, (long long)first[BATCH - 1]);
  return 0;
}
