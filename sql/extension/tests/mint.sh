#!/usr/bin/env bash
# Minting in PostgreSQL, on a server started with shared_preload_libraries=snowfleet and
# snowfleet.node_id set (scripts/test/sql.sh):
#   - 16 concurrent sessions (pgbench) insert rows whose id is DEFAULT snowfleet.next_id():
#     every id distinct, and the ids of each session increasing;
#   - a backend SIGKILLed during inserts: PostgreSQL's crash recovery re-initialises shared
#     memory, then more inserts: no id repeated, every new id above every old one;
#   - a wait (the session's clock set back with the superuser-only test setting) ends
#     within 100 ms of statement_timeout and of pg_cancel_backend; a rewind larger than
#     snowfleet.max_wait_ms is CLOCK_MOVED_BACKWARDS (SQLSTATE SF001);
#   - snowfleet.mode switched to monotonic on reload: each backend remakes its generator on
#     the same state, ids distinct and above the earlier ones;
#   - 8 sessions insert with DEFAULT snowfleet.next_uuid7(): distinct version-7 UUIDs,
#     each session's increasing;
#   - settings are checked by the core (a bad one refused naming its rule, the old kept);
#   - with DATA: the mark writer ended by SIGTERM is started again, and minting goes on; a
#     mark it cannot write (a directory in its place) is a WARNING in the log;
#   - with DATA (the server is restarted): an unreadable mark file refuses minting, naming
#     it; a removed one makes minting start after now + max_drift_ms + 1 s, above every id.
#   bash sql/extension/tests/mint.sh PORT [DATA]
set -euo pipefail
. "$(dirname "$0")/../../../scripts/lib.sh"
port=$1
data=${2:-}  # the data directory: the mark-file checks restart the server
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U snowfleet)
pgbench=(/usr/lib/postgresql/15/bin/pgbench -h 127.0.0.1 -p "$port" -U snowfleet)
work=$(mktemp -d /tmp/snowfleet-mint.XXXXXX)
trap 'rm -rf "$work"' EXIT
q() { "${psql[@]}" -d mint -At -c "$1"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# Minting starts after the mark: right after a start or a crash, a strict generator refuses
# (the clock is behind the mark) for up to the mark's lead; wait until it mints.
wait_minting() {
  for _ in $(seq 1 100); do
    if "${psql[@]}" -d mint -At -c "SELECT snowfleet.next_id()" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  "${psql[@]}" -d mint -c "SELECT snowfleet.next_id()"
  fail "next_id() does not mint"
}

"${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS mint" -c "CREATE DATABASE mint"
"${psql[@]}" -d mint -c "CREATE EXTENSION snowfleet" -c "
  CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowfleet.next_id(),
                       session int NOT NULL, phase int NOT NULL, n bigserial);"
wait_minting

section "sql: 16 sessions insert with DEFAULT snowfleet.next_id()"
echo 'INSERT INTO events (session, phase) VALUES (:client_id, 1);' >"$work/insert1.sql"
"${pgbench[@]}" -n -c 16 -j 4 -t 1000 -f "$work/insert1.sql" mint >"$work/pgbench1.out"
grep -E "number of (transactions actually processed|failed)" "$work/pgbench1.out" || true
rows=$(q "SELECT count(*) FROM events WHERE phase = 1")
distinct=$(q "SELECT count(DISTINCT id) FROM events WHERE phase = 1")
sessions=$(q "SELECT count(DISTINCT session) FROM events WHERE phase = 1")
# Per session, in insertion order (n, a sequence), each id above the one before.
falls=$(q "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY session ORDER BY n) AS prev
                                   FROM events WHERE phase = 1) s WHERE id <= prev")
echo "$rows rows from $sessions sessions, $distinct distinct ids, $falls ids not above their session's previous"
[ "$rows" = 16000 ] && [ "$distinct" = 16000 ] && [ "$sessions" = 16 ] && [ "$falls" = 0 ] ||
  fail "16 sessions: expected 16000 distinct ids increasing per session"

section "sql: a backend SIGKILLed during inserts, crash recovery, more inserts"
echo 'INSERT INTO events (session, phase) VALUES (:client_id, 2);' >"$work/insert2.sql"
"${pgbench[@]}" -n -c 8 -j 2 -T 4 -f "$work/insert2.sql" mint >"$work/pgbench2.out" 2>&1 &
bench=$!
sleep 1.5
victim=$(q "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench' AND state = 'active'
            LIMIT 1")
[ -z "$victim" ] && victim=$(q "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench' LIMIT 1")
[ -n "$victim" ] || fail "no pgbench backend to kill"
pg_as_postgres kill -9 "$victim"
wait "$bench" || true  # its sessions end with the crash
for _ in $(seq 1 100); do
  /usr/lib/postgresql/15/bin/pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.1
done
wait_minting
before=$(q "SELECT count(*) || ' rows, max id ' || max(id) FROM events")
echo "killed backend $victim; after crash recovery: $before"
echo 'INSERT INTO events (session, phase) VALUES (:client_id, 3);' >"$work/insert3.sql"
"${pgbench[@]}" -n -c 8 -j 2 -t 500 -f "$work/insert3.sql" mint >"$work/pgbench3.out"
check=$(q "SELECT (SELECT count(*) FROM events WHERE phase = 3) || ' ' ||
                  (SELECT count(*) - count(DISTINCT id) FROM events) || ' ' ||
                  (SELECT count(*) FROM events WHERE phase = 3
                     AND id <= (SELECT max(id) FROM events WHERE phase < 3))")
read -r new dups below <<<"$check"
echo "$new new rows; $dups ids repeated; $below new ids not above every old one"
[ "$new" = 4000 ] && [ "$dups" = 0 ] && [ "$below" = 0 ] || fail "ids after the crash"

section "sql: statement_timeout and pg_cancel_backend end a wait within 100 ms"
"${psql[@]}" -d mint -c "ALTER SYSTEM SET snowfleet.max_wait_ms = 10000" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.3
"${psql[@]}" -d mint -c "CREATE TABLE waits (what text, started timestamptz, ended timestamptz)"
# The session's clock 3 s behind the last id issued: a rewind within max_wait_ms, waited out.
wait_sql="DO \$\$ DECLARE t0 timestamptz; BEGIN
  PERFORM snowfleet.next_id();  -- the space's last id is now
  PERFORM set_config('snowfleet.test_clock_offset_ms', '-3000', false);
  t0 := clock_timestamp();
  PERFORM snowfleet.next_id();
  INSERT INTO waits VALUES ('%s: minted, did not wait', t0, clock_timestamp());
EXCEPTION WHEN query_canceled THEN
  INSERT INTO waits VALUES ('%s', CASE WHEN current_setting('statement_timeout') = '0' THEN t0
                                      ELSE statement_timestamp() END, clock_timestamp());
END \$\$;"
# shellcheck disable=SC2059
"${psql[@]}" -d mint -c "SET statement_timeout = '300ms'" -c "$(printf "$wait_sql" timeout timeout)" ||
  true
# shellcheck disable=SC2059
"${psql[@]}" -d mint -c "SET application_name = 'waiter'" -c "$(printf "$wait_sql" cancel cancel)" &
waiter=$!
sleep 0.5
pid=$(q "SELECT pid FROM pg_stat_activity WHERE application_name = 'waiter'")
[ -n "$pid" ] || fail "no waiting session"
# The time is read before the cancel is sent (OFFSET 0 keeps the subquery apart).
q "INSERT INTO waits SELECT 'cancel sent', t, NULL FROM (SELECT clock_timestamp() AS t OFFSET 0) s
    WHERE pg_cancel_backend($pid)"
wait "$waiter" || true
q "SELECT what || ': ' || round(extract(epoch FROM ended - started) * 1000) || ' ms' FROM waits
    WHERE ended IS NOT NULL ORDER BY what"
timeout_ms=$(q "SELECT round(extract(epoch FROM ended - started) * 1000) FROM waits WHERE what = 'timeout'")
cancel_ms=$(q "SELECT round(extract(epoch FROM w.ended - c.started) * 1000) FROM waits w, waits c
                WHERE w.what = 'cancel' AND c.what = 'cancel sent'")
echo "statement_timeout 300 ms: the wait ended after $timeout_ms ms; pg_cancel_backend: $cancel_ms ms after it was sent"
[ -n "$timeout_ms" ] && [ "$timeout_ms" -lt 400 ] && [ -n "$cancel_ms" ] && [ "$cancel_ms" -lt 100 ] ||
  fail "a wait did not end within 100 ms of its cancel"
out=$("${psql[@]}" -d mint -c "SET snowfleet.test_clock_offset_ms = -20000" \
  -c "\\set VERBOSITY sqlstate" -c "SELECT snowfleet.next_id()" 2>&1 || true)
echo "a 20 s rewind: $out"
case $out in *SF001*) ;; *) fail "a large rewind is not SF001" ;; esac
out=$("${psql[@]}" -d mint -c "SET snowfleet.test_clock_offset_ms = -20000" -c "SELECT snowfleet.next_id()" 2>&1 || true)
echo "$out"
case $out in *"CLOCK_MOVED_BACKWARDS: clock moved backwards by"*) ;; *) fail "message" ;; esac

section "sql: snowfleet.mode = monotonic on reload: the same state, ids still above the old"
"${psql[@]}" -d mint -c "ALTER SYSTEM SET snowfleet.mode = 'monotonic'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.3
[ "$(q "SHOW snowfleet.mode")" = monotonic ] || fail "the reload did not apply the mode"
echo 'INSERT INTO events (session, phase) VALUES (:client_id, 5);' >"$work/insert5.sql"
"${pgbench[@]}" -n -c 8 -j 2 -t 500 -f "$work/insert5.sql" mint >"$work/pgbench5.out"
check=$(q "SELECT (SELECT count(*) FROM events WHERE phase = 5) || ' ' ||
                  (SELECT count(*) - count(DISTINCT id) FROM events) || ' ' ||
                  (SELECT count(*) FROM events WHERE phase = 5
                     AND id <= (SELECT max(id) FROM events WHERE phase < 5)) || ' ' ||
                  (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY session ORDER BY n) p
                                           FROM events WHERE phase = 5) s WHERE id <= p)")
read -r new dups below falls <<<"$check"
echo "monotonic: $new new rows; $dups ids repeated; $below not above the old; $falls not above their session's previous"
[ "$new" = 4000 ] && [ "$dups" = 0 ] && [ "$below" = 0 ] && [ "$falls" = 0 ] || fail "monotonic"
"${psql[@]}" -d mint -c "ALTER SYSTEM RESET snowfleet.mode" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.3

section "sql: 8 sessions insert with DEFAULT snowfleet.next_uuid7()"
q "CREATE TABLE uuids (id uuid PRIMARY KEY DEFAULT snowfleet.next_uuid7(), session int, n bigserial)"
echo 'INSERT INTO uuids (session) VALUES (:client_id);' >"$work/uuid.sql"
"${pgbench[@]}" -n -c 8 -j 2 -t 500 -f "$work/uuid.sql" mint >"$work/pgbench4.out"
check=$(q "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' ||
                  count(*) FILTER (WHERE substr(id::text, 15, 1) <> '7') FROM uuids")
falls=$(q "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY session ORDER BY n) AS prev
                                   FROM uuids) s WHERE id <= prev")
read -r rows distinct not7 <<<"$check"
echo "$rows rows, $distinct distinct UUIDs, $not7 not version 7, $falls not above their session's previous"
[ "$rows" = 4000 ] && [ "$distinct" = 4000 ] && [ "$not7" = 0 ] && [ "$falls" = 0 ] || fail "next_uuid7"

section "sql: settings are checked by the core"
out=$("${psql[@]}" -d mint -c "ALTER SYSTEM SET snowfleet.max_wait_ms = 70000" 2>&1 || true)
echo "$out"
case $out in *"INVALID_ARGUMENT: max_wait_ms must be a number in [0, 60000], got 70000"*) ;; *) fail "max_wait_ms" ;; esac
out=$("${psql[@]}" -d mint -c "ALTER SYSTEM SET snowfleet.mode = 'fast'" 2>&1 || true)
echo "$out"
case $out in *"mode must be 'strict' or 'monotonic', got 'fast'"*) ;; *) fail "mode" ;; esac
out=$("${psql[@]}" -d mint -c "ALTER SYSTEM SET snowfleet.node_id = 1024" 2>&1 || true)
echo "$out"
case $out in *"node_id must be in [0, 1023]"*) ;; *) fail "node_id" ;; esac
"${psql[@]}" -d mint -c "ALTER SYSTEM RESET snowfleet.max_wait_ms" -c "SELECT pg_reload_conf()" >/dev/null
[ "$(q "SHOW snowfleet.mode")" = strict ] || fail "the old mode is not kept"

if [ -n "$data" ]; then
  section "sql: the mark writer ended by SIGTERM (pg_terminate_backend) is started again"
  mark_writer() { ps --ppid "$(head -1 "$data/postmaster.pid")" -o pid=,args= |
                    awk '/snowfleet mark writer/ {print $1}'; }
  writer=$(mark_writer)
  [ -n "$writer" ] || fail "no mark writer process"
  pg_as_postgres kill -TERM "$writer"
  # Past the mark's headroom (1 s) only a running writer lets ids be issued.
  sleep 3
  wait_minting
  echo "mark writer $writer terminated; now $(mark_writer), and next_id() mints"
  [ -n "$(mark_writer)" ] || fail "the mark writer was not started again"

  section "sql: a mark the writer cannot write is a WARNING in the log; once fixed, minting goes on"
  rm "$data/snowfleet.mark"
  pg_as_postgres mkdir "$data/snowfleet.mark"
  warned=""
  for _ in $(seq 1 30); do
    warned=$(grep -o "WARNING:  snowfleet: cannot persist the high-water mark: .*" "$data/../log" | tail -1 || true)
    [ -n "$warned" ] && break
    sleep 0.1
  done
  echo "${warned:-no warning in the log}"
  [ -n "$warned" ] || fail "a mark that cannot be written is not logged"
  rmdir "$data/snowfleet.mark"
  wait_minting

  section "sql: an unreadable mark file refuses minting; a missing one starts after now + 2 s"
  pg_ctl=(pg_as_postgres /usr/lib/postgresql/15/bin/pg_ctl -D "$data" -w)
  # restart reuses the server's options (postmaster.opts), so the port stays.
  restart() { "${pg_ctl[@]}" -m fast stop >/dev/null; "$@"; "${pg_ctl[@]}" -l "$data/../log" restart >/dev/null 2>&1; }
  old_max=$(q "SELECT max(id) FROM events")
  restart eval 'echo "12x" >"$data/snowfleet.mark"'
  out=$("${psql[@]}" -d mint -c "SELECT snowfleet.next_id()" 2>&1 || true)
  echo "$out"
  case $out in *"INTERNAL: the high-water mark file $data/snowfleet.mark: not a mark ('12x"*"'), so it cannot be used; fix it"*) ;;
    *) fail "an unreadable mark file" ;; esac
  restart rm "$data/snowfleet.mark"
  wait_minting
  new_min=$(q "INSERT INTO events (session, phase) VALUES (0, 4) RETURNING id")
  grep -o "snowfleet: no high-water mark file.*" "$data/../log" | tail -1
  echo "after the mark file was removed: first id $new_min, the last before $old_max"
  [ "$new_min" -gt "$old_max" ] || fail "an id below the old ones after the mark file was removed"
fi
echo "minting tests passed"
