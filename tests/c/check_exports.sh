#!/usr/bin/env bash
# libsnowfleet.so exports the snowfleet_ functions and nothing else (core/src/capi/exports.map):
#   bash tests/c/check_exports.sh path/to/libsnowfleet.so
set -euo pipefail
lib=${1:?usage: check_exports.sh LIBSNOWFLEET_SO}
symbols=$(nm -D --defined-only "$lib" | awk '{print $NF}')
# SNOWFLEET_0 is the version node every symbol carries, not a symbol of the library.
others=$(grep -v -e '^snowfleet_' -e '^SNOWFLEET_0$' <<<"$symbols" || true)
if [ -n "$others" ]; then
  echo "FAIL: $lib exports symbols outside snowfleet_:" >&2
  echo "$others" >&2
  exit 1
fi
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[[ $soname =~ ^libsnowfleet\.so\.[0-9]+$ ]] || { echo "FAIL: SONAME '$soname'" >&2; exit 1; }
echo "$(wc -l <<<"$symbols") symbols, all snowfleet_; SONAME $soname"
