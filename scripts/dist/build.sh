#!/usr/bin/env bash
# Builds the installable artifacts into out/dist/ from this machine, for Linux x86_64 and
# aarch64, glibc and musl, and prints each one's size and platform tags.
#
# Toolchain: Zig's clang (`zig c++`, PyPI `ziglang`, pinned below) for every target. One
# pip package gives a cross compiler for all four targets with their libc (glibc stubs of
# any version, so the manylinux_2_17 baseline; musl) and a libc++ it links statically, which
# is what a Python extension, a Node addon or a JNI library is expected to carry. Debian's
# cross compilers would link against Debian 12's glibc 2.36 (manylinux_2_36 at best) and
# have no musl C++ toolchain.
#
# Node: one N-API addon per target, in the npm tarball's prebuilds/ where node-gyp-build
# picks it by arch and libc (scripts/dist/npm.sh).
#
# Python: pybind11 has no stable-ABI (abi3) build, so one wheel per CPython
# (SNOWFLEET_DIST_PYTHONS, default the pyenv 3.9 .. 3.13) per target; the platform tag is
# the one `auditwheel show` computes. Every native file is checked by scripts/dist/check.sh.
#
# Java: one jar carrying libsnowfleet_jni.so for every target under
# native/linux-<arch>-<gnu|musl>/ (java_jar below); NativeLoader picks one at load time.
#
# Environment: SNOWFLEET_DIST_TARGETS (default all four), SNOWFLEET_DIST_PYTHONS,
# SNOWFLEET_DIST_BUILD / SNOWFLEET_DIST_OUT (default out/dist-build, out/dist),
# SOURCE_DATE_EPOCH (default: the commit's time; in a tree that is not a git checkout, such
# as an unpacked `git archive` or release tarball, its newest file's time). See docs/dist.md.
#
#   bash scripts/dist/build.sh           # everything
#   bash scripts/dist/build.sh --epoch   # print the SOURCE_DATE_EPOCH it would use, and why
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

# source_date_epoch: sets SOURCE_DATE_EPOCH (every timestamp in the artifacts) and
# epoch_from. A value given must be a decimal count of seconds (zig refuses anything else,
# deep inside the first compile). Without one: the commit's time in a git checkout; in any
# other tree the newest file's modification time, which `git archive` sets to the commit's
# time for every file.
source_date_epoch() {
  if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    [[ $SOURCE_DATE_EPOCH =~ ^[0-9]+$ ]] || {
      echo "dist: SOURCE_DATE_EPOCH='$SOURCE_DATE_EPOCH' is not a number of seconds since 1970 (set it to one, or unset it)" >&2
      return 1
    }
    epoch_from="SOURCE_DATE_EPOCH"
  elif [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$PWD" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
    epoch_from="the commit's time ($(git rev-parse --short HEAD))"
  else
    SOURCE_DATE_EPOCH=$(find . \( -path ./out -o -path ./node_modules -o -path ./java/target \
      -o -path ./build \) -prune -o -type f -printf '%T@\n' | sort -n | tail -n 1)
    SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH%.*}
    [ -n "$SOURCE_DATE_EPOCH" ] || {
      echo "dist: not a git checkout and no file to date the tree by: set SOURCE_DATE_EPOCH" >&2
      return 1
    }
    epoch_from="the newest file's time (not a git checkout)"
  fi
  export SOURCE_DATE_EPOCH
}
source_date_epoch
if [ "${1:-}" = --epoch ]; then
  echo "$SOURCE_DATE_EPOCH $epoch_from"
  exit 0
fi
echo "dist: SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, $epoch_from"

targets=${SNOWFLEET_DIST_TARGETS:-"x86_64-linux-gnu x86_64-linux-musl aarch64-linux-gnu aarch64-linux-musl"}
pythons=${SNOWFLEET_DIST_PYTHONS:-"3.9 3.10 3.11 3.12 3.13"}
dist=${SNOWFLEET_DIST_OUT:-out/dist}
builds=${SNOWFLEET_DIST_BUILD:-out/dist-build}
. scripts/dist/zig-toolchain.sh

section "dist: tools (ziglang, pybind11, auditwheel, build) in $tools"
zig_tools_install

. scripts/dist/auditwheel-tag.sh

# python_venv V: out/dist-tools/pyV, a venv of CPython V (pyenv's) with the wheel's build
# backend pinned; prints its python.
python_venv() {
  local v=$1 py venv=$tools/py$1
  if [ ! -x "$venv/bin/python" ]; then
    py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python3 2>/dev/null | tail -n 1)
    [ -n "$py" ] || { echo "dist: no CPython $v under pyenv" >&2; return 1; }
    "$py" -m venv "$venv" >&2
  fi
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    scikit-build-core==1.1.2 pybind11==2.13.6 >&2
  echo "$venv/bin/python"
}

# python_wheel T V: the wheel of CPython V for target T, built as `pip install .` builds one
# (scikit-build-core, pyproject.toml) with T's zig toolchain file, in a fresh build directory
# (zig's cache serves the objects other wheels of T compiled). What a cross build must be
# told: the module's name for T (pybind11 would take the build machine's), and the wheel's
# platform, T's libc baseline, which auditwheel must compute from the wheel too.
python_wheel() {
  local t=$1 v=$2 arch=${1%%-*} libc=${1##*-} python build out plat tags wheel computed
  python=$(python_venv "$v")
  build=$root/$builds/$t-py$v out=$root/$builds/$t-py$v.wheel
  rm -rf "$build" "$out" && mkdir -p "$root/$builds"
  plat=$(zig_wheel_platform "$t")
  mapfile -t tags < <(python3 scripts/dist/wheel_tags.py "cp${v/./}" "$plat")
  local settings=(build-dir="$build" wheel.reproducible=true
    cmake.define.CMAKE_TOOLCHAIN_FILE="$root/$tools/zig-$t.cmake"
    cmake.define.PYTHON_MODULE_EXTENSION=".cpython-${v/./}-$arch-linux-$libc.so"
    cmake.define.PYTHON_IS_DEBUG=OFF cmake.define.PYTHON_MODULE_DEBUG_POSTFIX=)
  local args=() s
  for s in "${settings[@]}"; do args+=(--config-settings="$s"); done
  for s in "${tags[@]}"; do args+=(--config-settings="wheel.tags=$s"); done
  CMAKE_BUILD_PARALLEL_LEVEL=2 nice -n 15 "$python" -m pip wheel -q --disable-pip-version-check \
    --no-deps --no-build-isolation -w "$out" "${args[@]}" . >"$build.log" 2>&1 ||
    { tail -n 40 "$build.log" >&2; return 1; }
  release_flags_check "$build"
  wheel=$(ls "$out"/*.whl)
  computed=$(auditwheel_tag "$tools/bin/auditwheel" "$wheel")
  [ "$computed" = "$plat" ] || {
    "$tools/bin/auditwheel" show "$wheel" >&2
    echo "dist: $wheel is for $plat, auditwheel show computes '${computed:-no tag}'" >&2
    return 1
  }
  # The name lists auditwheel's tag first, as `auditwheel repair` names a wheel (the WHEEL
  # file lists every tag; the order in the name carries no meaning to pip).
  mv "$wheel" "$dist/snowfleet-$(head -1 VERSION)-$(python3 scripts/dist/wheel_tags.py \
    --name "cp${v/./}" "$plat").whl"
  rm -rf "$out"
}

rm -rf "$dist" && mkdir -p "$dist"
for t in $targets; do
  zig_wrappers "$t"
  for v in $pythons; do
    section "dist: Python $v wheel for $t"
    python_wheel "$t" "$v"
  done
done

# --- Java: one jar, every target ---------------------------------------------------------
# java_jar: cross-builds the JNI library (with the id-space registry beside it) for each
# target against the JDK's jni.h (the headers are all a cross build takes from the JDK; the
# JNI types are the same on every LP64 Linux), lays them out as native/linux-<arch>-<libc>/,
# and lets Maven compile the classes around them (-Dsnowfleet.skipNative: no host build;
# tests skipped: scripts/test/java.sh runs them) into snowfleet-VERSION.jar with its
# -sources and -javadoc jars. Then the jar is loaded and mints on this machine.
java_jar() {
  local java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
  bash scripts/test/java.sh --install-only >/dev/null
  local jb=$root/$builds/java t build plat
  rm -rf "$jb" && mkdir -p "$jb/classes/native"
  for t in $targets; do
    section "dist: Java native library for $t"
    zig_wrappers "$t"
    build=$builds/$t-java
    mkdir -p "$build"
    # (the directories are given each time: a build directory's cache may hold others)
    cmake_cross "$t" "$build" -DSNOWFLEET_BUILD_JAVA=ON -DJAVA_HOME="$java_home" \
      -DSNOWFLEET_JAVA_RESOURCES_DIR="$root/$build/java-resources" \
      -DSNOWFLEET_JAVA_SOURCES_DIR="$root/$build/java-sources"
    rm -rf "$build/java-resources"
    nice -n 15 cmake --build "$build" -j2 --target snowfleet_jni >/dev/null
    # the platform CMake read from the compiler must be the one this target is
    plat=linux-${t%%-*}-${t##*-}
    [ "$(ls "$build/java-resources/native")" = "$plat" ] ||
      { echo "dist: $t built native/$(ls "$build/java-resources/native"), not $plat" >&2; exit 1; }
    cp -r "$build/java-resources/native/$plat" "$jb/classes/native/"
    # SWIG's Java proxies are the same for every target
    [ -d "$jb/generated-sources/swig" ] || { mkdir -p "$jb/generated-sources" &&
      cp -r "$build/java-sources" "$jb/generated-sources/swig"; }
  done
  section "dist: Java jar (classes, sources, javadoc)"
  JAVA_HOME=$java_home PATH=$java_home/bin:$PATH mvn -B -q -ntp -Dstyle.color=never -f java/pom.xml package \
    -Dsnowfleet.buildDirectory="$jb" -Dsnowfleet.skipNative=true -Dmaven.test.skip=true \
    -Dproject.build.outputTimestamp="$SOURCE_DATE_EPOCH"
  local v
  v=$(head -1 VERSION)
  cp "$jb/snowfleet-$v.jar" "$jb/snowfleet-$v-sources.jar" "$jb/snowfleet-$v-javadoc.jar" "$dist/"
  echo "snowfleet-$v.jar carries:" $("$java_home/bin/jar" tf "$dist/snowfleet-$v.jar" |
    sed -n 's|^native/\([^/]*\)/libsnowfleet_jni.so$|\1|p')
  # (a reduced SNOWFLEET_DIST_TARGETS may leave this machine's platform out of the jar)
  case " $targets " in
    *" $(uname -m)-linux-gnu "*)
      section "dist: the jar loads and mints on this machine"
      "$java_home/bin/java" -cp "$dist/snowfleet-$v.jar" scripts/dist/JarSmoke.java ;;
    *) echo "dist: the jar carries no $(uname -m)-linux-gnu library; not loaded here" ;;
  esac
}
java_jar

section "dist: sdist (builds from source anywhere else)"
"$tools/bin/python" -m build --sdist --outdir "$dist" . >/dev/null

# The npm tarball: the Node addon for every target as a prebuild (scripts/dist/npm.sh).
. scripts/dist/npm.sh
# shellcheck disable=SC2086 # $targets is a list
dist_npm "$dist" "$builds" $targets

section "dist: artifacts (bytes, name, platforms) and their checks"
bash scripts/dist/check.sh "$dist"
# what surrounds the native files: console script, LICENSE, metadata, one version
python3 tests/packaging/check_release.py "$dist"
echo "dist: done in $SECONDS s"
