# Builds the Node addon from the core's sources plus the node-addon-api glue, and the
# process's id-space registry (libsnowfleet_registry.so.1, core/src/registry/) beside it:
# the addon finds it through RUNPATH $ORIGIN, and prebuilds carry it next to the .node.
# snowfleet_core_sources must equal SNOWFLEET_CORE_SOURCES in core/CMakeLists.txt;
# node/test/manifest.test.js fails when the two disagree.
#
# The etcd node source ("etcd://...") is compiled in when the machine has the libcurl and
# nlohmann-json headers (node/tools/etcd_probe.js decides; SNOWFLEET_ETCD=AUTO|ON|OFF as
# for CMake); libcurl itself is loaded at run time (core/src/curl_loader.hpp), never
# linked. Without the headers the addon still builds and "etcd://" raises
# NODE_ID_UNAVAILABLE "built without etcd support".
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
    "snowfleet_core_sources": [
      "core/src/cli.cc",
      "core/src/cli_args.cc",
      "core/src/clock.cc",
      "core/src/codec.cc",
      "core/src/curl_loader.cc",
      "core/src/etcd_base64.cc",
      "core/src/etcd_claim.cc",
      "core/src/etcd_genesis.cc",
      "core/src/etcd_http.cc",
      "core/src/etcd_mark_batch.cc",
      "core/src/etcd_process_lease.cc",
      "core/src/etcd_reply.cc",
      "core/src/etcd_spec.cc",
      "core/src/errors.cc",
      "core/src/generator.cc",
      "core/src/generator_fork.cc",
      "core/src/generator_status.cc",
      "core/src/id_space.cc",
      "core/src/layout.cc",
      "core/src/local_registry.cc",
      "core/src/mark_keeper.cc",
      "core/src/mint.cc",
      "core/src/mint_slow.cc",
      "core/src/mint_wait.cc",
      "core/src/node_source.cc",
      "core/src/node_source_etcd.cc",
      "core/src/node_source_local.cc",
      "core/src/options.cc",
      "core/src/quote.cc",
      "core/src/random.cc",
      "core/src/random_chacha.cc",
      "core/src/range.cc",
      "core/src/scripted_clock.cc",
      "core/src/text_id.cc",
      "core/src/time_text.cc",
      "core/src/uuid7.cc",
      "core/src/uuid7_text.cc",
      "core/src/version.cc"
    ],
    "snowfleet_version": "<!(node -p \"require('fs').readFileSync('VERSION', 'utf8').trim()\")"
  },
  "target_defaults": {
    "include_dirs": [
      "<!(node -p \"require('node-addon-api').include_dir\")",
      "core/include"
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
