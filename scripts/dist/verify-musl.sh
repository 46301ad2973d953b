#!/usr/bin/env bash
# Proves a musl wheel for CPython 3.11 that scripts/dist/build.sh wrote (out/dist/), x86_64 or
# aarch64, on a musl CPython, which neither this machine nor Debian has, so one is built here:
# - musl: Debian 12's own musl 1.2.3 of that architecture (loader, libc, headers, the
#   musl-gcc specs), fetched with a private apt state and unpacked into out/dist-musl/root
#   (aarch64: out/dist-musl-aarch64/root; scripts/dist/apt-sysroot.sh). Nothing is
#   installed on the machine: Debian's musl package would put /lib/ld-musl-<arch>.so.1 there
#   for everyone, and arm64 packages would need an apt architecture added for everyone.
#   gcc (aarch64: Debian's gcc-aarch64-linux-gnu, a cross gcc whose musl-gcc specs work as the
#   native one's) compiles against it through a private copy of musl-gcc's specs whose paths
#   point into that directory.
# - CPython 3.11.2, the upstream source of Debian's python3.11 source package (apt-get
#   source), with zlib (pip reads wheels with it) and libffi (ctypes) from Debian's sources,
#   built with that gcc (aarch64: cross-built, pyenv's 3.11 as the build Python): a
#   dynamically linked interpreter, so it can load extension modules, whose extension suffix
#   is .cpython-311-<arch>-linux-musl.so. No OpenSSL: nothing is downloaded by it.
# - The wheel goes into a fresh venv of it by pip (which computes the musllinux tags it
#   accepts from the interpreter's loader, as on Alpine), mints ids, and the Python suite runs
#   against it; the test dependencies (pytest, hypothesis, snowflake-id) are the musllinux
#   wheels the host's pip fetches for that platform. The tests that start a Python
#   subprocess run too: x86_64 natively, aarch64 through the exec wrappers below.
# - The jar's and the npm tarball's musl libraries of that architecture, when the dist
#   directory has them, are loaded by musl's loader (no musl JVM or Node here; see the last
#   section).
#
# aarch64 runs under qemu-aarch64 (Debian's qemu-user) with -L out/dist-musl-aarch64/root,
# where the loader is /lib/ld-musl-aarch64.so.1 as on Alpine. Two files are exec'd by the
# host kernel, which cannot run aarch64 files without a binfmt_misc registration (a container
# has none): the loader named in the interpreter's ELF header (pip runs it to read the musl
# version: without it pip accepts no musllinux wheel) and the venv's python (the tests'
# subprocesses). Each is a shell script at its path on the host that runs the real file under
# qemu, while the same path inside the -L root is a link to the real file, which is what qemu
# and the emulated process open there (qemu looks a path up in the root first). Both live in
# /tmp/snowfleet-musl-aarch64-<hash of the work directory>, not in the checkout: the root's
# copies of their parent directories hide the host's from the emulated process when it lists
# one (pytest lists the checkout's), and nothing lists /tmp.
#
# Usage: bash scripts/dist/verify-musl.sh [--arch x86_64|aarch64] [DIST_DIR [PYTEST_ARGS...]]
#   (default x86_64, out/dist, the whole python/tests)
# The first run builds zlib, libffi and CPython (x86_64: 6 - 19 min on a loaded 2-core
# machine, aarch64 5 - 7 min more than a run without it); later runs reuse the build (x86_64
# about 75 s, aarch64 about 8.5 min: the suite is emulated). See docs/dist.md ("Verified on").
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/apt-sysroot.sh"
cd "$(repo_root)"
root=$PWD
arch=x86_64
if [ "${1:-}" = --arch ]; then
  arch=${2:?--arch takes x86_64 or aarch64}
  shift 2
fi
dist=${1:-out/dist}
shift || true  # the rest goes to pytest (test files or -k ..., to run a part)
case $arch in
  x86_64) deb_arch=amd64 node_arch=x64 work=$root/out/dist-musl gcc=gcc ;;
  aarch64) deb_arch=arm64 node_arch=arm64 work=$root/out/dist-musl-aarch64 gcc=aarch64-linux-gnu-gcc ;;
  *) echo "--arch $arch: want x86_64 or aarch64 (the musl targets scripts/dist/build.sh builds)" >&2; exit 2 ;;
esac
triple=$arch-linux-musl
shopt -s nullglob
wheels=("$dist"/snowfleet-*-cp311-cp311-musllinux_*_"$arch".whl)
[ ${#wheels[@]} = 1 ] || { echo "want one cp311 $arch musllinux wheel in $dist" >&2; exit 1; }
whl=$(readlink -f "${wheels[0]}")
musl=$work/root
loader=$musl/lib/ld-musl-$arch.so.1
# run CMD...: runs an $arch program: natively, or under qemu with the musl root as its /.
if [ "$arch" = x86_64 ]; then run() { "$@"; }; else run() { qemu-aarch64 -L "$musl" "$@"; }; fi
# qemu_exec PATH ELF: (aarch64) PATH, a file the host kernel execs, becomes a script running
# ELF under qemu as argv[0] PATH; PATH inside the musl root links to ELF, for qemu and the
# emulated process (see the header).
qemu_exec() {
  mkdir -p "$(dirname "$1")" "$musl$(dirname "$1")"
  rm -f "$1" "$musl$1"
  printf '#!/bin/sh\n# exec by the host kernel: qemu runs the aarch64 file\nexec qemu-aarch64 -L "%s" -0 "$0" "%s" "$@"\n' \
    "$musl" "$2" >"$1"
  chmod +x "$1"
  ln -s "$2" "$musl$1"
}

section "dist-verify (musl, $arch): Debian's musl and the CPython 3.11, zlib and libffi sources"
apt_install gcc make unzip python3-pip
[ "$arch" = x86_64 ] || apt_install gcc-aarch64-linux-gnu qemu-user
# The sources are the same for both architectures: out/dist-musl/apt/src holds them (an apt
# state with deb-src; musl's binary packages come through one of their architecture's).
src_apt=$root/out/dist-musl/apt
if ! ls "$src_apt"/src/libffi_*.orig.tar.* "$src_apt"/src/zlib_*.orig.tar.* \
  "$src_apt"/src/python3.11_*.orig.tar.* >/dev/null 2>&1; then
  apt_private "$src_apt" "" deb-src
  apt-get "${apt_opts[@]}" update -qq >/dev/null
  apt_source "$src_apt" python3.11 zlib libffi
fi
if [ ! -x "$loader" ]; then
  apt_private "$work/apt-$deb_arch" "$deb_arch"
  apt_sysroot "$work/apt-$deb_arch" "$musl" musl musl-dev musl-tools
fi
{ run "$loader" 2>&1 || true; } | sed -n 's/^/  /;1,2p'  # (its usage text, exit 1)

# gcc with musl's specs, every path in them moved into $musl but the loader's, which becomes
# $interp: the real one (x86_64, run natively from no root) or its qemu wrapper (aarch64,
# see the header); musl's libc.so sits in lib/$triple/. CPython's configure and
# setup.py ask for --print-multiarch / -print-multiarch, where gcc would answer
# $arch-linux-gnu (and setup.py would then add glibc's headers to every module's build).
cc=$work/musl-gcc
if [ "$arch" = x86_64 ]; then
  interp=$loader venv=$work/venv
else
  exec_dir=/tmp/snowfleet-musl-$arch-$(printf %s "$work" | md5sum | cut -c1-8)
  interp=$exec_dir/ld-musl-$arch.so.1 venv=$exec_dir/venv
fi
sed -e "s|/usr/include/$triple|$musl/usr/include/$triple|g" \
  -e "s|-L/usr/lib/$triple|-L$musl/lib/$triple -L$musl/usr/lib/$triple|" \
  -e "s|/usr/lib/$triple/|$musl/usr/lib/$triple/|g" \
  -e "s|/lib/ld-musl-$arch.so.1|$interp|" \
  "$musl/usr/lib/$triple/musl-gcc.specs" >"$work/musl-gcc.specs"
cat >"$cc" <<EOF
#!/bin/sh
for a in "\$@"; do case \$a in -print-multiarch | --print-multiarch) echo $triple; exit 0 ;; esac; done
exec $gcc "\$@" -specs "$work/musl-gcc.specs"
EOF
chmod +x "$cc"
[ "$arch" = x86_64 ] || qemu_exec "$interp" "$(readlink -f "$loader")"

py=$work/build/python
elf_interp() { readelf -l "$1" | sed -nE 's/.*program interpreter: (.*)\]/\1/p'; }
if [ "$arch" = x86_64 ]; then
  host=(--build=x86_64-pc-linux-musl --host=x86_64-pc-linux-musl)
  tools=()
else
  # A cross build runs pyenv's CPython 3.11 wherever the build runs Python (setup.py, the
  # frozen modules), and cannot probe what only running a program on the target would tell.
  # --build says musl too: 3.11.2's configure names the platform (the extension suffix's
  # aarch64-linux-musl) from the build system's libc, not the host's.
  build_py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.11.*/bin/python3 2>/dev/null | tail -n 1)
  [ -n "$build_py" ] || { echo "no CPython 3.11 under pyenv (the cross build's build Python)" >&2; exit 1; }
  host=(--build=x86_64-pc-linux-musl --host=aarch64-unknown-linux-musl --with-build-python="$build_py"
    ac_cv_file__dev_ptmx=yes ac_cv_file__dev_ptc=no ac_cv_buggy_getaddrinfo=no)
  tools=(AR=aarch64-linux-gnu-ar RANLIB=aarch64-linux-gnu-ranlib READELF=aarch64-linux-gnu-readelf
    STRIP=aarch64-linux-gnu-strip)
fi
if [ ! -x "$py" ] || [ "$(elf_interp "$py")" != "$interp" ] ||
  ! run "$py" -c 'import zlib, ctypes' 2>/dev/null; then
  section "dist-verify (musl, $arch): zlib, libffi and CPython 3.11 built against musl"
  start=$(date +%s)
  clibs=$work/clibs  # static zlib (pip reads wheels with it) and libffi (ctypes), -fPIC
  rm -rf "$work/zlib-src" "$work/ffi-src" "$clibs" "$work/Python-3.11"* "$work/build"
  mkdir "$work/zlib-src" "$work/ffi-src" "$work/build"
  tar -xf "$(ls "$src_apt"/src/zlib_*.orig.tar.*)" -C "$work/zlib-src" --strip-components=1
  (cd "$work/zlib-src" && env "${tools[@]}" CC="$cc" CFLAGS="-O2 -fPIC" ./configure --static --prefix="$clibs" &&
    nice -n 10 make -j2 libz.a && make install) >"$work/zlib.log" 2>&1 ||
    { tail -n 20 "$work/zlib.log" >&2; exit 1; }
  # (no static trampolines: their source wants the kernel's headers, which musl-dev lacks)
  tar -xf "$(ls "$src_apt"/src/libffi_*.orig.tar.*)" -C "$work/ffi-src" --strip-components=1
  (cd "$work/ffi-src" && env "${tools[@]}" CC="$cc" CFLAGS="-O2 -fPIC" ./configure "${host[@]:0:2}" \
    --disable-shared --enable-static --disable-docs --disable-multi-os-directory \
    --disable-exec-static-tramp --prefix="$clibs" &&
    nice -n 10 make -j2 && make install) >"$work/libffi.log" 2>&1 ||
    { tail -n 20 "$work/libffi.log" >&2; exit 1; }
  tar -xf "$(ls "$src_apt"/src/python3.11_*.orig.tar.*)" -C "$work"
  (cd "$work/build" && nice -n 10 "../Python-3.11"*/configure "${host[@]}" "${tools[@]}" \
    CC="$cc" CXX=/bin/false PKG_CONFIG=/bin/false CPPFLAGS="-I$clibs/include" LDFLAGS="-L$clibs/lib" \
    --without-ensurepip --disable-test-modules >"$work/configure.log" 2>&1 ||
    { tail -n 20 "$work/configure.log" >&2; exit 1; })
  (cd "$work/build" && nice -n 10 make -j2 >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log" >&2; exit 1; })
  run "$py" -c 'import zlib, ctypes' || { grep -A6 'Failed to build' "$work/make.log" >&2; exit 1; }
  echo "  built in $(($(date +%s) - start)) s"
fi
got=$(elf_interp "$py")
[ "$got" = "$interp" ] || { echo "FAIL $py runs on $got, not $interp" >&2; exit 1; }
run "$py" -c 'import platform, sys, sysconfig; print("  CPython", sys.version.split()[0], platform.machine(), "extension suffix", sysconfig.get_config_var("EXT_SUFFIX"))'
echo "  loader $interp"

section "dist-verify (musl, $arch): $(basename "$whl") in a fresh venv"
rm -rf "$venv" "$musl$venv"
run "$py" -m venv --without-pip "$venv"
[ "$arch" = x86_64 ] || qemu_exec "$venv/bin/python" "$py"
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
    --platform "musllinux_1_2_$arch" --python-version 3.11 --implementation cp --abi cp311 \
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
# (the loader is mapped by its real name: Debian's ld-musl-$arch.so.1 links to musl's libc.so)
(cd "$work" && MUSL_LIBC=$(readlink -f "$loader") "$venv/bin/python" -c '
import os, platform, snowfleet
gen = snowfleet.Generator(node_id=37)
ids = list(gen.next_ids(10000))
assert len(set(ids)) == len(ids) == 10000 and ids == sorted(ids), "ids not unique and increasing"
assert snowfleet.decode(ids[0]).node_id == 37
maps = open("/proc/self/maps").read()
assert os.environ["MUSL_LIBC"] in maps and "libc.so.6" not in maps, "not a musl process"
reg = [l.split()[-1] for l in maps.splitlines() if "libsnowfleet_registry" in l]
assert reg and all(r.startswith(snowfleet.__path__[0]) for r in reg), reg
print(" ", platform.machine(), "first id:", ids[0], "from", snowfleet.__file__)
print("  registry:", reg[0])')
echo "  wheel install + 10000 ids: $(( ($(date +%s%N) - start) / 1000000 )) ms"

# No musl JVM or Node is to be had here (Debian has none; the registries' JDK and Node
# binaries are glibc builds), so the jar's and the npm tarball's musl libraries are
# loaded by musl's own loader from a small C program instead: dependencies found (the registry
# beside each), every relocation resolved, static constructors run, the entry point there.
# The addon's napi_* functions, which only Node defines, come from a stand-in library made
# from the addon's own undefined napi_* symbols (each one aborts if called).
section "dist-verify (musl, $arch): the jar's and the npm tarball's $arch musl libraries, loaded"
"$cc" -std=c99 -O2 -o "$work/dlopen_check" scripts/dist/dlopen_check.c
jar=$dist/snowfleet-$(head -1 VERSION).jar
if [ -f "$jar" ] && unzip -l "$jar" "native/linux-$arch-musl/libsnowfleet_jni.so" >/dev/null; then
  rm -rf "$work/jar-musl" && mkdir "$work/jar-musl"
  unzip -q -j "$jar" "native/linux-$arch-musl/*" -d "$work/jar-musl"
  run "$work/dlopen_check" "$work/jar-musl/libsnowfleet_jni.so" \
    Java_dev_snowfleet_internal_jni_SnowfleetNativeJNI_generatorNextId
else
  echo "  no jar carrying native/linux-$arch-musl/ in $dist: skipped"
fi
tarballs=("$dist"/snowfleet-*.tgz)
# (the listing goes to a file: grep -q ending early would fail tar with SIGPIPE under pipefail)
[ ${#tarballs[@]} = 1 ] && tar -tzf "${tarballs[0]}" >"$work/npm.list" || : >"$work/npm.list"
if grep -qx "package/prebuilds/linux-$node_arch/snowfleet.musl.node" "$work/npm.list"; then
  rm -rf "$work/npm-musl" && mkdir "$work/npm-musl"
  tar -xzf "${tarballs[0]}" -C "$work/npm-musl" "package/prebuilds/linux-$node_arch"
  addon=$work/npm-musl/package/prebuilds/linux-$node_arch/snowfleet.musl.node
  readelf --dyn-syms -W "$addon" | awk '$7 == "UND" && $8 ~ /^(napi|node_api)_/ { print $8 }' |
    sed 's/@.*//' | sort -u | sed 's/.*/void &(void) { abort(); }/' |
    { echo '#include <stdlib.h>'; cat; } >"$work/napi_host.c"
  "$cc" -shared -fPIC -o "$work/napi_host.so" "$work/napi_host.c"
  echo "  stand-in for Node: $(grep -c abort "$work/napi_host.c") napi_* functions"
  run "$work/dlopen_check" --host "$work/napi_host.so" "$addon" napi_register_module_v1
else
  echo "  no npm tarball carrying prebuilds/linux-$node_arch/snowfleet.musl.node in $dist: skipped"
fi

section "dist-verify (musl, $arch): Python suite against the installed wheel"
# From outside the tree, so `import snowfleet` is the installed wheel. The bench smoke run
# needs the test-hooks module, which a release wheel never carries; the chart script's tests
# install matplotlib from PyPI into a venv of this interpreter, which has no ssl module (they
# test bench/chart.py, not the wheel: dist/verify.sh runs them). Under qemu, three are
# deselected: one assumes less than the mark keeper's half-second period passes between two
# calls (as in dist/verify-aarch64.sh: a loaded qemu saw the keeper's extra write); in
# test_exit's strict_single_ids scenario the emulated threads never mint a millisecond's
# sequence out, so its check that they were inside the core's waits fails (every exit in it
# was clean); and a child forked while a leased generator's mark keeper runs hangs inside
# qemu itself (its only guest thread waits on a futex in qemu's own memory before running
# any Python; Debian's arm64 glibc CPython does the same with the manylinux wheel, and the
# test passes natively), so the multiprocessing pre-fork test would never end.
slow=()
[ "$arch" = x86_64 ] ||
  slow=(--deselect python/tests/test_generator.py::test_a_leased_generator_reports_its_lease_and_mark_writes
    --deselect "python/tests/test_exit.py::test_exit_with_daemon_threads_minting_is_clean[strict_single_ids]"
    --deselect python/tests/test_prefork.py::test_multiprocessing_fork_workers_claim_their_own_slots)
start=$(date +%s)
(cd "$root/python/tests" && "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  --rootdir "$root" -c "$root/pyproject.toml" -rs \
  --deselect python/tests/test_bench.py::test_bench_smoke_run "${slow[@]}" \
  --ignore "$root/python/tests/test_bench_chart.py" "${@:-$root/python/tests}")
echo "dist-verify (musl, $arch): the suite took $(($(date +%s) - start)) s"
