/* The id-space registry: which id spaces the generators of this process use, and the one
 * state word of each. It lives in its own small shared library, libsnowfleet_registry.so.1,
 * which every copy of the core links (the Python extension, the Node addon, each Java class
 * loader's JNI library, the CLI). The dynamic linker loads a library once per process per
 * SONAME, so however many copies of the core a process holds, they all see one registry,
 * and two generators whose ids occupy the same bits mint from one word wherever they live.
 *
 * A stable C ABI: copies of different snowfleet releases may meet in one process and use
 * whichever registry was loaded first. Grow it only by appending to snowfleet_registry_api
 * (callers check `size`); change meaning only with a new SONAME and entry point. */
#ifndef SNOWFLEET_REGISTRY_ABI_H
#define SNOWFLEET_REGISTRY_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What makes two generators' ids collide: ids are (elapsed ms since `epoch_ms`) <<
 * `timestamp_shift` | low bits, where one generator's low bits run over
 * [low_first, low_last] (its node << sequence_bits up to that | max sequence). Two
 * generators of one time source, epoch and shift whose low ranges overlap can mint the
 * same id in the same millisecond. Spaces of different time sources never meet: a
 * scripted clock's ids are a world of their own. */
typedef struct snowfleet_space {
  /* 0: real time (the system clock, and any clock that reads it); otherwise an opaque
   * identity of a clock with a time of its own (a scripted test clock). The low bit set:
   * the UUIDv7 generators of that time, whose values never equal a Snowflake id. */
  uint64_t time_source;
  int64_t epoch_ms;
  int32_t timestamp_shift;
  int32_t sequence_bits;
  int64_t low_first;
  int64_t low_last;
  /* Non-zero for a leased node id: no other generator may have this space open. */
  int32_t exclusive;
  int32_t reserved;
} snowfleet_space;

/* A state word: the packed (elapsed_ms << sequence_bits | sequence) of the last id issued in
 * a space, -1 before the first. Accessed only atomically; alone on its cache line.
 *
 * `bias` lets one thread mint on the word with a plain load and store instead of a
 * compare-and-swap: it is SNOWFLEET_BIAS_UNSET (any minting thread may take it),
 * SNOWFLEET_BIAS_REVOKED (every writer uses an atomic read-modify-write, for good),
 * SNOWFLEET_BIAS_REVOKING, or the owning thread's pointer. The owner sets `busy` to 1,
 * then re-reads `bias`, before its plain store, and back to 0 after it; every other
 * writer first makes sure `bias` is REVOKED or its own (unbias() below), which waits for
 * the owner's store to finish. Registries whose `size` ends before `unbias` leave both
 * fields uninitialised: then nobody owns. */
typedef struct snowfleet_word {
#ifdef __cplusplus
  alignas(64)
#else
  _Alignas(64)
#endif
      int64_t value;
  int64_t refs; /* registry-internal */
  uint64_t bias;
  uint64_t busy;
} snowfleet_word;

#define SNOWFLEET_BIAS_REVOKED 1u
#define SNOWFLEET_BIAS_UNSET 2u
#define SNOWFLEET_BIAS_REVOKING 3u

typedef struct snowfleet_slot snowfleet_slot; /* one open of a space (opaque) */

typedef struct snowfleet_registry_api {
  uint32_t abi_version; /* 1 */
  uint32_t size;        /* sizeof(snowfleet_registry_api) of the loaded registry */

  /* Opens `space` for one generator. On success returns 0, *slot and *word (a reference,
   * dropped by release_word). If another generator's space is open and overlaps this one
   * but cannot share its word (another sequence width or node range, or either side
   * exclusive), returns 1 and writes that generator's description into `why`.
   * Returns 2 when memory runs out. `description` (copied, at most 159 bytes kept) names
   * this generator in other generators' refusals. A space whose earlier generators are all
   * closed continues from their last word: nothing minted before is minted again. */
  int (*open)(const snowfleet_space* space, const char* description, snowfleet_slot** slot,
              snowfleet_word** word, char* why, size_t why_size);
  /* The generator of `slot` is closed: it no longer counts as open. With retire != 0 the
   * space continues from `final_value` in a fresh word, and the closing generator keeps
   * the old one for itself (it may hold a sentinel that in-flight calls must see). */
  void (*close)(snowfleet_slot* slot, int retire, int64_t final_value);
  /* Drops the reference open() returned with the word. */
  void (*release_word)(snowfleet_word* word);
  /* A clock with a time of its own is gone: forget its spaces. */
  void (*forget_time_source)(uint64_t time_source);
  /* Spaces remembered, open or not (tests: memory stays flat over generator lifetimes). */
  size_t (*space_count)(void);
  /* 1 when open(space) would be refused now (an open generator overlaps it and cannot
   * share), else 0; changes nothing. Lets a lease claim skip a slot the process uses. */
  int (*would_conflict)(const snowfleet_space* space);
  /* Takes `word` from its owning thread for good (see snowfleet_word): returns once its
   * bias is SNOWFLEET_BIAS_REVOKED and no owner's store is in flight. Waits only for an
   * owner inside one call; the owner itself may call it, but not from inside one. */
  void (*unbias)(snowfleet_word* word);
} snowfleet_registry_api;

/* In a child forked after the registry was loaded, no space counts as open: the generators
 * the child inherited refuse to mint (FORK_DETECTED) and must not call close() there. The
 * words keep their values, so the child's own generators continue after the parent's. */

/* The registry of this process. */
const snowfleet_registry_api* snowfleet_registry_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* SNOWFLEET_REGISTRY_ABI_H */
