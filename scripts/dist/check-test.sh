#!/usr/bin/env bash
# Tests scripts/dist/check.sh: it passes the artifacts of DIST (default out/dist/, as
# scripts/dist/build.sh wrote them: an x86_64 glibc wheel, the jar, the npm tarball and the sdist
# are needed) and fails, naming the rule, each one made wrong in one way:
#   a wheel named with a tag auditwheel does not compute (manylinux_2_28 for a 2_17 wheel);
#   a jar whose native/linux-aarch64-gnu/ holds the x86_64 glibc library;
#   a tarball whose musl prebuild is the glibc one;
#   an sdist carrying a native file;
#   a wheel whose extension module is not a release build (compiled by zig without -O and
#   -DNDEBUG: assert() and libc++'s assertion texts with their source paths compiled in);
#   a wheel whose extension module exports more than PyInit__snowfleet.
# The two made-up modules are compiled with the zig of out/dist-tools (scripts/dist/build.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dist=$(cd "${1:-out/dist}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

one() {  # one NAME: the single artifact of DIST matching NAME (a glob)
  local m
  m=$(cd "$dist" && ls -- $1 2>/dev/null | head -n 1)
  [ -n "$m" ] || { echo "dist-check-test: no $1 in $dist" >&2; exit 1; }
  echo "$dist/$m"
}

# expect_fail CASE DIR MESSAGE: dist-check on DIR must fail with MESSAGE on stderr.
expect_fail() {
  local out
  if out=$(bash "$here/check.sh" "$2" 2>&1); then
    echo "FAIL $1: dist-check passed"; failures=$((failures + 1))
  elif ! grep -qF -- "$3" <<<"$out"; then
    echo "FAIL $1: dist-check failed without '$3':"; echo "$out"; failures=$((failures + 1))
  else
    echo "ok   $1: $(grep -F -- "$3" <<<"$out" | head -n 1)"
  fi
}

# rezip SRC DST PY: DST is the zip SRC with the Python statements PY applied to `files`
# (a dict of entry name to bytes).
rezip() {
  python3 - "$1" "$2" "$3" <<'EOF'
import sys, zipfile
src, dst, code = sys.argv[1:]
with zipfile.ZipFile(src) as z:
    files = {i.filename: z.read(i) for i in z.infolist()}
exec(code)
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name, data in files.items():
        z.writestr(name, data)
EOF
}

whl=$(one '*-manylinux_2_17_x86_64.manylinux2014_x86_64.whl')
jar=$(one 'snowfleet-*[0-9].jar')
tgz=$(one '*.tgz')
sdist=$(one '*.tar.gz')

mkdir "$work/good"
cp "$whl" "$jar" "$tgz" "$sdist" "$work/good/"
if out=$(bash "$here/check.sh" "$work/good" 2>&1); then
  echo "ok   the artifacts as built pass"
else
  echo "FAIL the artifacts as built:"; echo "$out"; failures=$((failures + 1))
fi

mkdir "$work/tag"
b=$(basename "$whl")
cp "$whl" "$work/tag/${b/manylinux_2_17_x86_64/manylinux_2_28_x86_64}"
expect_fail "wheel tag" "$work/tag" "auditwheel show computes 'manylinux_2_17_x86_64'"

mkdir "$work/jar"
rezip "$jar" "$work/jar/$(basename "$jar")" '
for n in [n for n in files if n.startswith("native/linux-x86_64-gnu/")]:
    files[n.replace("x86_64", "aarch64", 1)] = files[n]'
expect_fail "jar arch" "$work/jar" "is built for Advanced Micro Devices X86-64, its place names aarch64"

mkdir -p "$work/npm/x" "$work/npmout"
tar -xzf "$tgz" -C "$work/npm/x"
cp "$work/npm/x/package/prebuilds/linux-x64/snowfleet.glibc.node" \
  "$work/npm/x/package/prebuilds/linux-x64/snowfleet.musl.node"
tar -czf "$work/npmout/$(basename "$tgz")" -C "$work/npm/x" package
expect_fail "npm libc" "$work/npmout" "snowfleet.musl.node does not need libc.musl-x86_64.so.1"

mkdir -p "$work/sd/x" "$work/sdout"
tar -xzf "$sdist" -C "$work/sd/x"
top=$(ls "$work/sd/x")
cp "$work/npm/x/package/prebuilds/linux-x64/glibc/libsnowfleet_registry.so.1" "$work/sd/x/$top/"
tar -czf "$work/sdout/$(basename "$sdist")" -C "$work/sd/x" "$top"
expect_fail "sdist native" "$work/sdout" "a native file where no platform's belongs"

# module FLAGS...: a stand-in extension module for x86_64 glibc 2.17, built with FLAGS: its
# init function, a bounds-checked vector access and an assert(), and one more exported
# function. Prints its path.
module() {
  local src=$work/module.cc out
  out=$work/module-$#-$RANDOM.so
  cat >"$src" <<'EOF'
#include <cassert>
#include <vector>
extern "C" __attribute__((visibility("default"))) void* PyInit__snowfleet() {
  static std::vector<int> v(3);
  assert(!v.empty());
  return &v[2];
}
extern "C" __attribute__((visibility("default"))) int left_visible() { return 1; }
EOF
  "$here/../../out/dist-tools/bin/python" -m ziglang c++ -target x86_64-linux-gnu.2.17 -shared -fPIC \
    "$@" "$src" -o "$out"
  echo "$out"
}

# wheel_with MODULE DIR: DIR holds the x86_64 glibc wheel with MODULE as its extension.
wheel_with() {
  mkdir "$2"
  MODULE=$1 rezip "$whl" "$2/$(basename "$whl")" '
import os
for n in [n for n in files if n.startswith("snowfleet/_snowfleet.") and n.endswith(".so")]:
    files[n] = open(os.environ["MODULE"], "rb").read()'
}

wheel_with "$(module -O0 -Wl,--strip-all)" "$work/unopt"
expect_fail "unoptimised module" "$work/unopt" "is not a release build"
wheel_with "$(module -O2 -DNDEBUG -fvisibility=hidden -Wl,--strip-all)" "$work/exports"
expect_fail "module exports" "$work/exports" "symbol(s) its host does not load"

[ "$failures" = 0 ] || { echo "dist-check-test: $failures failed" >&2; exit 1; }
echo "dist-check-test: all passed"
