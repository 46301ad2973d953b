# Catch2 2 for the aarch64 cross build of scripts/test/aarch64.sh: the single header from a
# private copy (SNOWFLEET_DIST_INCLUDE), so no host /usr/include reaches a cross compiler.
# Catch.cmake (catch_discover_tests) comes from the host's Catch2 through CMAKE_MODULE_PATH.
if(NOT TARGET Catch2::Catch2)
  add_library(Catch2::Catch2 INTERFACE IMPORTED)
  set_target_properties(Catch2::Catch2 PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${SNOWFLEET_DIST_INCLUDE}")
endif()
set(Catch2_VERSION 2.13.10)
