#!/usr/bin/env bash
# Every test of the project, on a fresh Debian 12 machine (run as root or with sudo):
# installs what it needs, builds each package the way a user would, runs each suite.
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh core node  # some areas (core python node java go rust frameworks sql fleet)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# One compiler cache for the run: several areas compile the core's sources with the same
# compiler and flags (the release build and go/build-native.sh; the Rust crate's build
# script in the rust area and again for the fleet area's release build), and ccache
# compiles each such file once. CMake reads the launcher from the environment; the cc
# crate takes a wrapper in HOST_CXX (the host's C++ compiler when not cross-compiling).
# SNOWFLEET_CCACHE=0 turns it off.
if [ "${SNOWFLEET_CCACHE:-1}" = 1 ]; then
  apt_install ccache
  export CCACHE_DIR="${CCACHE_DIR:-$(repo_root)/out/ccache}"
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export HOST_CXX="ccache ${CXX:-c++}"
  ccache --zero-stats >/dev/null
fi
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=(core python node java go rust frameworks sql fleet)
passed=() failed=() times=()
# Each area's output also goes to a log, so that a failure's cause can be repeated at the
# end of the run: CI shows only the last lines of the log.
logs=$(mktemp -d)
kube_prefetch=
fleet_lane=
trap 'for g in $kube_prefetch $fleet_lane; do kill -- "-$g" 2>/dev/null || true; done; rm -rf "$logs"' EXIT
# The fleet area's Kubernetes part needs a kube-apiserver built from source (minutes of CPU
# on a cold Go cache). It is built from the start of the run, in the background, in the idle
# scheduling class: it takes only CPU time no build or test wants, and a waking test preempts
# it at once. The fleet area waits for it (scripts/test/kube-apiserver.sh holds a lock) and
# builds it itself if this build failed. SNOWFLEET_K8S=0 skips both. (setsid: one process
# group, stopped whole if the run ends first.)
if [[ " ${areas[*]} " == *" fleet "* ]] && [ "${SNOWFLEET_K8S:-1}" != 0 ] && command -v go >/dev/null; then
  setsid chrt --idle 0 bash "$here/test/kube-apiserver.sh" >"$logs/kube-apiserver-build" 2>&1 &
  kube_prefetch=$!
  export SNOWFLEET_KUBE_PREFETCH_LOG=$logs/kube-apiserver-build SNOWFLEET_KUBE_PREFETCH_PGID=$kube_prefetch
fi
# The fleet area's `stores` and `k8s` parts (scripts/test/fleet.sh) need only the core
# area's build, and are mostly waiting (about 15 minutes at a sixth of the CPU). In a run of
# both areas they start in the background as soon as the core area ends, beside the areas
# that follow, which run at nice 10 meanwhile so that those suites see the latencies of an
# idle machine. The fleet area's turn waits for them, prints their output, then runs its
# `polyglot` part (the packages those areas built). SNOWFLEET_FLEET_LANE=0 runs the fleet
# area whole in its turn, as does a failed core area or SNOWFLEET_K8S=only. (setsid: one
# process group, stopped whole if the run ends first.)
lane_wanted=
if [[ " ${areas[*]} " == *" core "*" fleet "* ]] && [ "${SNOWFLEET_FLEET_LANE:-1}" != 0 ] &&
  [ "${SNOWFLEET_K8S:-1}" != only ]; then
  lane_wanted=1
fi
lane_start=0 lane_rc=0
start_fleet_lane() {
  [ "$lane_start" = 0 ] || return 0  # once
  # Its Debian packages here, where sudo may ask for a password (a failure shows in the lane).
  bash "$here/test/fleet.sh" --deps-only >/dev/null || true
  lane_start=$SECONDS
  SNOWFLEET_FLEET_PARTS="stores k8s" setsid bash -c 'bash "$1"; rc=$?; echo "$SECONDS" >"$2"; exit $rc' \
    fleet-lane "$here/test/fleet.sh" "$logs/fleet-lane-seconds" >"$logs/fleet-lane" 2>&1 &
  fleet_lane=$!
}
# The machine's CPU time so far, busy and all (clock ticks, from /proc/stat): an area's share
# of busy CPU says how much room it leaves (the background kube-apiserver build uses it).
cpu_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
# run_area AREA SCRIPT: the area's script; in the fleet area's turn after the lane, the
# lane's output and then the rest of the fleet area.
run_area() {
  local area=$1 script=$2 rc=$lane_rc
  if [ "$area" = fleet ] && [ -f "$logs/fleet-lane" ]; then
    printf '(fleet: its stores and k8s parts ran in the background from %d s, rc %d:)\n' \
      "$lane_start" "$lane_rc"
    mv "$logs/fleet-lane" "$logs/fleet-lane.shown"  # shown once
    cat "$logs/fleet-lane.shown"
    SNOWFLEET_FLEET_PARTS=polyglot bash "$script" || rc=$?
    # The end of a failed lane again, where the run's summary (the log's last lines) shows it.
    if [ "$lane_rc" != 0 ]; then
      printf '(fleet: the stores and k8s parts failed, rc %d; their last lines:)\n' "$lane_rc"
      tail -n 12 "$logs/fleet-lane.shown"
    fi
    return "$rc"
  fi
  if [ -n "$fleet_lane" ] && [ ! -f "$logs/fleet-lane-seconds" ]; then
    nice -n 10 bash "$script"
  else
    bash "$script"
  fi
}
for area in "${areas[@]}"; do
  script="$here/test/$area.sh"
  if [ ! -f "$script" ]; then
    echo "no test script for '$area' ($script)" >&2
    exit 2
  fi
  printf '\n######## %s ########\n' "$area"
  start=$SECONDS
  read -r busy0 all0 < <(cpu_ticks)
  # Every area runs even after one fails, so one run reports all of them.
  if [ "$area" = fleet ] && [ -n "$fleet_lane" ]; then
    wait "$fleet_lane" || lane_rc=$?
    fleet_lane=
    times+=("fleet-lane $(cat "$logs/fleet-lane-seconds" 2>/dev/null || echo ?)s (in the background from ${lane_start}s)")
  fi
  if run_area "$area" "$script" 2>&1 | tee "$logs/$area"; then passed+=("$area"); else failed+=("$area"); fi
  # The lane, once the core area has built what it needs (not after a failed core area: the
  # fleet area then runs whole in its turn).
  if [ "$area" = core ] && [ -n "$lane_wanted" ] && [[ " ${failed[*]-} " != *" core "* ]]; then
    start_fleet_lane
  fi
  # Where a run's time goes, in its last lines (CI shows the end of the log).
  read -r busy1 all1 < <(cpu_ticks)
  times+=("$area $((SECONDS - start))s (CPU $(((busy1 - busy0) * 100 / (all1 - all0 + 1)))% busy)")
done
[ "${SNOWFLEET_CCACHE:-1}" = 1 ] && printf '\nccache: %s\n' "$(ccache --print-stats 2>/dev/null |
  awk -F'\t' '$1 ~ /^(direct_cache_hit|preprocessed_cache_hit|cache_miss)$/ { printf "%s %s ", $1, $2 }')"
printf '\narea wall times: %s\n' "$(IFS=,; echo "${times[*]}" | sed 's/,/, /g')"
if [ ${#failed[@]} -gt 0 ]; then
  for area in "${failed[@]}"; do
    printf '\n---- %s failed; its failure lines, then its last lines ----\n' "$area"
    grep -aE 'FAILED|Failed|FAIL[: ]|ERROR:|Error|error:|runtime error|property failed|Timeout|Traceback|Assertion|Sanitizer' \
      "$logs/$area" | grep -avE 'ERROR:  snowfleet|^ok|expected failure' | tail -n 15 || true
    printf -- '-- last lines:\n'
    tail -n 15 "$logs/$area"
  done
  printf '\ntest areas FAILED: %s (passed: %s)\n' "${failed[*]}" "${passed[*]:-none}" >&2
  exit 1
fi
printf '\nall test areas passed: %s\n' "${areas[*]}"
