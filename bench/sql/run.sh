#!/usr/bin/env bash
# The SQL benchmark: builds and installs the extension (scripts/install/sql-extension.sh), starts a
# private PostgreSQL 15, loads the plain-SQL file into one database and the extension into
# another, and runs bench/sql/bench_decode.py (timestamp_ms, timestamp and decode over 1M
# ids, each beside hand-written arithmetic). Extra arguments go to bench_decode.py:
#   bash bench/sql/run.sh [--rows 1000000] [--runs 7]
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
cd "$(repo_root)"
bash scripts/install/sql-extension.sh
tmp=$(mktemp -d /tmp/snowfleet-sql-bench.XXXXXX)
cleanup() { pg_private_stop; rm -rf "$tmp"; }
trap cleanup EXIT
pg_private_start "$tmp"
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$SNOWFLEET_PG_PORT" -U snowfleet)
"${psql[@]}" -d postgres -c "CREATE DATABASE plain" -c "CREATE DATABASE extension"
"${psql[@]}" -d plain -f sql/postgresql/snowfleet.sql
"${psql[@]}" -d extension -c "CREATE EXTENSION snowfleet"
python3 bench/sql/bench_decode.py "$@" \
  --plain "psql -h 127.0.0.1 -p $SNOWFLEET_PG_PORT -U snowfleet -d plain" \
  --extension "psql -h 127.0.0.1 -p $SNOWFLEET_PG_PORT -U snowfleet -d extension"
