# nlohmann-json for the cross builds of scripts/dist/build.sh: the header only, from a private copy
# (SNOWFLEET_DIST_INCLUDE), so no host /usr/include reaches a cross compiler.
if(NOT TARGET nlohmann_json::nlohmann_json)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${SNOWFLEET_DIST_INCLUDE}")
endif()
set(nlohmann_json_VERSION 3.11.2)
