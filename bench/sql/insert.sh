#!/usr/bin/env bash
# The insert benchmark: rows/s into a table whose id is DEFAULT snowfleet.next_id() against
# one whose id is a bigserial, with 1 and 8 pgbench clients. Builds and installs the
# extension (scripts/install/sql-extension.sh), starts a private PostgreSQL 15 with the
# module preloaded (snowfleet.node_id = 1), and runs each case RUNS times, interleaved,
# for SECONDS each; every transaction inserts 100 rows (one statement), so the id default
# weighs more than the commit. Prints the median rows/s of each case and the CPU.
#   bash bench/sql/insert.sh [SECONDS [RUNS]]     (default 5 s, 5 runs)
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
cd "$(repo_root)"
seconds=${1:-5}
runs=${2:-5}
bash scripts/install/sql-extension.sh
tmp=$(mktemp -d /tmp/snowfleet-sql-insert.XXXXXX)
cleanup() { pg_private_stop; rm -rf "$tmp"; }
trap cleanup EXIT
pg_private_start "$tmp" shared_preload_libraries=snowfleet snowfleet.node_id=1
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$SNOWFLEET_PG_PORT" -U snowfleet -d postgres)
"${psql[@]}" -c "CREATE EXTENSION snowfleet" -c "
  CREATE UNLOGGED TABLE by_snowfleet (id bigint PRIMARY KEY DEFAULT snowfleet.next_id(), v int);
  CREATE UNLOGGED TABLE by_bigserial (id bigserial PRIMARY KEY, v int);"
for _ in $(seq 1 50); do  # minting starts once the clock passes the first mark
  "${psql[@]}" -c "SELECT snowfleet.next_id()" >/dev/null 2>&1 && break
  sleep 0.1
done
for t in by_snowfleet by_bigserial; do
  echo "INSERT INTO $t (v) SELECT g FROM generate_series(1, 100) g;" >"$tmp/$t.sql"
done
results=$tmp/results
: >"$results"
for run in $(seq 1 "$runs"); do
  for clients in 1 8; do
    for t in by_snowfleet by_bigserial; do
      tps=$(/usr/lib/postgresql/15/bin/pgbench -n -h 127.0.0.1 -p "$SNOWFLEET_PG_PORT" -U snowfleet \
              -c "$clients" -j "$(( clients < 2 ? 1 : 2 ))" -T "$seconds" -f "$tmp/$t.sql" postgres |
            sed -n 's/^tps = \([0-9.]*\).*/\1/p')
      echo "$t $clients $run $tps" >>"$results"
      "${psql[@]}" -c "TRUNCATE $t"
    done
  done
done
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
python3 - "$results" "$cpu" "$(nproc)" "$seconds" "$runs" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
cpu, ncpu, seconds, runs = sys.argv[2:6]
print(f"CPU: {cpu} ({ncpu} CPUs); {runs} interleaved runs of {seconds} s; 100 rows per insert")
print("| id | clients | rows/s (median) | runs |")
print("| --- | ---: | ---: | --- |")
for clients in ("1", "8"):
    for t, name in (("by_snowfleet", "DEFAULT snowfleet.next_id()"), ("by_bigserial", "bigserial")):
        v = [float(r[3]) * 100 for r in rows if r[0] == t and r[1] == clients]
        print(f"| {name} | {clients} | {statistics.median(v):,.0f} | "
              + ", ".join(f"{x:,.0f}" for x in v) + " |")
EOF
