#!/usr/bin/env bash
# The core's Catch2 suite cross-built for aarch64 (glibc 2.17 baseline, the toolchain of the
# release artifacts: scripts/dist/zig-toolchain.sh) and run under Debian's qemu-user. aarch64 has
# no TSC, so this is where the clock's fallback path (a real clock_gettime on every read)
# runs the whole suite, the multi-threaded uniqueness tests included.
#
# Excluded (the test spec below): the hidden [.etcd] tests, as everywhere; the two that
# need a libcurl to load ([etcd-offline], and "etcd:// without libcurl ...", which loads it
# after checking the "missing" error), because libc6-arm64-cross has no aarch64 libcurl;
# and [fork] (the tests that fork beside a running thread), because Debian 12's qemu-user 7.2 aborts in a child forked while
# the parent runs other threads (assertion in qemu's plugins/core.c), a qemu bug. The
# multi-process storm (fork with no threads yet) runs. And [thread-cancel] (3 tests,
# pthread_cancel of a claimant): the emulated build crashes in the cancellation's unwinding
# (SIGSEGV with libgcc-s1-arm64-cross installed; without it glibc aborts for want of
# libgcc_s.so.1). The toolchain's libc++ carries LLVM's unwinder while glibc's cancellation
# unwinds through libgcc_s; not yet known whether native aarch64 does the same.
#
# Run by scripts/test/core.sh (on by default), then the CLI tests against the aarch64
# executable. From a clean clone (cold zig cache: zig's libc++ for aarch64 is built once into
# out/dist-tools/zig-cache) it took 9.5 min of CPU (user+sys), about 5 min on two idle cores;
# the emulated suite took 217 s on a machine loaded far beyond its 2 cores (~1 min idle).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
. scripts/dist/zig-toolchain.sh

t=aarch64-linux-gnu
build=out/aarch64-tests
sysroot=/usr/aarch64-linux-gnu

section "core (aarch64): toolchain (zig, qemu-user, the aarch64 glibc)"
apt_install qemu-user libc6-arm64-cross
zig_tools_install
zig_wrappers "$t"

section "core (aarch64): cross build of the Catch2 suite"
emulator="qemu-aarch64;-L;$sysroot"
cmake_cross "$t" "$build" -DSNOWFLEET_BUILD_TESTS=ON -DSNOWFLEET_BUILD_CLI=ON -DSNOWFLEET_INSTALL=OFF \
  -DCatch2_DIR="$PWD/scripts/dist/cmake/Catch2" -DCMAKE_MODULE_PATH=/usr/lib/cmake/Catch2 \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$emulator"
nice -n 15 cmake --build "$build" -j2 --target snowfleet_tests snowfleet >/dev/null
file -b "$build/tests/snowfleet_tests" | cut -d, -f1-2

section "core (aarch64): Catch2 suite under qemu-aarch64"
start=$(date +%s)
# The build tree's executables find the id-space registry library through this (the
# guest's loader reads the environment qemu passes on).
export LD_LIBRARY_PATH=$PWD/$build/core
(cd "$build/tests" && timeout 600 qemu-aarch64 -L "$sysroot" ./snowfleet_tests '~[.]' '~[etcd-offline]' \
  '~etcd:// without libcurl*' '~[fork]' '~[thread-cancel]')
echo "core (aarch64): suite passed under qemu in $(($(date +%s) - start)) s"

section "core (aarch64): CLI tests against the aarch64 executable under qemu"
SNOWFLEET_CLI="qemu-aarch64 -L $sysroot $build/core/snowfleet" bash tests/cli_test.sh
