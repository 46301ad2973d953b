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

section "sql: dependencies"
apt_install postgresql-15 python3

pgbin=/usr/lib/postgresql/15/bin
tmp=$(mktemp -d /tmp/snowfleet-sql.XXXXXX)
chmod 755 "$tmp"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "$(id -u)" = 0 ]; then chown postgres "$tmp"; fi
cleanup() {
  as_pg "$pgbin/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

section "sql: PostgreSQL 15 on 127.0.0.1:$port (data in $tmp)"
as_pg "$pgbin/initdb" -D "$tmp/data" -U snowfleet --auth=trust --no-sync -E UTF8 \
  --locale=C >/dev/null
as_pg "$pgbin/pg_ctl" -D "$tmp/data" -l "$tmp/log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$tmp -c fsync=off" \
  start >/dev/null
psql=(psql -h 127.0.0.1 -p "$port" -U snowfleet -d postgres)

section "sql: conformance vectors through snowfleet.sql"
python3 sql/postgresql/tests/conformance_runner.py --psql "${psql[*]}"

section "sql: a differential test against the reference model (random layouts and times)"
python3 sql/postgresql/tests/differential.py --psql "${psql[*]}"

section "sql: functions, immutability and a range scan on the primary key index"
"${psql[@]}" -X -q -v ON_ERROR_STOP=1 -f sql/postgresql/snowfleet.sql
"${psql[@]}" -X -q -v ON_ERROR_STOP=1 -f sql/postgresql/tests/behaviour.sql
echo "sql tests passed"
