/* snowfleet.h is C99 and C++: tests/CMakeLists.txt compiles this file as both, with every
 * warning an error. */
#include <snowfleet.h>

int main(void) {
  snowfleet_options o;
  snowfleet_uuid7_options u;
  snowfleet_options_init(&o);
  snowfleet_uuid7_options_init(&u);
  return (int)(sizeof(snowfleet_error) + sizeof(snowfleet_layout) + sizeof(snowfleet_layout_args) +
               sizeof(snowfleet_decoded) + sizeof(snowfleet_compose_args) +
               sizeof(snowfleet_stats) + sizeof(snowfleet_status) +
               sizeof(snowfleet_generator_info) + sizeof(snowfleet_clock_counters) +
               sizeof(snowfleet_uuid7_fields) + sizeof o + sizeof u) == 0;
}
