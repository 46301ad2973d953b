#include "snowfleet/version.hpp"

// Each build system passes the contents of VERSION as a bare token (-DSNOWFLEET_VERSION=0.1.0):
// stringizing it here spares every build system its own quoting rules for a string define.
#ifndef SNOWFLEET_VERSION
#error "SNOWFLEET_VERSION must be defined by the build (the contents of the VERSION file)"
#endif
#define SNOWFLEET_STRINGIZE_(x) #x
#define SNOWFLEET_STRINGIZE(x) SNOWFLEET_STRINGIZE_(x)

namespace snowfleet {

const char* version() noexcept { return SNOWFLEET_STRINGIZE(SNOWFLEET_VERSION); }

}  // namespace snowfleet
