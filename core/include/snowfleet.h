/* snowfleet's C interface: plain C99, for C programs and for other languages' FFI (cgo,
 * Rust). Link with `pkg-config --cflags --libs snowfleet` (libsnowfleet.so.0); docs/c.md.
 *
 * Conventions, the same for every function:
 *   - Every call returns a snowfleet_result: SNOWFLEET_OK (0) or one of the error kinds of
 *     SNOWFLEET_ERROR_KINDS (snowfleet/lists.h), as SNOWFLEET_<CODE> = that kind's index + 1.
 *   - The last argument, `err`, is a snowfleet_error the caller owns (on its stack, say); it
 *     may be NULL. On failure it receives the kind and a UTF-8 message naming the value and
 *     the rule; on success it is left untouched. Nothing is ever allocated for the caller.
 *   - A failed call leaves its outputs as they were (except snowfleet_generator_next_ids'
 *     buffer, see there), issues no id and changes no state a later call sees.
 *   - Text to parse goes in as (text, len): UTF-8 bytes, not NUL-terminated, so Go strings and
 *     Rust &str pass as they are (a C string: strlen(text)); bytes the rule refuses, NUL
 *     included, are refused with the position. Other text (layouts, options) is
 *     NUL-terminated. Text comes out into a caller buffer
 *     `(char* buf, size_t cap)`, always NUL-terminated; a buffer too small is
 *     SNOWFLEET_INVALID_ARGUMENT and nothing is written. The *_TEXT_MAX constants are enough.
 *   - Layouts cross as their text form ("41.10.12@1704067200000", "twitter"); NULL is the
 *     default layout.
 *   - No C++ exception ever leaves this library, and no call aborts on bad input.
 *   - Records the library fills (stats, status, layouts...) and options it reads start with
 *     `size`, which the caller sets to sizeof (the *_init functions do): a program built
 *     against an older, smaller struct keeps working when fields are added at the end. A
 *     struct from a newer header, larger than this library's, is read while its later bytes
 *     are zero and refused (SNOWFLEET_INVALID_ARGUMENT) once one is set, rather than
 *     dropping a field this library does not know; a filled record's size is then the bytes
 *     written.
 *
 * Thread safety: a generator handle may be used from any number of threads at once (every
 * snowfleet_generator_* and snowfleet_uuid7_* call is thread-safe) except snowfleet_*_free,
 * which must be the handle's last use. The free functions (layout, codec, text, time) are
 * pure and thread-safe. A scripted clock is thread-safe.
 *
 * fork(): a generator whose node id was given (node_id, datacenter_id + machine_id,
 * "static:", "env:", "k8s") refuses to mint in a forked child with SNOWFLEET_FORK_DETECTED
 * (the child would repeat the parent's ids); one whose node id is leased ("local", "etcd")
 * claims a node id of its own in the child at its first call. A UUIDv7 generator continues in
 * the child with a fresh state. The free functions are unaffected by fork.
 */
#ifndef SNOWFLEET_H
#define SNOWFLEET_H

#include <stddef.h>
#include <stdint.h>

#include "snowfleet/lists.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results and errors ------------------------------------------------------------------ */

typedef int32_t snowfleet_result;

/* SNOWFLEET_OK, then one constant per error kind, in the list's order. */
enum {
  SNOWFLEET_OK = 0,
#define SNOWFLEET_X_C_RESULT(e, code, name, category, summary) SNOWFLEET_##code,
  SNOWFLEET_ERROR_KINDS(SNOWFLEET_X_C_RESULT)
#undef SNOWFLEET_X_C_RESULT
  SNOWFLEET_RESULT_END /* one past the last kind */
};

#define SNOWFLEET_MESSAGE_MAX 512

/* What a failed call says. The message is UTF-8, NUL-terminated, cut at a character boundary
 * if longer than the buffer. drift_ms: how far ahead of the wall clock the generator ran
 * when a monotonic call was refused (0 otherwise). */
typedef struct snowfleet_error {
  snowfleet_result result;
  int32_t reserved;
  int64_t drift_ms;
  char message[SNOWFLEET_MESSAGE_MAX];
} snowfleet_error;

/* The stable code of a result ("CLOCK_MOVED_BACKWARDS"; "OK" for 0), its class name in the
 * bindings ("ClockMovedBackwards"; "OK") and its category ("clock"; "" for OK). Static
 * strings; NULL for a value outside the list. Thread-safe. */
const char* snowfleet_result_code(snowfleet_result result);
const char* snowfleet_result_name(snowfleet_result result);
const char* snowfleet_result_category(snowfleet_result result);

/* The library's version ("0.1.0"), a static string. Thread-safe. */
const char* snowfleet_version(void);

/* ---- layouts ----------------------------------------------------------------------------- */

#define SNOWFLEET_LAYOUT_TEXT_MAX 64

/* A layout's fields, expanded from SNOWFLEET_LAYOUT_FIELDS, plus its text and preset name
 * ("default", "twitter", "discord" or ""). */
typedef struct snowfleet_layout {
  uint32_t size; /* sizeof(snowfleet_layout): set by the caller */
  int32_t reserved;
  char text[SNOWFLEET_LAYOUT_TEXT_MAX];
  char preset[16];
#define SNOWFLEET_X_C_LAYOUT(name, camel, kind, doc) int64_t name;
  SNOWFLEET_LAYOUT_FIELDS(SNOWFLEET_X_C_LAYOUT)
#undef SNOWFLEET_X_C_LAYOUT
} snowfleet_layout;

/* The six values a layout is created from; each has_* says whether it is given (an absent
 * one takes the core's rule: the default epoch, the node field unsplit, ...). */
typedef struct snowfleet_layout_args {
  uint32_t size; /* sizeof(snowfleet_layout_args) */
  int32_t has_epoch_ms, has_timestamp_bits, has_node_bits, has_datacenter_bits,
      has_machine_bits, has_sequence_bits;
  int32_t reserved;
  int64_t epoch_ms, timestamp_bits, node_bits, datacenter_bits, machine_bits, sequence_bits;
} snowfleet_layout_args;

/* Parses a layout's text ("41.10.12@1704067200000", "41.5.5.12@...", a preset name) and
 * describes it in *out. Thread-safe. */
snowfleet_result snowfleet_layout_parse(const char* text, size_t len, snowfleet_layout* out,
                                        snowfleet_error* err);
/* Creates a layout from its fields and describes it in *out. Thread-safe. */
snowfleet_result snowfleet_layout_create(const snowfleet_layout_args* args,
                                         snowfleet_layout* out, snowfleet_error* err);

/* ---- ids: decode, compose, text forms, ranges, time text --------------------------------- */

typedef struct snowfleet_decoded {
  uint32_t size; /* sizeof(snowfleet_decoded) */
  int32_t reserved;
  int64_t timestamp_ms; /* Unix ms */
  int64_t node_id;
  int64_t datacenter_id;
  int64_t machine_id;
  int64_t sequence;
} snowfleet_decoded;

/* The fields of an id (as a number, or as decimal text). Thread-safe. */
snowfleet_result snowfleet_decode(const char* layout, int64_t id, snowfleet_decoded* out,
                                  snowfleet_error* err);
snowfleet_result snowfleet_decode_text(const char* layout, const char* id_text, size_t len,
                                       snowfleet_decoded* out, snowfleet_error* err);

/* What compose reads: the node as node_id or as datacenter_id + machine_id; an absent
 * sequence is 0. */
typedef struct snowfleet_compose_args {
  uint32_t size; /* sizeof(snowfleet_compose_args) */
  int32_t has_node_id, has_datacenter_id, has_machine_id, has_sequence;
  int32_t reserved;
  int64_t timestamp_ms; /* Unix ms */
  int64_t node_id, datacenter_id, machine_id, sequence;
} snowfleet_compose_args;

/* The id of those fields. Thread-safe. */
snowfleet_result snowfleet_compose(const char* layout, const snowfleet_compose_args* args,
                                   int64_t* out, snowfleet_error* err);
/* The common case: node id and sequence. Thread-safe. */
snowfleet_result snowfleet_compose_node(const char* layout, int64_t timestamp_ms,
                                        int64_t node_id, int64_t sequence, int64_t* out,
                                        snowfleet_error* err);

/* An id's text forms: decimal, base32 (13 characters, Crockford) and base62 (11 characters),
 * each sorting as the ids do. */
typedef enum snowfleet_id_format {
  SNOWFLEET_DECIMAL = 0,
  SNOWFLEET_BASE32 = 1,
  SNOWFLEET_BASE62 = 2,
  /* Parse only: whichever of the three the text is in (all digits: decimal; else 13
   * characters base32, 11 base62). Formatting with it is SNOWFLEET_INVALID_ARGUMENT. */
  SNOWFLEET_ANY = 3
} snowfleet_id_format;
#define SNOWFLEET_ID_TEXT_MAX 24

/* Writes id in that form into buf. Thread-safe. */
snowfleet_result snowfleet_format_id(int64_t id, int32_t format, char* buf, size_t cap,
                                     snowfleet_error* err);
/* Reads an id in that form (strictly: no sign, space or prefix). Thread-safe. */
snowfleet_result snowfleet_parse_id(const char* text, size_t len, int32_t format, int64_t* out,
                                    snowfleet_error* err);

/* The smallest / largest id the layout can give at Unix ms timestamp_ms, and the ids of
 * [start_ms, end_ms] widened by slack_ms on each side (for a WHERE id BETWEEN query).
 * Thread-safe. */
snowfleet_result snowfleet_min_id(const char* layout, int64_t timestamp_ms, int64_t* out,
                                  snowfleet_error* err);
snowfleet_result snowfleet_max_id(const char* layout, int64_t timestamp_ms, int64_t* out,
                                  snowfleet_error* err);
snowfleet_result snowfleet_id_range(const char* layout, int64_t start_ms, int64_t end_ms,
                                    int64_t slack_ms, int64_t* first, int64_t* last,
                                    snowfleet_error* err);

#define SNOWFLEET_TIME_TEXT_MAX 40
/* Unix ms as ISO 8601 UTC text ("2025-01-24T19:35:58.021Z"), and back (RFC 3339 with an
 * offset, or the date alone). Thread-safe. */
snowfleet_result snowfleet_format_time(int64_t unix_ms, char* buf, size_t cap,
                                       snowfleet_error* err);
snowfleet_result snowfleet_parse_time(const char* text, size_t len, int64_t* unix_ms,
                                      snowfleet_error* err);

/* ---- scripted clocks (tests) ------------------------------------------------------------- */

typedef struct snowfleet_clock snowfleet_clock;

/* count readings from ms, step_ms added every `every` readings; the last segment's last
 * reading repeats. */
typedef struct snowfleet_clock_segment {
  int64_t ms, count, step_ms, every;
} snowfleet_clock_segment;

typedef struct snowfleet_clock_counters {
  uint32_t size; /* sizeof(snowfleet_clock_counters) */
  int32_t reserved;
  int64_t reads, sleep_count, slept_ns, max_sleep_ns, min_sleep_ns;
} snowfleet_clock_counters;

/* A clock for deterministic tests: its wall readings follow the script (n segments; n == 0:
 * one reading of 0 ms, repeated), its sleeps take no time. Give it to generators through
 * their options; they keep it alive, so it may be freed while they run. Thread-safe. */
snowfleet_result snowfleet_clock_new(const snowfleet_clock_segment* segments, size_t n,
                                     snowfleet_clock** out, snowfleet_error* err);
/* Every later reading is ms (the script is replaced). Thread-safe. */
snowfleet_result snowfleet_clock_set_wall_ms(snowfleet_clock* clock, int64_t ms,
                                             snowfleet_error* err);
snowfleet_result snowfleet_clock_advance_wall_ms(snowfleet_clock* clock, int64_t delta_ms,
                                                 snowfleet_error* err);
snowfleet_result snowfleet_clock_counters_get(const snowfleet_clock* clock,
                                              snowfleet_clock_counters* out,
                                              snowfleet_error* err);
/* Drops the caller's reference (NULL: nothing). Not concurrently with other calls on it. */
void snowfleet_clock_free(snowfleet_clock* clock);

/* ---- generators -------------------------------------------------------------------------- */

typedef struct snowfleet_generator snowfleet_generator;

/* The generator's arguments, expanded from SNOWFLEET_GENERATOR_ARGS: a number has a has_*
 * flag, text and the clock are absent when NULL. layout is layout text; mode "strict"
 * (default) or "monotonic"; node_source "static:37", "env:VAR", "k8s", "local[:DIR]",
 * "etcd://host:port/prefix". Give exactly one of node_id, datacenter_id + machine_id,
 * node_source. Initialize with snowfleet_options_init. */
#define SNOWFLEET_C_ARG_I64(name) \
  int64_t name;                   \
  int32_t has_##name;             \
  int32_t reserved_##name;
#define SNOWFLEET_C_ARG_F64(name) \
  double name;                    \
  int32_t has_##name;             \
  int32_t reserved_##name;
#define SNOWFLEET_C_ARG_TEXT(name) const char* name;
#define SNOWFLEET_C_ARG_MODE(name) const char* name;
#define SNOWFLEET_C_ARG_LAYOUT(name) const char* name;
#define SNOWFLEET_C_ARG_CLOCK(name) snowfleet_clock* name;
typedef struct snowfleet_options {
  uint32_t size; /* sizeof(snowfleet_options) */
  int32_t reserved;
#define SNOWFLEET_X_C_ARG(name, camel, kind, doc) SNOWFLEET_C_ARG_##kind(name)
  SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_X_C_ARG)
#undef SNOWFLEET_X_C_ARG
} snowfleet_options;

/* Zeroes *options and sets its size. Thread-safe. */
void snowfleet_options_init(snowfleet_options* options);

/* Creates a generator (a leased node source claims its node id here, which may wait for
 * the store). Thread-safe. Fork: a generator created in a child is the child's own. */
snowfleet_result snowfleet_generator_new(const snowfleet_options* options,
                                         snowfleet_generator** out, snowfleet_error* err);

/* One id. Thread-safe. Fork: in a child, a given node id returns SNOWFLEET_FORK_DETECTED, a
 * leased one claims a node id of the child's own first. */
snowfleet_result snowfleet_generator_next_id(snowfleet_generator* gen, int64_t* out,
                                             snowfleet_error* err);
/* n ids, ascending, into out[0..n). n is 0 .. 16,777,216 (checked before anything is
 * written). If a wait fails part-way, the ids already written are skipped, never issued to
 * anyone, and the error is returned: the buffer holds no id of the caller's then.
 * Thread-safe. Fork: as snowfleet_generator_next_id. */
snowfleet_result snowfleet_generator_next_ids(snowfleet_generator* gen, int64_t* out,
                                              int64_t n, snowfleet_error* err);

/* The generator's settings: its layout (text), node id, mode, max_wait_ms, max_drift_ms. */
typedef struct snowfleet_generator_info {
  uint32_t size; /* sizeof(snowfleet_generator_info) */
  int32_t mode;  /* 0 strict, 1 monotonic */
  char layout[SNOWFLEET_LAYOUT_TEXT_MAX];
  int64_t node_id;
  double max_wait_ms;
  int64_t max_drift_ms;
} snowfleet_generator_info;
snowfleet_result snowfleet_generator_info_get(const snowfleet_generator* gen,
                                              snowfleet_generator_info* out,
                                              snowfleet_error* err);

/* Stats and Status, expanded from SNOWFLEET_STATS_FIELDS and SNOWFLEET_STATUS_FIELDS: U64 is
 * uint64_t, I64 int64_t, BOOL/MODE/LEASE_STATE int32_t (mode 0 strict, 1 monotonic; lease
 * state 0 none, 1 held, 2 unconfirmed, 3 lost, 4 released), TEXT a char[256]. */
#define SNOWFLEET_C_FIELD_U64(name) uint64_t name;
#define SNOWFLEET_C_FIELD_I64(name) int64_t name;
#define SNOWFLEET_C_FIELD_BOOL(name) int32_t name;
#define SNOWFLEET_C_FIELD_MODE(name) int32_t name;
#define SNOWFLEET_C_FIELD_LEASE_STATE(name) int32_t name;
#define SNOWFLEET_C_FIELD_TEXT(name) char name[256];
#define SNOWFLEET_X_C_FIELD(name, camel, kind, init, doc) SNOWFLEET_C_FIELD_##kind(name)
typedef struct snowfleet_stats {
  uint32_t size; /* sizeof(snowfleet_stats) */
  int32_t reserved;
  SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_C_FIELD)
} snowfleet_stats;
typedef struct snowfleet_status {
  uint32_t size; /* sizeof(snowfleet_status) */
  int32_t reserved;
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_X_C_FIELD)
} snowfleet_status;
#undef SNOWFLEET_X_C_FIELD

/* Counters, read without stopping minting. Thread-safe, lock-free. Fork: a child reads the
 * counters as they were at fork(). */
snowfleet_result snowfleet_generator_stats(const snowfleet_generator* gen, snowfleet_stats* out,
                                           snowfleet_error* err);
/* Whether a call now would be served, and why not (a service maps !healthy to 503); reads the
 * clock. Thread-safe. Fork: in a child a leased generator claims its node id here, as a call
 * would; one with a given node id reports that it was created before fork(). */
snowfleet_result snowfleet_generator_status(snowfleet_generator* gen, snowfleet_status* out,
                                            snowfleet_error* err);
/* max(0, last issued ms - wall ms). Thread-safe. */
snowfleet_result snowfleet_generator_drift_ms(snowfleet_generator* gen, int64_t* out,
                                              snowfleet_error* err);
/* Stops minting and releases a leased node id (writing its mark); later calls return
 * SNOWFLEET_GENERATOR_CLOSED. Idempotent, thread-safe, waits for calls in flight. Fork: in a
 * child it closes the child's generator only, never the parent's lease. */
snowfleet_result snowfleet_generator_close(snowfleet_generator* gen, snowfleet_error* err);
/* 1 once closed, else 0. Thread-safe. */
int32_t snowfleet_generator_closed(const snowfleet_generator* gen);
/* Closes (if open) and frees the handle (NULL: nothing). The handle's last use: not
 * concurrently with any other call on it. Fork: frees the child's copy only. */
void snowfleet_generator_free(snowfleet_generator* gen);

/* ---- UUIDv7 ------------------------------------------------------------------------------ */

typedef struct snowfleet_uuid7_generator snowfleet_uuid7_generator;

#define SNOWFLEET_UUID_TEXT_MAX 37 /* 36 characters and the NUL */

/* A UUIDv7 generator's options; initialize with snowfleet_uuid7_options_init. random_seed,
 * when given, makes the random bits a fixed sequence (tests only). */
typedef struct snowfleet_uuid7_options {
  uint32_t size; /* sizeof(snowfleet_uuid7_options) */
  int32_t has_max_wait_ms, has_max_drift_ms, has_random_seed;
  const char* mode; /* "strict" (default) or "monotonic" */
  double max_wait_ms;
  int64_t max_drift_ms;
  uint64_t random_seed;
  snowfleet_clock* clock; /* NULL: the system clock */
} snowfleet_uuid7_options;

void snowfleet_uuid7_options_init(snowfleet_uuid7_options* options);
/* Creates a UUIDv7 generator (options may be NULL: the defaults). Thread-safe. */
snowfleet_result snowfleet_uuid7_new(const snowfleet_uuid7_options* options,
                                     snowfleet_uuid7_generator** out, snowfleet_error* err);
/* One UUID: its 16 bytes (network order), or its text. Thread-safe. Fork: in a child the
 * generator continues with a state (and random stream) of its own. */
snowfleet_result snowfleet_uuid7_next(snowfleet_uuid7_generator* gen, uint8_t out[16],
                                      snowfleet_error* err);
snowfleet_result snowfleet_uuid7_next_text(snowfleet_uuid7_generator* gen, char* buf,
                                           size_t cap, snowfleet_error* err);
/* n UUIDs, ascending, into out[0 .. 16 n); a refused call writes none. Thread-safe. */
snowfleet_result snowfleet_uuid7_next_many(snowfleet_uuid7_generator* gen, uint8_t* out,
                                           int64_t n, snowfleet_error* err);
snowfleet_result snowfleet_uuid7_stats(const snowfleet_uuid7_generator* gen,
                                       snowfleet_stats* out, snowfleet_error* err);
snowfleet_result snowfleet_uuid7_status(snowfleet_uuid7_generator* gen, snowfleet_status* out,
                                        snowfleet_error* err);
snowfleet_result snowfleet_uuid7_close(snowfleet_uuid7_generator* gen, snowfleet_error* err);
/* Closes (if open) and frees the handle (NULL: nothing); the handle's last use. */
void snowfleet_uuid7_free(snowfleet_uuid7_generator* gen);

/* The fields of a UUIDv7. */
typedef struct snowfleet_uuid7_fields {
  uint32_t size; /* sizeof(snowfleet_uuid7_fields) */
  int32_t reserved;
  int64_t timestamp_ms; /* Unix ms, 48 bits */
  int64_t counter;      /* 26 bits */
  int64_t random;       /* the 48 random bits below it */
} snowfleet_uuid7_fields;

/* UUID bytes as canonical text; text (the canonical form in either case, or 32 hex digits)
 * as bytes; a UUIDv7's fields. Thread-safe. */
snowfleet_result snowfleet_uuid_format(const uint8_t bytes[16], char* buf, size_t cap,
                                       snowfleet_error* err);
snowfleet_result snowfleet_uuid_parse(const char* text, size_t len, uint8_t out[16],
                                      snowfleet_error* err);
snowfleet_result snowfleet_uuid7_decode(const uint8_t bytes[16], snowfleet_uuid7_fields* out,
                                        snowfleet_error* err);

/* ---- the lists ----------------------------------------------------------------------------- */

/* The index-th field name of a record: "stats", "status", "layout" or "generator" (its
 * arguments); NULL past the end or for another record. Static strings. Thread-safe. */
const char* snowfleet_field_name(const char* record, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* SNOWFLEET_H */
