#!/usr/bin/env bash
# Core tests: conformance vector checks, the Catch2 suite (unit, concurrency, C++
# conformance runner, CLI) in a release build and under ASan+UBSan and TSan, cross-built
# for aarch64 under qemu (scripts/test/aarch64.sh), then the fuzz targets (scripts/test/fuzz.sh).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

# Each suite below runs even when one before it failed, so that one run reports them all;
# the area fails at the end, naming them.
failed_suites=()
suite() {  # suite NAME COMMAND...: runs COMMAND, remembering NAME if it fails
  local name=$1; shift
  if ! "$@"; then failed_suites+=("$name"); echo "core: $name FAILED" >&2; fi
}

section "core: dependencies"
core_deps
pip_install pytest jsonschema lizard

section "conformance: vectors are strict JSON, follow the schema, and are not stale"
python3 conformance/generate.py --check
python3 -m pytest -q conformance/test_vectors.py

section "core: a SNOWFLEET_ETCD=OFF build needs neither libcurl's nor nlohmann-json's headers"
bash scripts/test/check-etcd-off.sh

# The release build builds every target (the benches, the fleet workers and fault probes
# included) and runs ctest one test at a time. The sanitizer builds build only what ctest runs
# (the fleet workers and probes are for scripts/test/fleet.sh) and run two tests at a time:
# most of their ctest time is each test's process starting under the sanitizer, and the
# tests use private temporary directories and ports.
# The sanitizer builds compile at -O1 with line tables (-g1), as sanitizers advise: a report
# still names file and line, and the build takes about half the time of -O2 -g (the core's
# JSON-reading files most of all).
sanitized=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
ctest_targets=(snowfleet_tests snowfleet conformance_c c_errors c_sizes c_local_lease c_reload)
for variant in release asan-ubsan tsan; do
  case $variant in
    release) flags=(-DCMAKE_BUILD_TYPE=Release -DSNOWFLEET_BUILD_BENCH=ON) ;;
    asan-ubsan) flags=("${sanitized[@]}" "-DSNOWFLEET_SANITIZE=address;undefined") ;;
    tsan) flags=("${sanitized[@]}" -DSNOWFLEET_SANITIZE=thread) ;;
  esac
  section "core: $variant build and tests"
  cmake -S . -B "out/$variant" -G Ninja -DSNOWFLEET_BUILD_TESTS=ON "${flags[@]}" >/dev/null
  if [ "$variant" = release ]; then
    cmake --build "out/$variant" >/dev/null
    suite "$variant ctest" bash -c "cd out/$variant && ctest --output-on-failure --timeout 300"
  else
    cmake --build "out/$variant" --target "${ctest_targets[@]}" >/dev/null
    suite "$variant ctest" bash -c "cd out/$variant && ctest --output-on-failure --timeout 300 -j2"
  fi
done

# aarch64 (no TSC: the clock's fallback path): the suite cross-built, run under qemu-user
# (scripts/test/aarch64.sh installs qemu-user and zig itself). On by default: from a clean
# clone it costs 9.5 min of CPU, about 5-7 min on CI's two cores (see test/aarch64.sh);
# SNOWFLEET_AARCH64=0 skips it on a machine that runs the x86_64 suites only.
if [ "${SNOWFLEET_AARCH64:-1}" = 1 ]; then
  suite "aarch64 under qemu" bash scripts/test/aarch64.sh
else
  echo "test-core: aarch64 under qemu skipped (SNOWFLEET_AARCH64=0)"
fi

# libFuzzer targets for every text the core reads from outside, 20 s each (clang-14).
suite "fuzz" bash scripts/test/fuzz.sh

if [ ${#failed_suites[@]} -gt 0 ]; then
  printf 'core suites FAILED: %s\n' "${failed_suites[*]}" >&2
  exit 1
fi
