#!/usr/bin/env bash
# SNOWFLEET_ETCD=OFF must build without the libcurl and nlohmann-json headers (a packager's
# machine, or Alpine without curl-dev): every source such a build compiles (core/sources.txt's
# [core] and [no-etcd] lists, and the CLI's main.cc) is preprocessed with stand-ins for those
# headers that stop the compiler, so a source outside src/lease/etcd/ that reaches an etcd
# header fails here, naming the file. Preprocessing only: a few seconds, no build.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
poison=$(mktemp -d)
trap 'rm -rf "$poison"' EXIT
mkdir -p "$poison/curl" "$poison/nlohmann"
echo '#error "curl/curl.h included by a SNOWFLEET_ETCD=OFF build"' >"$poison/curl/curl.h"
echo '#error "nlohmann/json.hpp included by a SNOWFLEET_ETCD=OFF build"' >"$poison/nlohmann/json.hpp"
# The lists an OFF build compiles, read as CMake reads them (comments, "[list]" headers).
mapfile -t sources < <(awk '/^[ \t]*(#|$)/ { next } /^\[/ { list = $0; next }
  list == "[core]" || list == "[no-etcd]" { print "core/" $1 }' core/sources.txt)
sources+=(core/src/cli/main.cc)
[ "${#sources[@]}" -gt 10 ] || { echo "check-etcd-off: core/sources.txt gave ${#sources[@]} sources" >&2; exit 1; }
cxx=${CXX:-c++}
failed=0
for f in "${sources[@]}"; do
  # -isystem puts the stand-ins ahead of /usr/include, where the real headers may be.
  if ! "$cxx" -std=c++17 -E -isystem "$poison" -Icore/include -Icore/src \
    -DSNOWFLEET_VERSION=0.0.0 "$f" -o /dev/null 2>"$poison/err"; then
    echo "check-etcd-off: $f needs an etcd header in a SNOWFLEET_ETCD=OFF build:" >&2
    grep -m1 'error' "$poison/err" >&2
    failed=1
  fi
done
[ $failed = 0 ] && echo "check-etcd-off: the ${#sources[@]} sources of an OFF build preprocess without the libcurl and nlohmann-json headers"
exit $failed
