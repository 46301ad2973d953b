# Builds the Node addon from the core's sources plus the node-addon-api glue, and the
# process's id-space registry (libsnowfleet_registry.so.1, core/src/registry/) beside it:
# the addon finds it through RUNPATH $ORIGIN, and prebuilds carry it next to the .node.
# snowfleet_core_sources must equal SNOWFLEET_CORE_SOURCES in core/CMakeLists.txt;
# node/test/manifest.test.js fails when the two disagree.
#
# The etcd node source ("etcd://...") is compiled in when the machine has the libcurl and
# nlohmann-json headers (node/tools/etcd_probe.js decides; SNOWFLEET_ETCD=AUTO|ON|OFF as
# for CMake); libcurl itself is loaded at run time (core/src/lease/etcd/curl_loader.hpp), never
# linked. Without the headers the addon still builds and "etcd://" raises
# NODE_ID_UNAVAILABLE "built without etcd support".
#
# snowfleet_test_hooks, a second addon with the benchmark's reference rows (a bare N-API
# call, the core's own C++ loop), exists only when SNOWFLEET_TEST_HOOKS=1 at configure time
# (npm run compile:hooks). Its source (node/bench/hooks.cc) is not in the npm tarball, and
# the shipped addon carries no hook.
{
  "variables": {
    "snowfleet_test_hooks%": "<!(node -p \"process.env.SNOWFLEET_TEST_HOOKS === '1' ? 1 : 0\")",
    "snowfleet_core_sources": [
      "core/src/cli/cli.cc",
      "core/src/cli/cli_args.cc",
      "core/src/mint/clock.cc",
      "core/src/ids/codec.cc",
      "core/src/lease/etcd/curl_loader.cc",
      "core/src/lease/etcd/etcd_base64.cc",
      "core/src/lease/etcd/etcd_claim.cc",
      "core/src/lease/etcd/etcd_genesis.cc",
      "core/src/lease/etcd/etcd_http.cc",
      "core/src/lease/etcd/etcd_mark_batch.cc",
      "core/src/lease/etcd/etcd_process_lease.cc",
      "core/src/lease/etcd/etcd_reply.cc",
      "core/src/lease/etcd_spec.cc",
      "core/src/base/errors.cc",
      "core/src/mint/generator.cc",
      "core/src/mint/generator_fork.cc",
      "core/src/mint/generator_status.cc",
      "core/src/mint/id_space.cc",
      "core/src/ids/layout.cc",
      "core/src/lease/local_registry.cc",
      "core/src/mint/mark_keeper.cc",
      "core/src/mint/mint.cc",
      "core/src/mint/mint_slow.cc",
      "core/src/mint/mint_wait.cc",
      "core/src/lease/node_source.cc",
      "core/src/lease/etcd/node_source_etcd.cc",
      "core/src/lease/node_source_local.cc",
      "core/src/mint/options.cc",
      "core/src/base/quote.cc",
      "core/src/uuid/random.cc",
      "core/src/uuid/random_chacha.cc",
      "core/src/ids/range.cc",
      "core/src/mint/scripted_clock.cc",
      "core/src/ids/text_id.cc",
      "core/src/ids/time_text.cc",
      "core/src/uuid/uuid7.cc",
      "core/src/uuid/uuid7_text.cc",
      "core/src/base/version.cc"
    ],
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
        ["snowfleet_etcd==1", {
          "defines": ["SNOWFLEET_HAVE_ETCD=1"],
          "libraries": ["-ldl"]
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
      "ldflags": ["-static-libstdc++", "-static-libgcc", "-Wl,--no-undefined", "-pthread"]
    }
  ],
  "conditions": [
    ["snowfleet_test_hooks==1", {
      "targets": [
        {
          "target_name": "snowfleet_test_hooks",
          "sources": ["<@(snowfleet_core_sources)", "node/bench/hooks.cc"],
          "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
          "cflags_cc": ["-std=c++17", "-O3", "-fvisibility=hidden", "-Wall", "-Wextra"],
          "dependencies": ["snowfleet_registry"],
          "ldflags": ["-Wl,-rpath,'$$ORIGIN'"]
        }
      ]
    }]
  ]
}
