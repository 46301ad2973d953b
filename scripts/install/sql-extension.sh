#!/usr/bin/env bash
# Builds the PostgreSQL extension (sql/extension/: CREATE EXTENSION snowfleet) and installs
# it into the system PostgreSQL 15: the core from CMake, position-independent, into
# out/sql-ext; the module with PGXS (Debian's postgresql-server-dev-15) into
# out/sql-ext/extension; `make install` into pg_config's lib and share directories, which
# needs root (or sudo). Incremental: a second run rebuilds only what changed.
#   bash scripts/install/sql-extension.sh
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

apt_install g++ make cmake ninja-build postgresql-15 postgresql-server-dev-15
pg_config=/usr/lib/postgresql/15/bin/pg_config
build=$PWD/out/sql-ext
# The etcd node source is left out: minting in PostgreSQL takes its node id from the
# snowfleet.node_id setting (docs/postgresql.md).
quiet() { local log; log=$(mktemp); "$@" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; return 1; }; rm -f "$log"; }
quiet nice -n 10 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DSNOWFLEET_ETCD=OFF -DSNOWFLEET_BUILD_CLI=OFF \
  -DSNOWFLEET_INSTALL=OFF
quiet nice -n 10 cmake --build "$build" --target snowfleet_core -j2
mkdir -p "$build/extension"
make_ext=(make -C "$build/extension" -f "$PWD/sql/extension/Makefile" PG_CONFIG="$pg_config"
          CORE_LIB="$build/core/libsnowfleet_core.a")
quiet nice -n 10 "${make_ext[@]}" -j2
quiet as_root "${make_ext[@]}" install
echo "extension snowfleet $(head -1 VERSION) installed in $("$pg_config" --pkglibdir)"
