/* The C interface's records from callers built against another version of snowfleet.h, and
 * NULL outputs: a record from a newer caller is read when its extra bytes are zero and
 * refused when they are set (an option this library does not know is never dropped in
 * silence); a filled record's size says how many bytes the library wrote; a call refused for
 * a NULL output issues no id. C99, through snowfleet.h alone. */
#include <snowfleet.h>

#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(const char* what, int ok, const char* detail) {
  printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what, detail ? ": " : "", detail ? detail : "");
  if (!ok) ++failures;
}

/* A newer caller's options: this header's struct with a field after it. */
struct newer_options {
  snowfleet_options known;
  int64_t later_option;
  int32_t has_later_option;
  int32_t reserved;
};

struct newer_stats {
  snowfleet_stats known;
  uint64_t later_counter;
};

static uint64_t issued(snowfleet_generator* gen) {
  snowfleet_stats s;
  snowfleet_error err;
  memset(&s, 0, sizeof s);
  s.size = sizeof s;
  return snowfleet_generator_stats(gen, &s, &err) == SNOWFLEET_OK ? s.ids_issued : 999;
}

int main(void) {
  struct newer_options n;
  struct newer_stats ns;
  snowfleet_uuid7_options u;
  snowfleet_layout_args la;
  snowfleet_layout layout;
  snowfleet_generator* gen = NULL;
  snowfleet_uuid7_generator* ugen = NULL;
  snowfleet_error err;
  snowfleet_result rc;
  int64_t drift = 0;
  uint64_t before = 0;

  memset(&n, 0, sizeof n);
  snowfleet_options_init(&n.known);
  n.known.size = sizeof n;
  n.known.node_id = 3;
  n.known.has_node_id = 1;
  rc = snowfleet_generator_new(&n.known, &gen, &err);
  check("options from a newer caller, later fields zero", rc == SNOWFLEET_OK,
        rc ? err.message : NULL);

  n.later_option = 9;
  n.has_later_option = 1;
  rc = snowfleet_generator_new(&n.known, &gen, &err);
  check("options from a newer caller with a later option set: refused",
        rc == SNOWFLEET_INVALID_ARGUMENT && strstr(err.message, "options->size"), err.message);

  snowfleet_uuid7_options_init(&u);
  {
    unsigned char bigger[sizeof u + 8];
    memset(bigger, 0, sizeof bigger);
    memcpy(bigger, &u, sizeof u);
    ((snowfleet_uuid7_options*)(void*)bigger)->size = sizeof bigger;
    bigger[sizeof u + 3] = 1;
    rc = snowfleet_uuid7_new((snowfleet_uuid7_options*)(void*)bigger, &ugen, &err);
    check("uuid7 options with a later byte set: refused",
          rc == SNOWFLEET_INVALID_ARGUMENT && strstr(err.message, "options->size"), err.message);
  }

  {
    unsigned char bigger[sizeof la + 8];
    memset(bigger, 0, sizeof bigger);
    memset(&la, 0, sizeof la);
    la.size = sizeof bigger;
    memcpy(bigger, &la, sizeof la);
    bigger[sizeof la] = 1;
    layout.size = sizeof layout;
    rc = snowfleet_layout_create((snowfleet_layout_args*)(void*)bigger, &layout, &err);
    check("layout args with a later byte set: refused",
          rc == SNOWFLEET_INVALID_ARGUMENT && strstr(err.message, "args->size"), err.message);
  }

  if (!gen) {
    printf("FAIL no generator\n");
    return 1;
  }
  memset(&ns, 0xAB, sizeof ns);
  ns.known.size = sizeof ns;
  rc = snowfleet_generator_stats(gen, &ns.known, &err);
  check("stats into a newer caller's record: size says what was written",
        rc == SNOWFLEET_OK && ns.known.size == sizeof(snowfleet_stats), NULL);

  rc = snowfleet_generator_next_id(gen, NULL, &err);
  check("next_id with out NULL is refused", rc == SNOWFLEET_INVALID_ARGUMENT, err.message);
  check("... and issues no id", issued(gen) == 0, NULL);
  before = issued(gen);
  rc = snowfleet_generator_next_ids(gen, NULL, 5, &err);
  check("next_ids with out NULL is refused", rc == SNOWFLEET_INVALID_ARGUMENT, err.message);
  check("... and issues no id", issued(gen) == before, NULL);
  check("drift_ms with out NULL is refused",
        snowfleet_generator_drift_ms(gen, NULL, &err) == SNOWFLEET_INVALID_ARGUMENT, NULL);
  check("NULL generator",
        snowfleet_generator_drift_ms(NULL, &drift, &err) == SNOWFLEET_INVALID_ARGUMENT &&
            strstr(err.message, "NULL"),
        err.message);
  snowfleet_generator_free(gen);

  printf("%s\n", failures ? "FAILED" : "records of other sizes and NULL outputs are handled");
  return failures ? 1 : 0;
}
