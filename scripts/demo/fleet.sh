#!/usr/bin/env bash
# Fleet demo (C++ processes): several processes lease node ids from one embedded `local`
# registry directory, mint ids concurrently for a few seconds, and the summary checks that
# no id was minted twice. The polyglot demo does the same with Python, Node and Java
# processes speaking the same line protocol (scripts/demo/fleet_summary.py).
#   bash scripts/demo/fleet.sh [PROCESSES] [SECONDS]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
procs=${1:-4}
secs=${2:-3}
core_deps >/dev/null
cmake -S . -B out/fleet -G Ninja -DSNOWFLEET_BUILD_TESTS=ON >/dev/null
cmake --build out/fleet --target fleet_worker >/dev/null

reg=$(mktemp -d /tmp/snowfleet-demo-XXXXXX)
trap 'rm -rf "$reg"' EXIT
section "$procs processes lease node ids from local:$reg and mint for $secs s"
pids=()
for i in $(seq "$procs"); do
  out/fleet/tests/fleet_worker --source "local:$reg" --seconds "$secs" --burst 32 >"$reg/out-$i" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
echo "registry: $(cd "$reg" && ls slot-*[0-9] | tr '\n' ' ')"
section "summary"
args=()
for i in $(seq "$procs"); do args+=("c++#$i=$reg/out-$i"); done
python3 scripts/demo/fleet_summary.py "${args[@]}"
