#!/usr/bin/env bash
# snowfleet as a dependency: installs a configured build tree into a temporary prefix, then
# builds tests/install/consumer against it with find_package(snowfleet) and with pkg-config,
# runs each program, and configures the consumer with snowfleet as a subproject (libraries
# only, build type untouched).
#   bash tests/install/install_test.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: install_test.sh BUILD_DIR (a configured snowfleet build tree)}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
version=$(head -1 "$src/VERSION")

cmake --build "$build" --target snowfleet_core snowfleet_registry snowfleet_c snowfleet_c_static >/dev/null
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(dirname "$(find "$tmp/prefix" -name 'libsnowfleet_registry.so.1' | head -1)")
[ -d "$libdir" ] || fail "no libsnowfleet_registry.so.1 installed"
[ -f "$tmp/prefix/include/snowfleet/snowfleet.hpp" ] || fail "no headers installed"
if [ -x "$tmp/prefix/bin/snowfleet" ]; then  # the CLI, when the build has it, runs from the prefix
  [ "$("$tmp/prefix/bin/snowfleet" --version)" = "snowfleet $version" ] || fail "installed CLI"
fi

echo "== find_package(snowfleet)"
cmake -S "$here/consumer" -B "$tmp/pkg" -DSNOWFLEET_FROM=package \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "find_package"; }
cmake --build "$tmp/pkg" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "build with find_package"; }
out=$("$tmp/pkg/consumer")
[ "$out" = "snowfleet $version node=37" ] || fail "find_package consumer printed '$out'"
echo "$out"

echo "== pkg-config snowfleet"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
[ "$(pkg-config --modversion snowfleet)" = "$version" ] || fail "pkg-config version"
# shellcheck disable=SC2046  # pkg-config prints several words on purpose
g++ -std=c++17 "$here/consumer/main.cc" -o "$tmp/pc-consumer" $(pkg-config --cflags --libs snowfleet) \
  -Wl,-rpath,"$libdir" || fail "build with pkg-config"
out=$("$tmp/pc-consumer")
[ "$out" = "snowfleet $version node=37" ] || fail "pkg-config consumer printed '$out'"
echo "$out"

echo "== C: docs/c.md's program, built with pkg-config alone"
[ -f "$tmp/prefix/include/snowfleet.h" ] || fail "no snowfleet.h installed"
[ -f "$libdir/libsnowfleet.so.0" ] && [ -f "$libdir/libsnowfleet.a" ] || fail "no libsnowfleet installed"
awk '/^```c$/ {on=1; next} /^```$/ {on=0} on' "$src/docs/c.md" >"$tmp/mint.c"
[ -s "$tmp/mint.c" ] || fail "no C example in docs/c.md"
# shellcheck disable=SC2046  # pkg-config prints several words on purpose
cc -std=c99 -Wall -Wextra -Werror -pedantic "$tmp/mint.c" -o "$tmp/mint" \
  $(pkg-config --cflags --libs snowfleet) -Wl,-rpath,"$(pkg-config --variable=libdir snowfleet)" \
  || fail "build the C example with pkg-config"
out=$("$tmp/mint")
[[ $out =~ ^[0-9]+$ ]] || fail "C example printed '$out'"
node=$(( (out >> 12) & 1023 ))
[ "$node" = 37 ] || fail "C example's id $out has node $node"
echo "C example: $out (node $node)"

echo "== add_subdirectory(snowfleet)"
cmake -S "$here/consumer" -B "$tmp/sub" -G Ninja -DSNOWFLEET_FROM=subdir \
  -DSNOWFLEET_SOURCE_DIR="$src" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "subproject configure"; }
echo "configured: libraries only, build type left to the parent"
echo "install tests passed"
