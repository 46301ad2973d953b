#!/usr/bin/env bash
# Fleet tests: leased node ids from the local registry and from a real etcd.
#   - installs what it needs from Debian (idempotent, quiet), builds the core with etcd
#     support, the Catch2 tests and tests/fleet_worker;
#   - starts a throw-away etcd (Debian's etcd-server) on free loopback ports in a temp dir;
#   - runs the Catch2 fleet tests (local + [.etcd]), CLI checks, and the multi-process
#     tests in tests/fleet/fleet_test.py (which also start and kill an etcd of their own),
#     including Python, Node, Java, Go and Rust processes sharing one local registry and one
#     etcd prefix (the packages and the Go and Rust workers are built first if missing,
#     unless SNOWFLEET_FLEET_POLYGLOT=0), 64 Python, Node and Java processes minting on one
#     host-shared node id (tests/fleet/share_test.py: local:DIR?share=NAME, one killed
#     mid-minting per language; ids/s beside the cap printed), and the etcd claim storm
#     (tests/fleet/storm_test.py, with the Python, Node and Java storm workers too);
#   - runs the fault suite on a three-member etcd cluster of its own (fault_test.py,
#     partition_test.py: members killed, stopped, restarted, quorum lost, holders cut off in
#     network namespaces), every worker's history checked by history_check.py;
#   - the lease tests again over TLS with client certificates and with etcd users, and the
#     refusals around them (tests/fleet/etcd_tls_auth_test.py: two more private etcds);
#   - the postgres:// lease table's SQL on a private PostgreSQL (pg_lease_protocol_test.py),
#     then the engine on it (pg_lease_test.py: generators and the CLI on distinct slots; the
#     server restarted and stopped, connections killed, a holder paused past its TTL, its
#     row deleted, the table restored from an older dump; histories checked);
#   - last (SNOWFLEET_K8S=0 skips it, SNOWFLEET_K8S=only runs just this part): builds or
#     reuses the real kube-apiserver (scripts/test/kube-apiserver.sh: minutes the first time,
#     cached after; scripts/test.sh starts that build in the background), starts it on a
#     private etcd, pins the Lease protocol the engine relies on
#     (tests/fleet/kube_protocol_test.py; docs/lease-engines.md), then runs the
#     k8s-lease:// engine on it (tests/fleet/k8s_lease_test.py: claims, races, credentials,
#     the RBAC refusal, the mark across a restart, faults; histories checked);
#   - stops etcd and removes the temp dir, whatever happened.
# Environment: SNOWFLEET_FLEET_BUILD (build dir, default out/release when the core area
# built it without sanitizers, else out/fleet), SNOWFLEET_SANITIZE
# (e.g. "address;undefined" or "thread": builds and runs everything under it),
# SNOWFLEET_CACHE_DIR (where the kube-apiserver build is kept), SNOWFLEET_FLEET_PARTS (some
# of `stores polyglot k8s`, below). `--deps-only` installs the Debian packages and stops.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

section "fleet: dependencies"
core_deps
apt_install libcurl4-openssl-dev etcd-server etcd-client curl python3 iproute2 openssl \
  postgresql-15 util-linux procps
# scripts/test.sh installs them in the foreground before it starts parts in the background
# (where sudo could not ask for a password).
[ "${1:-}" != --deps-only ] || exit 0

# The core area's release build (etcd support on when its headers are installed, which
# core_deps does) already holds every target used here: reuse it rather than compile the
# core once more, unless sanitizers are asked for.
build=${SNOWFLEET_FLEET_BUILD:-}
if [ -z "$build" ]; then
  if [ -z "${SNOWFLEET_SANITIZE:-}" ] && [ -f out/release/CMakeCache.txt ] &&
    grep -q '^SNOWFLEET_SANITIZE:STRING=$' out/release/CMakeCache.txt; then
    build=out/release
  else
    build=out/fleet
  fi
fi
fleet_configure() {
  cmake -S . -B "$build" -G Ninja -DSNOWFLEET_BUILD_TESTS=ON -DSNOWFLEET_ETCD=ON \
    -DSNOWFLEET_SANITIZE="${SNOWFLEET_SANITIZE:-}" >/dev/null
}

kube_suite() {
  section "fleet: Kubernetes Leases on a real kube-apiserver and a private etcd"
  local kube pid
  # A background build still running (in the idle class, behind every other area's work):
  # this part is waiting for it now, so it runs at normal priority from here.
  if [ -n "${SNOWFLEET_KUBE_PREFETCH_PGID:-}" ]; then
    for pid in $(pgrep -g "$SNOWFLEET_KUBE_PREFETCH_PGID" 2>/dev/null); do
      chrt --all-tasks --other -p 0 "$pid" 2>/dev/null || true
    done
  fi
  mapfile -t kube < <(bash scripts/test/kube-apiserver.sh | tail -2)
  # The build scripts/test.sh started in the background (how long it took, or why it failed).
  [ -z "${SNOWFLEET_KUBE_PREFETCH_LOG:-}" ] || tail -n 3 "$SNOWFLEET_KUBE_PREFETCH_LOG" 2>/dev/null || true
  KUBE_APISERVER=${kube[0]} KUBECLIENT=${kube[1]} ETCD_BIN=$(command -v etcd) \
    python3 tests/fleet/kube_protocol_test.py
  # The engine on it: the CLI and fleet_worker (built here when SNOWFLEET_K8S=only).
  KUBE_APISERVER=${kube[0]} KUBECLIENT=${kube[1]} ETCD_BIN=$(command -v etcd) \
    FLEET_WORKER="$build/tests/fleet_worker" SNOWFLEET_CLI="$build/core/snowfleet" \
    python3 tests/fleet/k8s_lease_test.py
  # Faults through a proxy and hand edits of the Leases (known limits marked expectedFailure).
  KUBE_APISERVER=${kube[0]} KUBECLIENT=${kube[1]} ETCD_BIN=$(command -v etcd) \
    FLEET_WORKER="$build/tests/fleet_worker" SNOWFLEET_CLI="$build/core/snowfleet" \
    python3 tests/fleet/k8s_edit_test.py
}
# The parts, in this order: `stores` (the etcd and PostgreSQL suites: the core's build is
# all they need), `polyglot` (processes of the five packages on one registry, one etcd
# prefix, one table, one shared id), `k8s` (the kube-apiserver suites). scripts/test.sh runs
# `stores k8s` in the background from the end of the core area, beside the package areas,
# and `polyglot` in the fleet area's turn. SNOWFLEET_K8S=0 drops `k8s`, SNOWFLEET_K8S=only
# runs it alone.
parts=${SNOWFLEET_FLEET_PARTS:-stores polyglot k8s}
for part in $parts; do
  case $part in
    stores | polyglot | k8s) ;;
    *) echo "fleet: unknown part '$part' in SNOWFLEET_FLEET_PARTS (stores, polyglot, k8s; space-separated)" >&2
       exit 2 ;;
  esac
done
case ${SNOWFLEET_K8S:-1} in
  0) parts=${parts//k8s/} ;;
  only) parts=k8s ;;
esac
has_part() { [[ " $parts " == *" $1 "* ]]; }
if [ -z "${parts// /}" ]; then
  echo "fleet: no part left to run (SNOWFLEET_FLEET_PARTS='${SNOWFLEET_FLEET_PARTS:-}', SNOWFLEET_K8S=${SNOWFLEET_K8S:-1})" >&2
  exit 2
fi

# The cross-language tests need the five packages: build whichever is missing, before
# our own build. SNOWFLEET_FLEET_POLYGLOT=0 skips them (the `polyglot` part's storm then has
# C++ claimants only).
if has_part polyglot && [ "${SNOWFLEET_FLEET_POLYGLOT:-1}" != 0 ]; then
  section "fleet: Python, Node, Java, Go and Rust packages for the cross-language tests"
  . scripts/demo/fleet-demo/bindings.sh
  export FLEET_POLYGLOT=1
fi

section "fleet: build (etcd support on${SNOWFLEET_SANITIZE:+, sanitizers $SNOWFLEET_SANITIZE}; parts: $parts)"
fleet_configure
if [ "$parts" = k8s ]; then
  cmake --build "$build" --target fleet_worker snowfleet >/dev/null
else
  cmake --build "$build" --target snowfleet_tests fleet_worker storm_worker outage_probe budget_probe \
    close_probe turn_probe release_probe late_claim_probe snowfleet >/dev/null
fi

tmp=$(mktemp -d /tmp/snowfleet-fleet-XXXXXX)
pgdir=""
etcd_pid=""
cleanup() {
  if [ -n "$etcd_pid" ]; then kill -9 "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" 2>/dev/null || true; fi
  if [ -n "$pgdir" ]; then pg_private_stop; rm -rf "$pgdir"; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
cli=$build/core/snowfleet
if has_part stores || has_part polyglot; then
  etcd_private_start "$tmp" fleet
  echo "test-fleet: etcd $(etcd --version | head -1 | awk '{print $3}') on $endpoint"
  export SNOWFLEET_TEST_ETCD=$endpoint
fi
pg_start() {
  [ -z "$pgdir" ] || return 0
  pgdir=$(mktemp -d /tmp/snowfleet-fleet-pg.XXXXXX)
  pg_private_start "$pgdir"
}

stores_suite() {
  section "fleet: Catch2 tests, local registry and etcd leases"
  "$build/tests/snowfleet_tests" "[fleet]"

  section "fleet: CLI --node-source"
  local a b
  a=$("$cli" next --node-source "local:$tmp/reg" -n 3)
  b=$("$cli" next --node-source "local:$tmp/reg" -n 3)
  [ "$(printf '%s\n%s\n' "$a" "$b" | sort -u | wc -l)" = 6 ] || { echo "CLI local ids not unique"; exit 1; }
  ls "$tmp/reg" | grep -q '^slot-[0-9]*\.mark$' || { echo "CLI local: no mark file"; exit 1; }
  "$cli" next --node-source "etcd://$endpoint/cli?ttl=2&node=12" -n 2 | head -1 |
    xargs "$cli" decode | grep -q "node=12" || { echo "CLI etcd: wrong node"; exit 1; }
  echo "CLI ok"

  section "fleet: multi-process tests (every id collected, zero duplicates)"
  FLEET_WORKER="$build/tests/fleet_worker" ETCD_BIN=$(command -v etcd) FLEET_POLYGLOT= \
    python3 tests/fleet/fleet_test.py

  section "fleet: fault suite: a three-member etcd cluster, partitions (histories checked)"
  python3 tests/fleet/history_check_test.py
  FLEET_WORKER="$build/tests/fleet_worker" ETCD_BIN=$(command -v etcd) python3 tests/fleet/fault_test.py
  FLEET_WORKER="$build/tests/fleet_worker" ETCD_BIN=$(command -v etcd) python3 tests/fleet/partition_test.py

  section "fleet: fault reproductions (tests/faults/README.md)"
  local t
  for t in etcd_replies_test budget_test close_test turn_test release_test lease_gone_test symlink_swap_test cli_layout_test etcd_wipe_test retried_claim_test \
      retried_batch_late_test k8s_giveback_test \
      late_mark_test genesis_fence_test wipe_ttl_test restore_lease_test slow_link_test old_libcurl_test; do
    SNOWFLEET_CLI="$cli" BUDGET_PROBE="$build/tests/budget_probe" \
      CLOSE_PROBE="$build/tests/close_probe" TURN_PROBE="$build/tests/turn_probe" RELEASE_PROBE="$build/tests/release_probe" \
      LATE_CLAIM_PROBE="$build/tests/late_claim_probe" \
      FLEET_WORKER="$build/tests/fleet_worker" STORM_WORKER="$build/tests/storm_worker" \
      ETCD_BIN=$(command -v etcd) python3 "tests/faults/$t.py"
  done

  section "fleet: etcd over TLS and with authentication (tests/fleet/etcd_tls_auth_test.py)"
  SNOWFLEET_CLI="$cli" SNOWFLEET_TESTS="$build/tests/snowfleet_tests" \
    FLEET_WORKER="$build/tests/fleet_worker" \
    ETCD_BIN=$(command -v etcd) python3 tests/fleet/etcd_tls_auth_test.py

  section "fleet: the postgres:// lease table's SQL on a private PostgreSQL (docs/fleet.md)"
  pg_start
  python3 tests/fleet/pg_lease_protocol_test.py

  section "fleet: postgres:// node ids, with faults (histories checked)"
  SNOWFLEET_CLI="$cli" FLEET_WORKER="$build/tests/fleet_worker" FLEET_POLYGLOT= \
    python3 tests/fleet/pg_lease_test.py
}

polyglot_suite() {
  section "fleet: Python, Node, Java, Go and Rust processes on one registry and one etcd prefix"
  FLEET_WORKER="$build/tests/fleet_worker" ETCD_BIN=$(command -v etcd) \
    python3 tests/fleet/fleet_test.py PolyglotLocalRegistry PolyglotEtcdPrefix

  section "fleet: one host-shared node id, 64 Python, Node and Java processes (figures printed)"
  SNOWFLEET_CLI="$cli" timeout 180 python3 tests/fleet/share_test.py

  section "fleet: etcd claim storm (1,024 claimants on one prefix; targets 5 s idle, 10 s beside builds, printed)"
  STORM_WORKER="$build/tests/storm_worker" SNOWFLEET_CLI="$cli" \
    FLEET_WORKER="$build/tests/fleet_worker" ETCD_BIN=$(command -v etcd) \
    timeout 180 python3 tests/fleet/storm_test.py

  if [ "${FLEET_POLYGLOT:-}" = 1 ]; then
    section "fleet: postgres:// node ids from Python, Node and Java processes on one table"
    pg_start
    SNOWFLEET_CLI="$cli" FLEET_WORKER="$build/tests/fleet_worker" \
      python3 tests/fleet/pg_lease_test.py -k python_node_and_java
  fi
}

if has_part stores; then stores_suite; fi
if has_part polyglot; then polyglot_suite; fi
if has_part k8s; then kube_suite; fi
