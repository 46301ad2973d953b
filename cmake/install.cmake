# `cmake --install`: the core as a package other projects consume, through
# find_package(snowfleet) (snowfleetConfig.cmake, targets snowfleet::core and
# snowfleet::registry) or pkg-config (snowfleet.pc). tests/install/install_test.sh installs a
# build into a temporary prefix and builds a consumer both ways.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SNOWFLEET_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/snowfleet")

set_target_properties(snowfleet_core PROPERTIES EXPORT_NAME core)
set_target_properties(snowfleet_registry PROPERTIES EXPORT_NAME registry)
# The C interface: libsnowfleet.so.0 (snowfleet::c) finds libsnowfleet_registry.so.1 beside it
# ($ORIGIN); libsnowfleet.a (snowfleet::c_static) holds its objects, on the static core.
set(_sf_targets snowfleet_core snowfleet_registry)
if(TARGET snowfleet_c)
  set_target_properties(snowfleet_c PROPERTIES EXPORT_NAME c)
  set_target_properties(snowfleet_c_static PROPERTIES EXPORT_NAME c_static)
  list(APPEND _sf_targets snowfleet_c snowfleet_c_static)
  install(FILES core/include/snowfleet.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
install(TARGETS ${_sf_targets} EXPORT snowfleetTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY core/include/snowfleet DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT snowfleetTargets NAMESPACE snowfleet:: DESTINATION ${SNOWFLEET_CMAKE_DIR})

if(TARGET snowfleet)
  # The CLI finds libsnowfleet_registry.so.1 in the prefix's library directory.
  file(RELATIVE_PATH _sf_bin_to_lib "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
  set_target_properties(snowfleet PROPERTIES INSTALL_RPATH "$ORIGIN/${_sf_bin_to_lib}")
  install(TARGETS snowfleet RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

configure_package_config_file(cmake/snowfleetConfig.cmake.in
  "${PROJECT_BINARY_DIR}/snowfleetConfig.cmake" INSTALL_DESTINATION ${SNOWFLEET_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/snowfleetConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/snowfleetConfig.cmake"
              "${PROJECT_BINARY_DIR}/snowfleetConfigVersion.cmake"
        DESTINATION ${SNOWFLEET_CMAKE_DIR})

# The static core dlopen()s libcurl for etcd:// (src/lease/etcd/curl_loader.cc): consumers
# link libdl (a part of libc since glibc 2.34), never libcurl.
set(SNOWFLEET_PC_ETCD_LIBS " -ldl")
# The C interface first: a C program's calls resolve in libsnowfleet.so, a C++ program's in
# the static core (the shared library exports only snowfleet_ functions).
set(SNOWFLEET_PC_C_LIBS "")
if(TARGET snowfleet_c)
  set(SNOWFLEET_PC_C_LIBS "-lsnowfleet ")
endif()
file(RELATIVE_PATH SNOWFLEET_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" SNOWFLEET_PC_TO_PREFIX "${SNOWFLEET_PC_TO_PREFIX}")
configure_file(cmake/snowfleet.pc.in "${PROJECT_BINARY_DIR}/snowfleet.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/snowfleet.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
