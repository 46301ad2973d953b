# Builds the Node addon from the core's sources plus the node-addon-api glue, and the
# process's id-space registry (libsnowfleet_registry.so.1, core/src/registry/) beside it:
# the addon finds it through RUNPATH $ORIGIN, and prebuilds carry it next to the .node.
# The core's sources are core/sources.txt's lists, the file CMake builds from too
# (node/tools/core_sources.js prints one list).
#
# The etcd node source ("etcd://...", the [etcd] list) is compiled in when the machine has
# the libcurl and nlohmann-json headers (node/tools/etcd_probe.js decides;
# SNOWFLEET_ETCD=AUTO|ON|OFF as for CMake); libcurl itself is loaded at run time
# (core/src/lease/etcd/curl_loader.hpp), never linked. Without the headers the addon builds
# the [no-etcd] list instead and "etcd://" raises NODE_ID_UNAVAILABLE "built without etcd
# support".
#
# Each addon exports only the N-API entry points (bindings/node/exports.map).
#
# snowfleet_test_hooks, a second addon with the benchmark's reference rows (a bare N-API
# call, the core's own C++ loop), exists only when SNOWFLEET_TEST_HOOKS=1 at configure time
# (npm run compile:hooks). Its source (node/bench/hooks.cc) is not in the npm tarball, and
# the shipped addon carries no hook.
{
  "variables": {
    "snowfleet_test_hooks%": "<!(node -p \"process.env.SNOWFLEET_TEST_HOOKS === '1' ? 1 : 0\")",
    "snowfleet_core_sources": ["<!@(node node/tools/core_sources.js core)"],
    "snowfleet_etcd_sources": ["<!@(node node/tools/core_sources.js etcd)"],
    "snowfleet_no_etcd_sources": ["<!@(node node/tools/core_sources.js no-etcd)"],
    "snowfleet_version": "<!(node -p \"require('fs').readFileSync('VERSION', 'utf8').trim()\")"
  },
  "target_defaults": {
    "include_dirs": [
      "<!(node -p \"require('node-addon-api').include_dir\")",
      "core/include",
      "core/src"
    ],
    "defines": ["NAPI_VERSION=8", "SNOWFLEET_VERSION=<(snowfleet_version)"],
    "cflags!": ["-fno-exceptions", "-fno-rtti"],
    "cflags_cc!": ["-std=gnu++17", "-std=gnu++20"],
    "xcode_settings": {
      "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
      "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
      "MACOSX_DEPLOYMENT_TARGET": "10.15"
    }
  },
  "targets": [
    {
      "target_name": "snowfleet",
      "variables": {
        "snowfleet_etcd%": "<!(node node/tools/etcd_probe.js)"
      },
      "sources": [
        "<@(snowfleet_core_sources)",
        "bindings/node/addon.cc",
        "bindings/node/clock.cc",
        "bindings/node/codec.cc",
        "bindings/node/generator.cc",
        "bindings/node/text_range.cc",
        "bindings/node/uuid7.cc"
      ],
      "defines": [
        "NAPI_CPP_EXCEPTIONS",
        "NODE_ADDON_API_DISABLE_DEPRECATED",
        "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"
      ],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-O3", "-fvisibility=hidden", "-Wall", "-Wextra"],
      "dependencies": ["snowfleet_registry"],
      "ldflags": ["-Wl,-rpath,'$$ORIGIN'"],
      "conditions": [
        ["OS=='linux'", {
          "ldflags": ["-Wl,--version-script=<(module_root_dir)/bindings/node/exports.map"]
        }],
        ["snowfleet_etcd==1", {
          "sources": ["<@(snowfleet_etcd_sources)"],
          "libraries": ["-ldl"]
        }, {
          "sources": ["<@(snowfleet_no_etcd_sources)"]
        }]
      ]
    },
    {
      "target_name": "snowfleet_registry",
      "type": "shared_library",
      "product_prefix": "lib",
      "product_name": "snowfleet_registry",
      "product_extension": "so.1",
      "product_dir": "<(PRODUCT_DIR)",
      "sources": ["core/src/registry/registry.cc"],
      "cflags_cc": ["-std=c++17", "-O2", "-fvisibility=hidden", "-fno-exceptions", "-fno-rtti",
                    "-Wall", "-Wextra"],
      "ldflags": ["-static-libstdc++", "-static-libgcc", "-Wl,--no-undefined", "-pthread",
                  "-Wl,-z,nodelete"]
    }
  ],
  "conditions": [
    ["snowfleet_test_hooks==1", {
      "targets": [
        {
          "target_name": "snowfleet_test_hooks",
          "sources": ["<@(snowfleet_core_sources)", "<@(snowfleet_no_etcd_sources)",
                      "node/bench/hooks.cc"],
          "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
          "cflags_cc": ["-std=c++17", "-O3", "-fvisibility=hidden", "-Wall", "-Wextra"],
          "dependencies": ["snowfleet_registry"],
          "ldflags": ["-Wl,-rpath,'$$ORIGIN'"],
          "conditions": [
            ["OS=='linux'", {
              "ldflags": ["-Wl,--version-script=<(module_root_dir)/bindings/node/exports.map"]
            }]
          ]
        }
      ]
    }]
  ]
}
