# Shared helpers for the set-up and test scripts: idempotent, quiet installs.
# Source it: `. "$(dirname "$0")/lib.sh"`.

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
  if [ -z "${SNOWFLEET_APT_UPDATED:-}" ]; then
    as_root apt-get update -qq >/dev/null
    export SNOWFLEET_APT_UPDATED=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
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

section() { printf '\n==== %s ====\n' "$*"; }
