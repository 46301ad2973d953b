// The lists of lists.h as tables (FieldInfo), for bindings, tests and tools that list them.
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

#define SNOWFLEET_X_INFO(name, camel, kind, doc) {#name, camel, #kind, doc},
#define SNOWFLEET_X_RECORD(name, camel, kind, init, doc) {#name, camel, #kind, doc},

const std::vector<FieldInfo>& stats_fields() {
  static const std::vector<FieldInfo> fields{SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_RECORD)};
  return fields;
}

const std::vector<FieldInfo>& status_fields() {
  static const std::vector<FieldInfo> fields{SNOWFLEET_STATUS_FIELDS(SNOWFLEET_X_RECORD)};
  return fields;
}

const std::vector<FieldInfo>& generator_arg_fields() {
  static const std::vector<FieldInfo> fields{SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_X_INFO)};
  return fields;
}

const std::vector<FieldInfo>& layout_fields() {
  static const std::vector<FieldInfo> fields{SNOWFLEET_LAYOUT_FIELDS(SNOWFLEET_X_INFO)};
  return fields;
}

#undef SNOWFLEET_X_RECORD
#undef SNOWFLEET_X_INFO

}  // namespace snowfleet
