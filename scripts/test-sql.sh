#!/usr/bin/env bash
# SQL tests: starts a private PostgreSQL 15 (Debian's postgresql-15, as the postgres user:
# initdb refuses root) on a free loopback port with a data directory under a temp
# directory, loads sql/postgresql/snowfleet.sql and runs the conformance vectors through it
# (sql/postgresql/tests/conformance_runner.py), a differential test against the reference
# model (differential.py) and the index/EXPLAIN check. The server is
# stopped and the directory removed on exit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$(repo_root)"

tmp=$(mktemp -d /tmp/snowfleet-sql.XXXXXX)
cleanup() { pg_private_stop; rm -rf "$tmp"; }
trap cleanup EXIT
pg_private_start "$tmp"
port=$SNOWFLEET_PG_PORT
section "sql: PostgreSQL 15 on 127.0.0.1:$port (data in $tmp)"
psql=(psql -h 127.0.0.1 -p "$port" -U snowfleet -d postgres)

section "sql: conformance vectors through snowfleet.sql"
python3 sql/postgresql/tests/conformance_runner.py --psql "${psql[*]}"

section "sql: a differential test against the reference model (random layouts and times)"
python3 sql/postgresql/tests/differential.py --psql "${psql[*]}"

section "sql: functions, immutability and a range scan on the primary key index"
"${psql[@]}" -X -q -v ON_ERROR_STOP=1 -f sql/postgresql/snowfleet.sql
"${psql[@]}" -X -q -v ON_ERROR_STOP=1 -f sql/postgresql/tests/behaviour.sql
echo "sql tests passed"
