# Shared helpers for the set-up and test scripts: idempotent, quiet installs.
# Source it: `. "$(dirname "$0")/lib.sh"` (`../lib.sh` from a script in a group folder).

repo_root() { cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root (or sudo) to run: $*" >&2; return 1; fi
}

# apt_install PKG...: installs the Debian packages that are not installed yet.
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing Debian packages: ${missing[*]}"
  # Two test areas may install at once (scripts/test.sh runs part of the fleet area in the
  # background): one apt at a time, each waiting for dpkg's lock rather than failing on it.
  local lock=(flock /var/lock/snowfleet-apt.lock)
  if [ -z "${SNOWFLEET_APT_UPDATED:-}" ]; then
    as_root "${lock[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
    export SNOWFLEET_APT_UPDATED=1
  fi
  as_root "${lock[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
    install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# pip_install PKG...: installs into the current python3 (quietly; no-op when present).
pip_install() {
  python3 -m pip install --quiet --disable-pip-version-check "$@"
}

# The C++ toolchain and the libraries the core's tests and benches use (libcurl's headers
# and library: the etcd node source, which loads libcurl at run time, is built and tested).
core_deps() {
  apt_install g++ cmake ninja-build catch2 nlohmann-json3-dev libbenchmark-dev libcurl4-openssl-dev
}

# Each heading carries the seconds since its script started: where a long run's time went.
section() { printf '\n==== %s ==== [%d s]\n' "$*" "$SECONDS"; }

# A private PostgreSQL 15 for a test area (Debian's postgresql-15; initdb refuses root, so
# it runs as the postgres user): pg_private_start DIR [SERVER-OPTION...] makes a cluster in
# DIR/data on a free loopback port, trusts the role `snowfleet` (a superuser), starts it
# and exports SNOWFLEET_PG_PORT, SNOWFLEET_PG_DIR (also the socket directory) and
# SNOWFLEET_PG_URL (postgres://snowfleet@127.0.0.1:PORT/postgres). Extra options are passed
# to the server as `-c name=value` (e.g. shared_preload_libraries=snowfleet).
# pg_private_stop stops it (immediate); the caller removes DIR. pg_as_postgres CMD runs a
# command as the postgres user when root.
pg_bin=/usr/lib/postgresql/15/bin
pg_as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
pg_private_start() {
  local dir=$1; shift
  apt_install postgresql-15 python3
  mkdir -p "$dir" && chmod 755 "$dir"
  [ "$(id -u)" != 0 ] || chown postgres "$dir"
  local port opts="-c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c fsync=off"
  port=$(free_port)
  for o in "$@"; do opts="$opts -c $o"; done
  pg_as_postgres "$pg_bin/initdb" -D "$dir/data" -U snowfleet --auth=trust --no-sync -E UTF8 \
    --locale=C >/dev/null
  pg_as_postgres "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$opts -c port=$port" \
    start >/dev/null
  export SNOWFLEET_PG_PORT=$port SNOWFLEET_PG_DIR=$dir
  export SNOWFLEET_PG_URL="postgres://snowfleet@127.0.0.1:$port/postgres"
}
pg_private_stop() {
  [ -n "${SNOWFLEET_PG_DIR:-}" ] || return 0
  pg_as_postgres "$pg_bin/pg_ctl" -D "$SNOWFLEET_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
}

# A single-member etcd (Debian's etcd-server) on two free loopback ports, data and log in
# DIR: etcd_private_start DIR NAME sets endpoint (host:port) and etcd_pid; the caller's
# cleanup kills $etcd_pid. Fails naming NAME, with the log's tail, when etcd does not answer.
etcd_private_start() {
  local dir=$1 name=$2 client peer
  read -r client peer < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in ss))')
  endpoint=127.0.0.1:$client
  etcd --name "$name" --data-dir "$dir/etcd" \
    --listen-client-urls "http://$endpoint" --advertise-client-urls "http://$endpoint" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "$name=http://127.0.0.1:$peer" >"$dir/etcd.log" 2>&1 &
  etcd_pid=$!
  local probe=(curl -s --noproxy '*' -X POST "http://$endpoint/v3/kv/range" -d '{"key":"AA=="}')
  for _ in $(seq 100); do
    "${probe[@]}" | grep -q header && return 0
    sleep 0.1
  done
  echo "$name: etcd did not start:" >&2
  tail -20 "$dir/etcd.log" >&2
  return 1
}
