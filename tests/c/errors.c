/* Every error kind a C program can provoke arrives as its result, with a message and
 * nothing changed; a NULL or a short buffer is SNOWFLEET_INVALID_ARGUMENT, never a crash.
 * C99, through snowfleet.h alone. (LEASE_LOST and INTERNAL need a failing store or system:
 * tests/c/test_capi_guard.cc maps every kind at the boundary.) */
#define _POSIX_C_SOURCE 200809L
#include <snowfleet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures = 0;

static void expect(const char* what, snowfleet_result got, snowfleet_result want,
                   const snowfleet_error* err, const char* needle) {
  if (got != want) {
    printf("FAIL %s: got %s, expected %s (%s)\n", what, snowfleet_result_code(got),
           snowfleet_result_code(want), got ? err->message : "");
    ++failures;
  } else if (want != SNOWFLEET_OK && (err->result != want || !strstr(err->message, needle))) {
    printf("FAIL %s: message '%s' lacks '%s'\n", what, err->message, needle);
    ++failures;
  } else {
    printf("ok   %s: %s%s%s\n", what, snowfleet_result_code(got), want ? ": " : "",
           want ? err->message : "");
  }
}

static snowfleet_generator* scripted(snowfleet_clock* clock, int64_t node_id) {
  snowfleet_options o;
  snowfleet_generator* gen = NULL;
  snowfleet_error err;
  snowfleet_options_init(&o);
  o.node_id = node_id;
  o.has_node_id = 1;
  o.clock = clock;
  if (snowfleet_generator_new(&o, &gen, &err) != SNOWFLEET_OK) {
    printf("FAIL generator: %s\n", err.message);
    exit(1);
  }
  return gen;
}

int main(void) {
  snowfleet_error err;
  snowfleet_options o;
  snowfleet_generator* gen = NULL;
  snowfleet_clock* clock = NULL;
  snowfleet_clock_segment at = {1737747358021, 1, 0, 1};
  int64_t id = 0, before = 0;
  char small[4];
  int status = 0;
  pid_t child;
  snowfleet_stats stats;

  /* the kinds are the list's, in its order, after OK */
  expect("codes", strcmp(snowfleet_result_code(SNOWFLEET_CLOCK_MOVED_BACKWARDS),
                         "CLOCK_MOVED_BACKWARDS") == 0 && snowfleet_result_code(SNOWFLEET_RESULT_END) == NULL
                      ? SNOWFLEET_OK : SNOWFLEET_INTERNAL,
         SNOWFLEET_OK, &err, "");

  snowfleet_options_init(&o);
  o.node_id = 1024;
  o.has_node_id = 1;
  gen = (snowfleet_generator*)&err; /* must stay untouched on failure */
  expect("node_id 1024", snowfleet_generator_new(&o, &gen, &err), SNOWFLEET_INVALID_ARGUMENT,
         &err, "1024");
  if (gen != (snowfleet_generator*)&err) {
    printf("FAIL a refused generator_new wrote *out\n");
    ++failures;
  }
  o.node_id = 1;
  o.mode = "fast";
  expect("mode fast", snowfleet_generator_new(&o, &gen, &err), SNOWFLEET_INVALID_ARGUMENT, &err,
         "fast");
  expect("NULL options", snowfleet_generator_new(NULL, &gen, &err), SNOWFLEET_INVALID_ARGUMENT,
         &err, "options");
  expect("options without size", snowfleet_generator_new((snowfleet_options*)small, &gen, &err),
         SNOWFLEET_INVALID_ARGUMENT, &err, "size");
  expect("compose before the epoch", snowfleet_compose_node(NULL, 0, 1, 0, &id, &err),
         SNOWFLEET_TIMESTAMP_OUT_OF_RANGE, &err, "timestamp_ms");
  expect("base62 into 4 bytes", snowfleet_format_id(1, SNOWFLEET_BASE62, small, sizeof small, &err),
         SNOWFLEET_INVALID_ARGUMENT, &err, "12 are needed");
  expect("parse NULL", snowfleet_parse_id(NULL, 3, SNOWFLEET_DECIMAL, &id, &err),
         SNOWFLEET_INVALID_ARGUMENT, &err, "NULL");
  expect("format 7", snowfleet_format_id(1, 7, small, sizeof small, &err),
         SNOWFLEET_INVALID_ARGUMENT, &err, "format 7");

  if (snowfleet_clock_new(&at, 1, &clock, &err) != SNOWFLEET_OK) return 1;
  gen = scripted(clock, 5);
  expect("next_id", snowfleet_generator_next_id(gen, &before, &err), SNOWFLEET_OK, &err, "");
  snowfleet_clock_set_wall_ms(clock, at.ms - 100, &err);
  expect("a 100 ms rewind", snowfleet_generator_next_id(gen, &id, &err),
         SNOWFLEET_CLOCK_MOVED_BACKWARDS, &err, "100");
  expect("next_ids -1", snowfleet_generator_next_ids(gen, &id, -1, &err),
         SNOWFLEET_INVALID_ARGUMENT, &err, "-1");
  memset(&stats, 0, sizeof stats);
  stats.size = sizeof stats;
  snowfleet_generator_stats(gen, &stats, &err);
  if (stats.ids_issued != 1) {
    printf("FAIL refused calls issued ids: %llu\n", (unsigned long long)stats.ids_issued);
    ++failures;
  }
  snowfleet_clock_set_wall_ms(clock, at.ms + 1, &err);

  fflush(stdout);
  child = fork();
  if (child == 0) {
    snowfleet_result r = snowfleet_generator_next_id(gen, &id, &err);
    _exit(r == SNOWFLEET_FORK_DETECTED && strstr(err.message, "fork") ? 0 : 1);
  }
  waitpid(child, &status, 0);
  expect("next_id in a forked child",
         WIFEXITED(status) && WEXITSTATUS(status) == 0 ? SNOWFLEET_OK : SNOWFLEET_INTERNAL,
         SNOWFLEET_OK, &err, "");

  expect("close", snowfleet_generator_close(gen, &err), SNOWFLEET_OK, &err, "");
  expect("next_id after close", snowfleet_generator_next_id(gen, &id, &err),
         SNOWFLEET_GENERATOR_CLOSED, &err, "closed");
  snowfleet_generator_free(gen);
  snowfleet_clock_free(clock);

  snowfleet_options_init(&o);
  o.node_source = "env:SNOWFLEET_C_TEST_UNSET_VARIABLE";
  unsetenv("SNOWFLEET_C_TEST_UNSET_VARIABLE");
  expect("an unset env: node source", snowfleet_generator_new(&o, &gen, &err),
         SNOWFLEET_NODE_ID_UNAVAILABLE, &err, "SNOWFLEET_C_TEST_UNSET_VARIABLE");

  /* a path that is not UTF-8 (the registry directory's message does not quote it) */
  snowfleet_options_init(&o);
  o.node_source = "local:/proc/snowfleet-\xff\xfe";
  expect("a message naming a path that is not UTF-8 is UTF-8",
         snowfleet_generator_new(&o, &gen, &err), SNOWFLEET_NODE_ID_UNAVAILABLE, &err,
         "snowfleet-\\xff\\xfe");
  if (strchr(err.message, '\xff')) {
    printf("FAIL the message holds the byte 0xff itself\n");
    ++failures;
  }

  printf("%s\n", failures ? "FAILED" : "every error kind arrived as its result");
  return failures ? 1 : 0;
}
