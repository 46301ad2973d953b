#!/usr/bin/env bash
# The insert benchmark. Builds and installs the extension (scripts/install/sql-extension.sh)
# and starts a private PostgreSQL 15 with the module preloaded (snowfleet.node_id = 1).
#
#   bash bench/sql/insert.sh [SECONDS [RUNS]]     (default 5 s, 5 runs)
# rows/s into unlogged tables whose key is DEFAULT snowfleet.next_id(), a bigserial,
# DEFAULT snowfleet.next_uuid7(), gen_random_uuid() (UUIDv4) and a PL/pgSQL UUIDv7 (the
# usual hand-written one, below), with 1 and 8 pgbench clients; each case RUNS times,
# interleaved, for SECONDS each; every transaction inserts 100 rows (one statement), so the
# key's default weighs more than the commit. Prints the median rows/s of each case.
#
#   bash bench/sql/insert.sh --rows N
# What a user choosing a key type wants to see: N rows inserted (one client, batches of
# N/10 rows, logged tables) with a bigint Snowflake, a UUIDv7 and a UUIDv4 primary key; the
# primary key index's size (pg_relation_size) and the insert rate, overall and over the
# last batch (an index that no longer fits in memory slows random keys down first).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
cd "$(repo_root)"
rows=""
if [ "${1:-}" = --rows ]; then rows=$2; shift 2; fi
seconds=${1:-5}
runs=${2:-5}
bash scripts/install/sql-extension.sh
tmp=$(mktemp -d /tmp/snowfleet-sql-insert.XXXXXX)
cleanup() { pg_private_stop; rm -rf "$tmp"; }
trap cleanup EXIT
pg_private_start "$tmp" shared_preload_libraries=snowfleet snowfleet.node_id=1
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$SNOWFLEET_PG_PORT" -U snowfleet -d postgres)
# A PL/pgSQL UUIDv7 as teams write it: a random UUID with its first 48 bits replaced by the
# Unix ms and its version nibble set to 7.
"${psql[@]}" -c "CREATE EXTENSION snowfleet" -c '
  CREATE FUNCTION uuid7_plpgsql() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    b bytea := uuid_send(gen_random_uuid());
    ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  BEGIN
    b := overlay(b PLACING substring(int8send(ms) FROM 3) FROM 1 FOR 6);
    b := set_byte(b, 6, (get_byte(b, 6) & 15) | 112);
    RETURN encode(b, $h$hex$h$)::uuid;
  END $$;'
for _ in $(seq 1 50); do  # minting starts once the clock passes the first mark
  "${psql[@]}" -c "SELECT snowfleet.next_id()" >/dev/null 2>&1 && break
  sleep 0.1
done
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
pgv=$("${psql[@]}" -At -c "SHOW server_version")

if [ -n "$rows" ]; then
  batch=$(( rows / 10 ))
  : >"$tmp/results"
  for key in snowflake uuid7 uuid4; do
    case $key in
      snowflake) ddl="id bigint PRIMARY KEY DEFAULT snowfleet.next_id()" ;;
      uuid7) ddl="id uuid PRIMARY KEY DEFAULT snowfleet.next_uuid7()" ;;
      uuid4) ddl="id uuid PRIMARY KEY DEFAULT gen_random_uuid()" ;;
    esac
    "${psql[@]}" -c "CREATE TABLE k_$key ($ddl, v int)"
    for b in $(seq 1 10); do
      start=$(date +%s.%N)
      "${psql[@]}" -c "INSERT INTO k_$key (v) SELECT g FROM generate_series(1, $batch) g"
      echo "$key $b $start $(date +%s.%N)" >>"$tmp/results"
    done
    echo "$key size $("${psql[@]}" -At -c "SELECT pg_relation_size('k_${key}_pkey')")" >>"$tmp/results"
    "${psql[@]}" -c "DROP TABLE k_$key" -c "CHECKPOINT"
  done
  python3 - "$tmp/results" "$cpu" "$(nproc)" "$rows" "$pgv" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'EOF'
import sys
lines = [l.split() for l in open(sys.argv[1])]
cpu, ncpu, rows, pgv, load = sys.argv[2:7]
rows = int(rows)
print(f"CPU: {cpu} ({ncpu} CPUs); PostgreSQL {pgv}; {rows:,} rows per key, one client, "
      f"10 batches; load after: {load}")
print("| key | pkey index (MB) | bytes/row | rows/s overall | rows/s, last batch |")
print("| --- | ---: | ---: | ---: | ---: |")
names = {"snowflake": "bigint `snowfleet.next_id()`", "uuid7": "uuid `snowfleet.next_uuid7()`",
         "uuid4": "uuid `gen_random_uuid()`"}
for key in ("snowflake", "uuid7", "uuid4"):
    b = [l for l in lines if l[0] == key and l[1] != "size"]
    size = int(next(l[2] for l in lines if l[0] == key and l[1] == "size"))
    total = sum(float(l[3]) - float(l[2]) for l in b)
    last = float(b[-1][3]) - float(b[-1][2])
    print(f"| {names[key]} | {size / 2**20:,.1f} | {size / rows:.1f} | {rows / total:,.0f} | "
          f"{rows / 10 / last:,.0f} |")
EOF
  exit 0
fi

cases="snowfleet bigserial uuid7 uuid4 uuid7_plpgsql"
"${psql[@]}" -c "
  CREATE UNLOGGED TABLE by_snowfleet (id bigint PRIMARY KEY DEFAULT snowfleet.next_id(), v int);
  CREATE UNLOGGED TABLE by_bigserial (id bigserial PRIMARY KEY, v int);
  CREATE UNLOGGED TABLE by_uuid7 (id uuid PRIMARY KEY DEFAULT snowfleet.next_uuid7(), v int);
  CREATE UNLOGGED TABLE by_uuid4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), v int);
  CREATE UNLOGGED TABLE by_uuid7_plpgsql (id uuid PRIMARY KEY DEFAULT uuid7_plpgsql(), v int);"
for t in $cases; do
  echo "INSERT INTO by_$t (v) SELECT g FROM generate_series(1, 100) g;" >"$tmp/$t.sql"
done
results=$tmp/results
: >"$results"
for run in $(seq 1 "$runs"); do
  for clients in 1 8; do
    for t in $cases; do
      tps=$(/usr/lib/postgresql/15/bin/pgbench -n -h 127.0.0.1 -p "$SNOWFLEET_PG_PORT" -U snowfleet \
              -c "$clients" -j "$(( clients < 2 ? 1 : 2 ))" -T "$seconds" -f "$tmp/$t.sql" postgres |
            sed -n 's/^tps = \([0-9.]*\).*/\1/p')
      echo "$t $clients $run $tps" >>"$results"
      "${psql[@]}" -c "TRUNCATE by_$t"
    done
  done
done
python3 - "$results" "$cpu" "$(nproc)" "$seconds" "$runs" "$pgv" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
cpu, ncpu, seconds, runs, pgv, load = sys.argv[2:8]
print(f"CPU: {cpu} ({ncpu} CPUs); PostgreSQL {pgv}; {runs} interleaved runs of {seconds} s; "
      f"100 rows per insert; load after: {load}")
print("| id | clients | rows/s (median) | runs |")
print("| --- | ---: | ---: | --- |")
names = (("snowfleet", "DEFAULT snowfleet.next_id()"), ("bigserial", "bigserial"),
         ("uuid7", "DEFAULT snowfleet.next_uuid7()"), ("uuid4", "DEFAULT gen_random_uuid()"),
         ("uuid7_plpgsql", "DEFAULT uuid7_plpgsql() (PL/pgSQL)"))
for clients in ("1", "8"):
    for t, name in names:
        v = [float(r[3]) * 100 for r in rows if r[0] == t and r[1] == clients]
        print(f"| {name} | {clients} | {statistics.median(v):,.0f} | "
              + ", ".join(f"{x:,.0f}" for x in v) + " |")
EOF
