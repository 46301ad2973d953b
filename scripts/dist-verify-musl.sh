#!/usr/bin/env bash
# Proves the x86_64 musl wheel for CPython 3.11 that scripts/dist.sh wrote (out/dist/) on a
# musl CPython, which neither this machine nor Debian has, so one is built here:
# - musl: Debian 12's own musl 1.2.3 (loader, libc, headers, the musl-gcc specs), fetched with a
#   private apt state and unpacked into out/dist-musl/root. Nothing is installed on the
#   machine: Debian's musl package would put /lib/ld-musl-x86_64.so.1 there for everyone.
#   gcc compiles against it through a private copy of musl-gcc's specs whose paths, the
#   dynamic loader's included, point into that directory.
# - CPython 3.11.2, the upstream source of Debian's python3.11 source package (apt-get
#   source), with zlib (pip reads wheels with it) and libffi (ctypes) from Debian's sources,
#   built with that gcc: a dynamically linked interpreter, so it can load extension modules,
#   whose extension suffix is .cpython-311-x86_64-linux-musl.so. No OpenSSL: nothing is
#   downloaded by it.
# - The wheel goes into a fresh venv of it by pip (which computes the musllinux tags it
#   accepts from the interpreter's loader, as on Alpine), mints ids, and the Python suite runs
#   against it; the test dependencies (pytest, hypothesis, snowflake-id) are the musllinux
#   wheels the host's pip fetches for that platform. The interpreter runs natively,
#   so the tests that start a Python subprocess run too.
# - The jar's and the npm tarball's x86_64 musl libraries, when out/dist has them, are loaded
#   by musl's loader (no musl JVM or Node here; see the last section).
#
# Usage: bash scripts/dist-verify-musl.sh [DIST_DIR]   (default out/dist)
# The first run builds zlib, libffi and CPython (7 - 19 min on a loaded 2-core machine);
# later runs reuse out/dist-musl/build (about 75 s). See docs/dist.md ("Verified on").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
root=$PWD
dist=${1:-out/dist}
shopt -s nullglob
wheels=("$dist"/snowfleet-*-cp311-cp311-musllinux_*_x86_64.whl)
[ ${#wheels[@]} = 1 ] || { echo "want one cp311 x86_64 musllinux wheel in $dist" >&2; exit 1; }
whl=$(readlink -f "${wheels[0]}")
work=$root/out/dist-musl
musl=$work/root

section "dist-verify (musl): Debian's musl and the CPython 3.11, zlib and libffi sources"
apt_install gcc make unzip python3-pip
apt_dir=$work/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" \
  "$apt_dir/src" "$apt_dir/parts"
touch "$apt_dir/status"
# The machine's own package sources, with their source packages too (deb-src), but for the
# security suites: the mirror here serves none of theirs, and an apt-get source that picks a
# security update's version then fails.
for f in /etc/apt/sources.list.d/*.sources; do
  awk -v RS= -v ORS='\n\n' '!/Suites:[^\n]*-security/ { sub(/Types: deb\n/, "Types: deb deb-src\n") } 1' \
    "$f" >"$apt_dir/parts/${f##*/}"
done
{ grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null || true; } |
  sed '/-security/!{p;s/^deb /deb-src /}' >"$apt_dir/sources.list"
apt_opts=(-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
  -o "Dir::State::status=$apt_dir/status" -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/parts")
if [ ! -x "$musl/lib/ld-musl-x86_64.so.1" ] || ! ls "$apt_dir"/src/libffi_*.orig.tar.* >/dev/null 2>&1; then
  apt-get "${apt_opts[@]}" update -qq >/dev/null
  (cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" download musl musl-dev musl-tools >/dev/null 2>&1)
  (cd "$apt_dir/src" && apt-get "${apt_opts[@]}" source --download-only python3.11 zlib libffi >/dev/null 2>&1)
  rm -rf "$musl" && mkdir -p "$musl"
  for d in "$apt_dir"/debs/*.deb; do dpkg-deb -x "$d" "$musl"; done
fi
{ "$musl/lib/ld-musl-x86_64.so.1" 2>&1 || true; } | sed -n 's/^/  /;1,2p'  # (its usage text, exit 1)

# gcc with musl's specs, every path in them (the loader's too) moved into $musl; musl's
# libc.so sits in lib/x86_64-linux-musl/. CPython's configure and setup.py ask for
# --print-multiarch / -print-multiarch, where gcc would answer x86_64-linux-gnu (and
# setup.py would then add glibc's /usr/include/x86_64-linux-gnu to every module's build).
cc=$work/musl-gcc
sed -e "s|/usr/include/x86_64-linux-musl|$musl/usr/include/x86_64-linux-musl|g" \
  -e "s|-L/usr/lib/x86_64-linux-musl|-L$musl/lib/x86_64-linux-musl -L$musl/usr/lib/x86_64-linux-musl|" \
  -e "s|/usr/lib/x86_64-linux-musl/|$musl/usr/lib/x86_64-linux-musl/|g" \
  -e "s|/lib/ld-musl-x86_64.so.1|$musl/lib/ld-musl-x86_64.so.1|" \
  "$musl/usr/lib/x86_64-linux-musl/musl-gcc.specs" >"$work/musl-gcc.specs"
cat >"$cc" <<EOF
#!/bin/sh
for a in "\$@"; do case \$a in -print-multiarch | --print-multiarch) echo x86_64-linux-musl; exit 0 ;; esac; done
exec gcc "\$@" -specs "$work/musl-gcc.specs"
EOF
chmod +x "$cc"

py=$work/build/python
if [ ! -x "$py" ] || ! "$py" -c 'import zlib, ctypes' 2>/dev/null; then
  section "dist-verify (musl): zlib, libffi and CPython 3.11 built against musl"
  start=$(date +%s)
  clibs=$work/clibs  # static zlib (pip reads wheels with it) and libffi (ctypes), -fPIC
  rm -rf "$work/zlib-src" "$work/ffi-src" "$clibs" "$work/Python-3.11"* "$work/build"
  mkdir "$work/zlib-src" "$work/ffi-src" "$work/build"
  tar -xf "$(ls "$apt_dir"/src/zlib_*.orig.tar.*)" -C "$work/zlib-src" --strip-components=1
  (cd "$work/zlib-src" && CC=$cc CFLAGS="-O2 -fPIC" ./configure --static --prefix="$clibs" &&
    nice -n 10 make -j2 libz.a && make install) >"$work/zlib.log" 2>&1 ||
    { tail -n 20 "$work/zlib.log" >&2; exit 1; }
  # (no static trampolines: their source wants the kernel's headers, which musl-dev lacks)
  tar -xf "$(ls "$apt_dir"/src/libffi_*.orig.tar.*)" -C "$work/ffi-src" --strip-components=1
  (cd "$work/ffi-src" && CC=$cc CFLAGS="-O2 -fPIC" ./configure --disable-shared --enable-static \
    --disable-docs --disable-multi-os-directory --disable-exec-static-tramp --prefix="$clibs" &&
    nice -n 10 make -j2 && make install) >"$work/libffi.log" 2>&1 ||
    { tail -n 20 "$work/libffi.log" >&2; exit 1; }
  tar -xf "$(ls "$apt_dir"/src/python3.11_*.orig.tar.*)" -C "$work"
  (cd "$work/build" && nice -n 10 "../Python-3.11"*/configure \
    --build=x86_64-pc-linux-musl --host=x86_64-pc-linux-musl CC="$cc" CXX=/bin/false \
    PKG_CONFIG=/bin/false CPPFLAGS="-I$clibs/include" LDFLAGS="-L$clibs/lib" \
    --without-ensurepip --disable-test-modules >"$work/configure.log" 2>&1 ||
    { tail -n 20 "$work/configure.log" >&2; exit 1; })
  (cd "$work/build" && nice -n 10 make -j2 >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log" >&2; exit 1; })
  "$py" -c 'import zlib, ctypes' || { grep -A6 'Failed to build' "$work/make.log" >&2; exit 1; }
  echo "  built in $(($(date +%s) - start)) s"
fi
interp=$(readelf -l "$py" | sed -nE 's/.*program interpreter: (.*)\]/\1/p')
[ "$interp" = "$musl/lib/ld-musl-x86_64.so.1" ] || { echo "FAIL $py runs on $interp" >&2; exit 1; }
"$py" -c 'import sys, sysconfig; print("  CPython", sys.version.split()[0], "extension suffix", sysconfig.get_config_var("EXT_SUFFIX"))'
echo "  loader $interp"

section "dist-verify (musl): $(basename "$whl") in a fresh venv"
venv=$work/venv
rm -rf "$venv"
"$py" -m venv --without-pip "$venv"
pip=("$venv/bin/python" "$(ls "$work"/Python-3.11*/Lib/ensurepip/_bundled/pip-*.whl)/pip")
# The test dependencies as musllinux wheels, fetched by the host's pip (the musl CPython has
# no ssl module), on the venv's path through a .pth file. Not mypy (the typing tests skip:
# nothing there is about the platform), nor gunicorn (imports ssl; its prefork test skips),
# nor numpy (its tests skip): its musllinux_1_2 wheel
# carries libgcc_s and libstdc++ linked with packed relative relocations
# (DT_RELR), which musl loads from 1.2.4 on; Debian's 1.2.3 maps them and then jumps to an
# unrelocated address (SIGSEGV on import).
deps=$work/site-deps
if [ ! -d "$deps/snowflake" ]; then
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --target "$deps" \
    --only-binary :all: \
    --platform musllinux_1_2_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
    pytest hypothesis snowflake-id
fi
echo "$deps" >"$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/test-deps.pth"
# The wheel's own files must load on every musl 1.2: no DT_RELR (see above).
for f in $(unzip -Z1 "$whl" | grep -E '\.so(\.[0-9]+)?$'); do
  unzip -p "$whl" "$f" >"$work/elf"
  if readelf -d "$work/elf" | grep -q '(RELR)'; then
    echo "FAIL $f has DT_RELR relocations: musl before 1.2.4 cannot load it" >&2
    exit 1
  fi
done
rm -f "$work/elf"
start=$(date +%s%N)
# pip accepts the wheel only if its tag is one this interpreter supports (musllinux_1_2 and
# older: pip reads the musl version from the loader named in the interpreter's ELF header).
"${pip[@]}" install -q --disable-pip-version-check --no-index --no-deps "$whl"
# (the loader is mapped by its real name: Debian's ld-musl-x86_64.so.1 links to musl's libc.so)
(cd "$work" && MUSL_LIBC=$(readlink -f "$interp") "$venv/bin/python" -c '
import os, snowfleet
gen = snowfleet.Generator(node_id=37)
ids = list(gen.next_ids(10000))
assert len(set(ids)) == len(ids) == 10000 and ids == sorted(ids), "ids not unique and increasing"
assert snowfleet.decode(ids[0]).node_id == 37
maps = open("/proc/self/maps").read()
assert os.environ["MUSL_LIBC"] in maps and "libc.so.6" not in maps, "not a musl process"
reg = [l.split()[-1] for l in maps.splitlines() if "libsnowfleet_registry" in l]
assert reg and all(r.startswith(snowfleet.__path__[0]) for r in reg), reg
print("  first id:", ids[0], "from", snowfleet.__file__)
print("  registry:", reg[0])')
echo "  wheel install + 10000 ids: $(( ($(date +%s%N) - start) / 1000000 )) ms"

section "dist-verify (musl): Python suite against the installed wheel"
# From outside the tree, so `import snowfleet` is the installed wheel. The bench smoke run
# needs the test-hooks module, which a release wheel never carries; the chart script's tests
# install matplotlib from PyPI into a venv of this interpreter, which has no ssl module (they
# test bench/chart.py, not the wheel: dist-verify.sh runs them).
(cd "$root/python/tests" && "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  --rootdir "$root" -c "$root/pyproject.toml" "$root/python/tests" -rs \
  --deselect python/tests/test_bench.py::test_bench_smoke_run \
  --ignore "$root/python/tests/test_bench_chart.py")

# No musl JVM or Node is to be had here (Debian has none; the registries' JDK and Node
# binaries are glibc builds), so the jar's and the npm tarball's x86_64 musl libraries are
# loaded by musl's own loader from a small C program instead: dependencies found (the registry
# beside each), every relocation resolved, static constructors run, the entry point there.
# The addon's napi_* functions, which only Node defines, come from a stand-in library made
# from the addon's own undefined napi_* symbols (each one aborts if called).
section "dist-verify (musl): the jar's and the npm tarball's x86_64 musl libraries, loaded"
"$cc" -std=c99 -O2 -o "$work/dlopen_check" scripts/packaging/dlopen_check.c
jar=$dist/snowfleet-$(head -1 VERSION).jar
if [ -f "$jar" ] && unzip -l "$jar" native/linux-x86_64-musl/libsnowfleet_jni.so >/dev/null; then
  rm -rf "$work/jar-musl" && mkdir "$work/jar-musl"
  unzip -q -j "$jar" 'native/linux-x86_64-musl/*' -d "$work/jar-musl"
  "$work/dlopen_check" "$work/jar-musl/libsnowfleet_jni.so" \
    Java_dev_snowfleet_internal_jni_SnowfleetNativeJNI_generatorNextId
else
  echo "  no jar carrying native/linux-x86_64-musl/ in $dist: skipped"
fi
tarballs=("$dist"/snowfleet-*.tgz)
# (the listing goes to a file: grep -q ending early would fail tar with SIGPIPE under pipefail)
[ ${#tarballs[@]} = 1 ] && tar -tzf "${tarballs[0]}" >"$work/npm.list" || : >"$work/npm.list"
if grep -qx package/prebuilds/linux-x64/snowfleet.musl.node "$work/npm.list"; then
  rm -rf "$work/npm-musl" && mkdir "$work/npm-musl"
  tar -xzf "${tarballs[0]}" -C "$work/npm-musl" package/prebuilds/linux-x64
  addon=$work/npm-musl/package/prebuilds/linux-x64/snowfleet.musl.node
  readelf --dyn-syms -W "$addon" | awk '$7 == "UND" && $8 ~ /^(napi|node_api)_/ { print $8 }' |
    sed 's/@.*//' | sort -u | sed 's/.*/void &(void) { abort(); }/' |
    { echo '#include <stdlib.h>'; cat; } >"$work/napi_host.c"
  "$cc" -shared -fPIC -o "$work/napi_host.so" "$work/napi_host.c"
  echo "  stand-in for Node: $(grep -c abort "$work/napi_host.c") napi_* functions"
  "$work/dlopen_check" --host "$work/napi_host.so" "$addon" napi_register_module_v1
else
  echo "  no npm tarball carrying prebuilds/linux-x64/snowfleet.musl.node in $dist: skipped"
fi
