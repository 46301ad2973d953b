#!/usr/bin/env bash
# snowfleet.node_source and the settings checked together at server start, each on servers
# of its own (scripts/test/sql.sh runs it):
#   - two servers leasing from one local: registry mint with different node ids, the
#     leased ones (the server log names them);
#   - a server pinned to a held slot refuses to mint (NODE_ID_UNAVAILABLE) until the holder
#     stops, then claims it and mints above the holder's ids; the holder, restarted, waits
#     for the slot and re-claims it when it is given back; a restart re-claims a node id;
#   - snowfleet.node_id with snowfleet.node_source, or a node id outside the layout, stops
#     the server naming the rule; snowfleet.node_id before snowfleet.layout is accepted;
#   - a new server refuses until the clock passes where it started, naming that mark (not
#     "clock moved backwards").
#   bash sql/extension/tests/node_source.sh
set -euo pipefail
. "$(dirname "$0")/../../../scripts/lib.sh"
work=$(mktemp -d /tmp/snowfleet-lease.XXXXXX)
chmod 755 "$work"
servers=()
cleanup() {
  for d in "${servers[@]}"; do
    pg_as_postgres "$pg_bin/pg_ctl" -D "$d/data" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
reg=$work/registry
mkdir -p "$reg"
[ "$(id -u)" != 0 ] || chown postgres "$reg"

declare -A port
# start NAME SETTING...: a private server with the module preloaded; its port in port[NAME].
start() {
  local name=$1; shift
  servers+=("$work/$name")
  (unset SNOWFLEET_PG_DIR; pg_private_start "$work/$name" shared_preload_libraries=snowfleet "$@"
   echo "$SNOWFLEET_PG_PORT" >"$work/$name.port")
  port[$name]=$(cat "$work/$name.port")
  sql "$name" "CREATE EXTENSION IF NOT EXISTS snowfleet" >/dev/null
}
ctl() { pg_as_postgres "$pg_bin/pg_ctl" -D "$work/$1/data" -l "$work/$1/log" -w "${@:2}" >/dev/null; }
sql() { psql -X -q -At -h 127.0.0.1 -p "${port[$1]}" -U snowfleet -d postgres -c "$2"; }
# The node id of every id NAME mints now (read with layout LAYOUT, default "default") (one line when they agree), after waiting for it
# to mint (a new server waits out its mark, a pinned one for its slot).
minted_node() {
  for _ in $(seq 1 100); do
    if sql "$1" "SELECT 1 FROM (SELECT snowfleet.next_id()) s" >/dev/null 2>&1; then
      sql "$1" "SELECT DISTINCT snowfleet.node_id(snowfleet.next_id(), '${2:-default}')
                FROM generate_series(1, 1000)"
      return 0
    fi
    sleep 0.1
  done
  sql "$1" "SELECT snowfleet.next_id()" || true
  fail "$1 does not mint"
}
max_id() { sql "$1" "SELECT max(snowfleet.next_id()) FROM generate_series(1, 1000)"; }

section "sql: two servers lease their node ids from one local: registry"
start a "snowfleet.node_source='local:$reg?node=5'"
start b "snowfleet.node_source='local:$reg'"
node_a=$(minted_node a)
node_b=$(minted_node b)
logged_b=$(sed -n 's/.*snowfleet: node id \([0-9]*\) leased.*/\1/p' "$work/b/log" | tail -1)
echo "server a mints node $node_a (pinned to 5), server b node $node_b (the log says $logged_b)"
[ "$node_a" = 5 ] && [ "$node_b" = "$logged_b" ] && [ "$node_b" != 5 ] ||
  fail "expected node 5 on a and b's leased node (not 5) on b"

section "sql: a server pinned to a held slot waits for it; a restart releases and re-claims"
start c "snowfleet.node_source='local:$reg?node=5'"
out=$(sql c "SELECT snowfleet.next_id()" 2>&1 || true)
echo "$out"
case $out in *NODE_ID_UNAVAILABLE*"no node id leased from snowfleet.node_source"*) ;;
  *) fail "c minted with node 5 held by a" ;; esac
last_a=$(max_id a)
ctl a stop -m fast
node_c=$(minted_node c)
first_c=$(sql c "SELECT snowfleet.next_id()")
echo "a stopped: c mints node $node_c, first id $first_c above a's last $last_a"
[ "$node_c" = 5 ] && [ "$first_c" -gt "$last_a" ] || fail "c: expected node 5 above a's ids"
ctl a restart  # stopped: starts it with its earlier options (postmaster.opts)
out=$(sql a "SELECT snowfleet.next_id()" 2>&1 || true)
case $out in *NODE_ID_UNAVAILABLE*) ;; *) fail "a minted while c holds node 5: $out" ;; esac
last_c=$(max_id c)
ctl c stop -m fast
node_a=$(minted_node a)
first_a=$(sql a "SELECT snowfleet.next_id()")
echo "c stopped: a re-claims node $node_a, first id $first_a above c's last $last_c"
[ "$node_a" = 5 ] && [ "$first_a" -gt "$last_c" ] || fail "a: expected node 5 above c's ids"
ctl b restart -m fast
node_b=$(minted_node b)
echo "b restarted: mints node $node_b"
[ "$node_b" != 5 ] || fail "b took node 5, held by a"

section "sql: the settings are checked together at server start"
if (start both snowfleet.node_id=1 "snowfleet.node_source='local:$reg'") 2>/dev/null; then
  fail "node_id and node_source together were accepted"
fi
grep -h "give snowfleet.node_id or snowfleet.node_source, not both" "$work/both/log" ||
  fail "no rule in the log"
# ALTER SYSTEM refuses it too (the next restart would fail).
out=$(sql b "ALTER SYSTEM SET snowfleet.node_id = 3" 2>&1 || true)
echo "$out"
case $out in *"give snowfleet.node_id or snowfleet.node_source, not both"*) ;;
  *) fail "ALTER SYSTEM accepted node_id beside node_source" ;; esac
# A relative local: registry would be read from each server's data directory.
if (start relative "snowfleet.node_source='local:registry'") 2>/dev/null; then
  fail "a relative local: registry was accepted"
fi
grep -h "a local: registry must be an absolute path" "$work/relative/log" ||
  fail "no rule in the log"
if (start wide snowfleet.node_id=3000) 2>/dev/null; then fail "node id 3000 in the default layout"; fi
grep -h "node_id must be in \[0, 1023\]" "$work/wide/log" || fail "no rule in the log"
start ordered snowfleet.node_id=3000 snowfleet.layout=41.12.10@1704067200000
node=$(minted_node ordered 41.12.10@1704067200000)
echo "node_id = 3000 before layout = 41.12.10@1704067200000: mints node $node"
[ "$node" = 3000 ] || fail "expected node 3000"

section "sql: a fresh server's first ids wait for its start, and the refusal says so"
# max_drift_ms = 5000: a new server starts after now + 6 s (no mark file yet).
start fresh snowfleet.node_id=1 snowfleet.max_drift_ms=5000
out=$(sql fresh "SELECT snowfleet.next_id()" 2>&1 || true)
echo "$out"
case $out in
  *"moved backwards"*) fail "a fresh start is called a rewind" ;;
  *CLOCK_MOVED_BACKWARDS*"behind the high-water mark"*"of node 1: ids issued before the space started may reach that millisecond"*) ;;
  *) fail "a fresh start's refusal does not name the mark" ;;
esac
echo "node_source tests passed"
