#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang + ASan + UBSan) and runs each on its
# committed seed corpus for a fixed time; fails on any finding. Part of scripts/test/core.sh.
#   bash scripts/test/fuzz.sh                  # every target, 20 s each
#   bash scripts/test/fuzz.sh time layout      # some targets
#   SNOWFLEET_FUZZ_SECONDS=300 bash scripts/test/fuzz.sh
# Environment: SNOWFLEET_FUZZ_SECONDS (per target, default 20), SNOWFLEET_FUZZ_JOBS (targets
# run at once, default 2). New inputs go to out/fuzz/corpus/<target> (never into the
# committed corpus); a finding is saved as out/fuzz/findings/<target>-crash-<sha1>.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

seconds=${SNOWFLEET_FUZZ_SECONDS:-20}
jobs=${SNOWFLEET_FUZZ_JOBS:-2}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(layout id time node_source mark text_id etcd_reply kube)

section "fuzz: dependencies"
# clang-14 is the compiler; libclang-rt-14-dev holds libFuzzer and the sanitizer runtimes.
# libcurl and nlohmann-json turn on the etcd node source, whose replies are fuzzed.
apt_install clang-14 libclang-rt-14-dev cmake ninja-build libcurl4-openssl-dev nlohmann-json3-dev

section "fuzz: build (clang-14, -fsanitize=fuzzer,address,undefined)"
build=out/fuzz
CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSNOWFLEET_BUILD_FUZZ=ON -DSNOWFLEET_ETCD=ON -DSNOWFLEET_BUILD_CLI=OFF >/dev/null
cmake --build "$build" --target "${targets[@]/#/fuzz_}" >/dev/null

section "fuzz: ${targets[*]} for ${seconds} s each, $jobs at a time"
mkdir -p "$build/findings" "$build/logs"
run_one() {
  local t=$1 extra=()
  [ -f "tests/fuzz/$t.dict" ] && extra+=("-dict=tests/fuzz/$t.dict")
  mkdir -p "$build/corpus/$t"
  # The first corpus directory receives new inputs; the committed seeds are only read.
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$t-" "${extra[@]}" \
    "$build/corpus/$t" "tests/fuzz/corpus/$t" >"$build/logs/$t.log" 2>&1
}
declare -A pid_of=()
failed=()
finish() {  # waits for target $1 and reports it
  local t=$1
  if wait "${pid_of[$t]}"; then
    printf '%-12s ok   %s\n' "$t" "$(grep -o 'stat::number_of_executed_units: [0-9]*' \
      "$build/logs/$t.log" | grep -o '[0-9]*$') runs"
  else
    failed+=("$t")
    printf '%-12s FAIL (log: %s)\n' "$t" "$build/logs/$t.log"
    grep -E -m3 'property failed|runtime error|ERROR: (AddressSanitizer|libFuzzer)' \
      "$build/logs/$t.log" | sed 's/^/    /' || true
    grep -E -m1 'Test unit written to' "$build/logs/$t.log" | sed 's/^/    /' || true
  fi
}
running=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pid_of[$t]=$!
  running+=("$t")
  if [ ${#running[@]} -ge "$jobs" ]; then
    finish "${running[0]}"
    running=("${running[@]:1}")
  fi
done
for t in "${running[@]}"; do finish "$t"; done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz findings in: ${failed[*]}" >&2
  echo "reproduce: $build/tests/fuzz/fuzz_<target> $build/findings/<target>-crash-...;" \
    "fix the core, add a Catch2 regression test and copy the input into" \
    "tests/fuzz/corpus/<target>/ (see tests/fuzz/README.md)" >&2
  exit 1
fi
echo "fuzz: no findings"
