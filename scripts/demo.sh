#!/usr/bin/env bash
# The main job: the polyglot fleet demo. Builds what is needed (the Python package into a
# venv, the Node addon, the Java jar, the Go and Rust workers), then starts one Python, one
# Node, one Java, one Go and one Rust process that each lease a node id from the same embedded
# `local` registry directory and mint ids concurrently for a few seconds. Prints per language
# the node id, ids minted and the first/last id decoded, and a verdict that no id was minted
# twice across the fleet.
#   bash scripts/demo.sh [SECONDS]        (the CLI demo is scripts/demo/cli.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
root=$(repo_root)
cd "$root"
secs=${1:-4}

section "building the Python package, the Node addon, the Java jar, the Go and Rust workers (first run only)"
. scripts/demo/fleet-demo/bindings.sh
apt_install python3 >/dev/null

reg=$(mktemp -d /tmp/snowfleet-registry-XXXXXX)
out=$(mktemp -d /tmp/snowfleet-demo-XXXXXX)
trap 'rm -rf "$reg" "$out"' EXIT
section "python, node, java, go and rust each lease a node id from local:$reg and mint for ${secs} s"
# Java compiles its single-file worker first (about a second): start it first.
"$FLEET_JAVA" -cp "$FLEET_JAR" scripts/demo/fleet-demo/FleetWorker.java "local:$reg" "$secs" >"$out/java" &
java_pid=$!
(cd / && "$FLEET_PY" "$root/scripts/demo/fleet-demo/worker.py" "local:$reg" "$secs") >"$out/python" &
py_pid=$!
node scripts/demo/fleet-demo/worker.js "local:$reg" "$secs" >"$out/node" &
node_pid=$!
"$FLEET_GO" "local:$reg" "$secs" >"$out/go" &
go_pid=$!
"$FLEET_RUST" "local:$reg" "$secs" >"$out/rust" &
rust_pid=$!
status=0
for p in $java_pid $py_pid $node_pid $go_pid $rust_pid; do wait "$p" || status=1; done
echo "registry $reg: $(cd "$reg" && ls | tr '\n' ' ')"
echo "marks (last issued ms, persisted at close): $(cd "$reg" && cat slot-*.mark | tr '\n' ' ')"

section "summary"
python3 scripts/demo/fleet_summary.py python="$out/python" node="$out/node" java="$out/java" go="$out/go" \
  rust="$out/rust" || status=1
exit $status
