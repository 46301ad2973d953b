/* A C program is a fleet member like the others: a generator on "local:DIR" leases a node id
 * from the registry every language shares, reports it in its status, and releases it at
 * close. C99, through snowfleet.h alone.
 *   c_local_lease DIR */
#include <snowfleet.h>

#include <stdio.h>
#include <string.h>

static int fail(const char* what, const snowfleet_error* err) {
  printf("FAIL %s: %s\n", what, err ? err->message : "");
  return 1;
}

int main(int argc, char** argv) {
  char source[4096];
  snowfleet_options o;
  snowfleet_generator* a = NULL;
  snowfleet_generator* b = NULL;
  snowfleet_status st;
  snowfleet_error err;
  int64_t ids[100];
  int i;
  if (argc != 2 || strlen(argv[1]) > 4000) return 2;
  sprintf(source, "local:%s", argv[1]);
  snowfleet_options_init(&o);
  o.node_source = source;
  if (snowfleet_generator_new(&o, &a, &err) != SNOWFLEET_OK) return fail("lease a", &err);
  if (snowfleet_generator_new(&o, &b, &err) != SNOWFLEET_OK) return fail("lease b", &err);
  if (snowfleet_generator_next_ids(a, ids, 100, &err) != SNOWFLEET_OK) return fail("next_ids", &err);
  for (i = 1; i < 100; ++i)
    if (ids[i] <= ids[i - 1]) return fail("ids ascend", NULL);
  memset(&st, 0, sizeof st);
  st.size = sizeof st;
  if (snowfleet_generator_status(a, &st, &err) != SNOWFLEET_OK) return fail("status", &err);
  if (!st.healthy || st.lease_state != 1 || st.mark_ms < 0) return fail("status: held, marked", NULL);
  {
    int64_t node_a = st.node_id;
    if (snowfleet_generator_status(b, &st, &err) != SNOWFLEET_OK) return fail("status b", &err);
    if (st.node_id == node_a) return fail("two leases, two node ids", NULL);
    printf("leased nodes %lld and %lld from %s\n", (long long)node_a, (long long)st.node_id, source);
  }
  if (snowfleet_generator_close(a, &err) != SNOWFLEET_OK) return fail("close", &err);
  if (snowfleet_generator_status(a, &st, &err) != SNOWFLEET_OK) return fail("status", &err);
  if (st.lease_state != 4) return fail("released after close", NULL);
  snowfleet_generator_free(a);
  snowfleet_generator_free(b);
  printf("ok\n");
  return 0;
}
