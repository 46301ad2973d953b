#!/usr/bin/env bash
# SQL tests: builds and installs the extension (scripts/install/sql-extension.sh: CREATE EXTENSION
# snowfleet), starts a private PostgreSQL 15 (Debian's postgresql-15, as the postgres user:
# initdb refuses root) on a free loopback port with the module preloaded
# (shared_preload_libraries), and runs in one database holding the plain-SQL file
# (sql/postgresql/snowfleet.sql) and one holding the extension: that both define the same
# functions and types; the conformance vectors (sql/postgresql/tests/conformance_runner.py)
# and a differential test against the reference model (differential.py), each compared
# result for result and error for error between the two; the NULL, time-text, error and
# index checks (behaviour.sql); that the extension's error paths leak nothing
# (sql/extension/tests/error_memory.sql); that the plain-SQL functions are inlined
# (inlining.sql); minting with snowfleet.next_id() (sql/extension/tests/mint.sh: 16
# concurrent sessions, a backend SIGKILLed and the crash recovery, cancel and
# statement_timeout during a wait, settings checked by the core); a leased node id
# (sql/extension/tests/node_source.sh: servers sharing a local: registry); and a short run of the
# decode benchmark
# (bench/sql/run.sh measures it properly). The server is stopped and its directory removed
# on exit.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

section "sql: build and install the extension"
bash scripts/install/sql-extension.sh

tmp=$(mktemp -d /tmp/snowfleet-sql.XXXXXX)
cleanup() { pg_private_stop; rm -rf "$tmp"; }
trap cleanup EXIT
pg_private_start "$tmp" shared_preload_libraries=snowfleet snowfleet.node_id=37
port=$SNOWFLEET_PG_PORT
section "sql: PostgreSQL 15 on 127.0.0.1:$port, snowfleet preloaded (data in $tmp)"
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U snowfleet)
"${psql[@]}" -d postgres -c "CREATE DATABASE plain" -c "CREATE DATABASE extension"
"${psql[@]}" -d plain -f sql/postgresql/snowfleet.sql
"${psql[@]}" -d extension -c "CREATE EXTENSION snowfleet"
plain="psql -h 127.0.0.1 -p $port -U snowfleet -d plain"
extension="psql -h 127.0.0.1 -p $port -U snowfleet -d extension"

section "sql: the plain-SQL file and the extension define the same functions and types"
# Name, arguments with their defaults, result, volatility and parallel safety of every
# public function; the columns of every type.
catalog="SELECT p.proname || '(' || pg_get_function_arguments(p.oid) || ') ' ||
                pg_get_function_result(p.oid) || ' ' || p.provolatile::text || p.proparallel::text
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'snowfleet' AND p.proname !~ '^_'
            -- Minting is the extension's alone: the plain-SQL file cannot mint (no shared
            -- memory, no clock guard), so these are left out of the comparison on purpose.
            AND p.proname NOT IN ('next_id', 'next_uuid7')
         UNION ALL
         SELECT t.typname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
           JOIN pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0
          WHERE n.nspname = 'snowfleet' ORDER BY 1"
"${psql[@]}" -At -d plain -c "$catalog" >"$tmp/plain.catalog"
"${psql[@]}" -At -d extension -c "$catalog" >"$tmp/extension.catalog"
diff "$tmp/plain.catalog" "$tmp/extension.catalog"
echo "$(grep -c '(' "$tmp/plain.catalog") functions and $(grep -vc '(' "$tmp/plain.catalog") type columns alike"

section "sql: conformance vectors through the plain-SQL file and the extension"
python3 sql/postgresql/tests/conformance_runner.py --psql "$plain" --results "$tmp/vectors.json"
python3 sql/postgresql/tests/conformance_runner.py --psql "$extension" --target extension \
  --same-as "$tmp/vectors.json"

section "sql: a differential test against the reference model (random layouts, times, texts)"
python3 sql/postgresql/tests/differential.py --psql "$plain" --results "$tmp/differential.json"
python3 sql/postgresql/tests/differential.py --psql "$extension" --target extension \
  --same-as "$tmp/differential.json"

section "sql: NULLs, time texts, errors, immutability and a range scan on the primary key index"
for db in plain extension; do
  echo "-- $db"
  "${psql[@]}" -d "$db" -f sql/postgresql/tests/behaviour.sql
done

section "sql: the extension's error paths leave nothing behind (no destructor skipped)"
"${psql[@]}" -d extension -f sql/extension/tests/error_memory.sql

section "sql: the plain-SQL functions are inlined"
"${psql[@]}" -d plain -f sql/postgresql/tests/inlining.sql

section "sql: minting with snowfleet.next_id()"
bash sql/extension/tests/mint.sh "$port" "$tmp/data"

section "sql: snowfleet.node_source (a leased node id) and the settings checked at start"
bash sql/extension/tests/node_source.sh

section "sql: without shared_preload_libraries the extension reads ids and next_id() refuses"
(
  unset SNOWFLEET_PG_DIR
  trap pg_private_stop EXIT
  pg_private_start "$tmp/unloaded"
  out=$(psql -X -h 127.0.0.1 -p "$SNOWFLEET_PG_PORT" -U snowfleet -d postgres \
          -c "CREATE EXTENSION snowfleet" -c "SELECT snowfleet.timestamp_ms(141264821508263936)" \
          -c "SELECT snowfleet.next_uuid7() IS NOT NULL" -c "SELECT snowfleet.next_id()" 2>&1 || true)
  echo "$out"
  case $out in *1737747358021*"needs shared_preload_libraries = 'snowfleet'"*) ;;
    *) echo "FAIL: not preloaded" >&2; exit 1 ;; esac
)

section "sql: the decode benchmark, briefly (bench/sql/run.sh for the real figures)"
python3 bench/sql/bench_decode.py --plain "$plain" --extension "$extension" --rows 100000 --runs 3
echo "sql tests passed"
