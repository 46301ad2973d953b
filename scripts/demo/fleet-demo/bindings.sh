# Sourced by scripts/demo.sh and scripts/test/fleet.sh (after scripts/lib.sh, from the repo
# root): builds whichever of the five packages is not built yet, the way their own scripts
# do, and sets FLEET_PY (a python that imports snowfleet), FLEET_JAR, FLEET_JAVA, FLEET_GO
# (the Go fleet worker, go/internal/fleetworker) and FLEET_RUST (the Rust one, the snowfleet
# crate's example rust/snowfleet/examples/fleet_worker.rs).
# node-gyp owns build/ (its rebuild empties it), so CMake builds and the venv live in out/.
command -v node >/dev/null || apt_install nodejs npm g++ make
if ! node -e "require('./node/index.js')" >/dev/null 2>&1; then
  echo "node: npm ci (compiles the addon)"
  if [ -z "${npm_config_nodedir:-}" ]; then
    prefix=$(node -p 'path.dirname(path.dirname(process.execPath))')
    [ -f "$prefix/include/node/node_api.h" ] || { apt_install libnode-dev; prefix=/usr; }
    export npm_config_nodedir="$prefix"
  fi
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
FLEET_PY="${SNOWFLEET_PY_VENV:-$PWD/out/py-venv}/bin/python"
if ! [[ -x "$FLEET_PY" ]] || ! (cd / && "$FLEET_PY" -c 'import snowfleet' >/dev/null 2>&1); then
  echo "python: pip install . into out/py-venv"
  bash scripts/test/python.sh --install-only >/dev/null
fi
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
FLEET_JAR="$PWD/java/target/snowfleet-$(head -1 "$PWD/VERSION").jar"
if [[ ! -f "$FLEET_JAR" ]]; then
  echo "java: mvn package"
  bash scripts/test/java.sh --install-only >/dev/null
  _log=$(mktemp)
  mvn -B -q -ntp -f java/pom.xml -DskipTests package >"$_log" 2>&1 || { cat "$_log"; exit 1; }
  rm -f "$_log"
fi
FLEET_JAVA="$JAVA_HOME/bin/java"
[ -x /usr/local/go/bin/go ] && export PATH="$PATH:/usr/local/go/bin"
FLEET_GO="$PWD/out/go/fleet_worker"
if [[ ! -x "$FLEET_GO" ]]; then
  echo "go: go/build-native.sh, go build ./internal/fleetworker"
  apt_install g++ cmake ninja-build libcurl4-openssl-dev nlohmann-json3-dev
  bash go/build-native.sh >/dev/null
  (cd go && GOFLAGS="-mod=mod -buildvcs=false" go build -o "$FLEET_GO" ./internal/fleetworker)
fi
# Its own target dir: scripts/test/rust.sh builds out/cargo in debug, this is a release build.
FLEET_RUST="$PWD/out/rust-fleet/release/examples/fleet_worker"
if [[ ! -x "$FLEET_RUST" ]]; then
  echo "rust: cargo build --release --example fleet_worker"
  apt_install g++ libcurl4-openssl-dev nlohmann-json3-dev
  # Debian 12's cargo (1.63) is older than the crates' rust-version (1.77): rustup's, as
  # scripts/test/rust.sh installs it.
  [ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
  if ! command -v cargo >/dev/null; then
    apt_install curl ca-certificates
    curl -sSf https://sh.rustup.rs | sh -s -- -y -q --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  (cd rust && CARGO_TARGET_DIR="$PWD/../out/rust-fleet" cargo build --quiet --release \
    -p snowfleet --example fleet_worker)
fi
export FLEET_PY FLEET_JAR FLEET_JAVA FLEET_GO FLEET_RUST
