#!/usr/bin/env bash
# Runs the id benchmarks (C++, Python, Node, Java; UUIDv7 too) with short repetition counts, each with
# --json into out/bench/, then bench/chart.py, which writes docs/performance.json (the run's
# figures, machine, date and load, and each target row's ratio), docs/performance.svg (the
# chart), the chart's table in docs/performance.md and the summary in README.md. Builds what each bench needs first, as the area scripts do.
#
#   bash scripts/bench/chart.sh
#
# SNOWFLEET_BENCH_REPS (default 3): repetitions of the C++ bench, rounds of the Python bench,
# reps of the Node bench; the Java paired bench runs 3 JVM forks x (10 x that / 3) rounds of
# 20 ms slices (a JNI call's cost moves by a few ns from one JVM to the next, so one fork's
# figure is one draw of that). The human output of each bench is kept in out/bench/<language>.txt.
# SNOWFLEET_BENCH_BUILT=1 skips the builds and runs what out/release, out/bench-venv,
# build/Release and java/target hold (only when they are built from this checkout).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ROOT="$(repo_root)"
cd "$ROOT"
REPS="${SNOWFLEET_BENCH_REPS:-3}"
OUT="$ROOT/out/bench"
rm -rf "$OUT"
mkdir -p "$OUT"
date -u +%Y-%m-%dT%H:%MZ >"$OUT/started"
cp /proc/loadavg "$OUT/loadavg-0-start"
quiet() { "$@" >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 1; }; }
build() { [[ "${SNOWFLEET_BENCH_BUILT:-0}" == 1 ]] || quiet "$@"; }

section "C++: build the bench (out/release), bench/run.py --repetitions $REPS"
[[ "${SNOWFLEET_BENCH_BUILT:-0}" == 1 ]] || core_deps
build cmake -S . -B out/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSNOWFLEET_BUILD_BENCH=ON
build cmake --build out/release --target snowfleet_bench snowfleet_count_instructions
# bench/run.py counts instructions per call under callgrind.
command -v valgrind >/dev/null 2>&1 || apt_install valgrind
python3 bench/run.py --repetitions "$REPS" --json "$OUT/cpp.json" | tee "$OUT/cpp.txt"
cp /proc/loadavg "$OUT/loadavg-1-cpp"

section "Python: pip install . (with the test hooks) into out/bench-venv, bench.py and bench_uuid7.py"
[[ -x out/bench-venv/bin/python ]] || python3 -m venv out/bench-venv
# A build directory of its own, so a second run rebuilds only what changed.
build out/bench-venv/bin/pip install --disable-pip-version-check -Cbuild-dir=out/bench-pybuild \
  -Ccmake.define.SNOWFLEET_PYTHON_TEST_HOOKS=ON . snowflake-id uuid-utils uuid6
out/bench-venv/bin/python python/bench/bench.py --rounds "$REPS" --json "$OUT/python.json" |
  tee "$OUT/python.txt"
out/bench-venv/bin/python python/bench/bench_uuid7.py --rounds "$REPS" \
  --json "$OUT/python-uuid7.json" | tee "$OUT/python-uuid7.txt"
cp /proc/loadavg "$OUT/loadavg-2-python"

section "Node: npm ci, npm run compile:hooks, bench.js and bench_uuid7.js --reps $REPS"
if [ -z "${npm_config_nodedir:-}" ]; then  # node-gyp must not download headers (scripts/test/node.sh)
  prefix=$(node -p 'path.dirname(path.dirname(process.execPath))')
  [ -f "$prefix/include/node/node_api.h" ] || { apt_install libnode-dev; prefix=/usr; }
  export npm_config_nodedir="$prefix"
fi
export npm_config_audit=false npm_config_fund=false
build npm ci --ignore-scripts
build npm run compile:hooks
node node/bench/bench.js --reps "$REPS" --json "$OUT/node.json" | tee "$OUT/node.txt"
node node/bench/bench_uuid7.js --reps "$REPS" --json "$OUT/node-uuid7.json" | tee "$OUT/node-uuid7.txt"
cp /proc/loadavg "$OUT/loadavg-3-node"

rounds=$((REPS * 10 / 3))
section "Java: scripts/bench/java.sh paired, 3 forks x $rounds rounds x 20 ms"
# The JDK, Maven and SWIG on a fresh machine (java.sh builds the jar with them).
build bash scripts/test/java.sh --install-only
bash scripts/bench/java.sh paired --json "$OUT/java.json" 3 "$rounds" 20 | tee "$OUT/java.txt"
cp /proc/loadavg "$OUT/loadavg-4-java"

section "chart"
python3 bench/chart.py --from-dir "$OUT" --markdown docs/performance.md --summary README.md
