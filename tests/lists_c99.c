/* lists.h is plain C99: every list expands into C tables with no C++ type in sight (the C ABI
 * and the bindings of other languages build from it). Compiled by the lists_c99 test with
 * -std=c99 -pedantic -Werror; it runs and checks the tables' sizes. */
#include <stdio.h>
#include <string.h>

#include "snowfleet/lists.h"

struct entry {
  const char* name;
  const char* camel;
  const char* kind;
  const char* doc;
};

#define ERROR_ENTRY(e, code, name, category, summary) {#code, name, category, summary},
#define ENTRY(name, camel, kind, doc) {#name, camel, #kind, doc},
#define RECORD(name, camel, kind, init, doc) {#name, camel, #kind, doc},

static const struct entry errors[] = {SNOWFLEET_ERROR_KINDS(ERROR_ENTRY)};
static const struct entry args[] = {SNOWFLEET_GENERATOR_ARGS(ENTRY)};
static const struct entry layout[] = {SNOWFLEET_LAYOUT_FIELDS(ENTRY)};
static const struct entry stats[] = {SNOWFLEET_STATS_FIELDS(RECORD)};
static const struct entry status[] = {SNOWFLEET_STATUS_FIELDS(RECORD)};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int main(void) {
  if (COUNT(errors) != 8 || strcmp(errors[0].name, "INVALID_ARGUMENT") != 0 || COUNT(args) != 9 ||
      COUNT(layout) != 14 || COUNT(stats) != 11 || COUNT(status) != 11 ||
      strcmp(status[0].kind, "BOOL") != 0) {
    fprintf(stderr, "lists.h expanded to unexpected tables\n");
    return 1;
  }
  printf(
      "lists.h: %u error kinds, %u generator arguments, %u layout fields, %u + %u record fields\n",
      (unsigned)COUNT(errors), (unsigned)COUNT(args), (unsigned)COUNT(layout),
      (unsigned)COUNT(stats), (unsigned)COUNT(status));
  return 0;
}
