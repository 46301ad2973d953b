#!/usr/bin/env bash
# SNOWFLEET_ETCD=OFF must build without the libcurl and nlohmann-json headers (a packager's
# machine, or Alpine without curl-dev): every core source is preprocessed as that build
# compiles it (no SNOWFLEET_HAVE_ETCD) with stand-ins for those headers that stop the
# compiler, so a source that includes an etcd header outside its `#if SNOWFLEET_HAVE_ETCD`
# fails here, naming the file. Preprocessing only: a few seconds, no build.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
poison=$(mktemp -d)
trap 'rm -rf "$poison"' EXIT
mkdir -p "$poison/curl" "$poison/nlohmann"
echo '#error "curl/curl.h included by a SNOWFLEET_ETCD=OFF build"' >"$poison/curl/curl.h"
echo '#error "nlohmann/json.hpp included by a SNOWFLEET_ETCD=OFF build"' >"$poison/nlohmann/json.hpp"
cxx=${CXX:-c++}
failed=0
for f in core/src/*/*.cc core/src/lease/etcd/*.cc; do
  # -isystem puts the stand-ins ahead of /usr/include, where the real headers may be.
  if ! "$cxx" -std=c++17 -E -isystem "$poison" -Icore/include -Icore/src \
    -DSNOWFLEET_VERSION=0.0.0 "$f" -o /dev/null 2>"$poison/err"; then
    echo "check-etcd-off: $f needs an etcd header without SNOWFLEET_HAVE_ETCD:" >&2
    grep -m1 'error' "$poison/err" >&2
    failed=1
  fi
done
[ $failed = 0 ] && echo "check-etcd-off: every core source preprocesses without the libcurl and nlohmann-json headers"
exit $failed
