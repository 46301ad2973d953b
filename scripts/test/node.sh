#!/usr/bin/env bash
# The Node.js package, on a fresh Debian 12 machine (root or sudo): installs the toolchain,
# builds the addon from this checkout exactly as a user would (`npm ci` runs the package's
# install script, node-gyp-build, which compiles from source when no prebuild fits), runs
# every test with `npm test` (node --test: unit tests, every conformance case, tsc on the
# type declarations, worker_threads), then checks the npm tarball twice in fresh projects:
# a source build from the tarball alone, and the prebuildify path with no compiler run.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

section "node: toolchain"
command -v node >/dev/null || apt_install nodejs
command -v npm >/dev/null || apt_install npm
command -v python3 >/dev/null || apt_install python3
command -v g++ >/dev/null || apt_install g++
command -v make >/dev/null || apt_install make
# The etcd node source is compiled in when these are present (node/tools/etcd_probe.js);
# install them so the suite exercises that build. SNOWFLEET_ETCD=OFF tests the build without.
if [ "${SNOWFLEET_ETCD:-AUTO}" != OFF ]; then
  apt_install pkg-config libcurl4-openssl-dev nlohmann-json3-dev
fi
# node-gyp must not download Node headers (no access to nodejs.org here): point it at the
# headers installed with this Node (or Debian's libnode-dev). An explicit
# npm_config_nodedir wins.
if [ -z "${npm_config_nodedir:-}" ]; then
  prefix=$(node -p 'path.dirname(path.dirname(process.execPath))')
  [ -f "$prefix/include/node/node_api.h" ] || { apt_install libnode-dev; prefix=/usr; }
  export npm_config_nodedir="$prefix"
fi
export npm_config_jobs=max npm_config_audit=false npm_config_fund=false npm_config_loglevel=error
echo "node $(node --version), npm $(npm --version), headers from $npm_config_nodedir"

section "node: npm ci (compiles the addon from source through the install script)"
rm -rf build prebuilds
npm ci
test -f build/Release/snowfleet.node
# etcd_probe.js decided whether the addon carries the etcd node source (npm test checks
# what etcd:// answers); either way it loads libcurl at run time, never links it.
! readelf -d build/Release/snowfleet.node | grep -q 'NEEDED.*libcurl' ||
  { echo "the addon links libcurl" >&2; exit 1; }
echo "addon etcd node source: $(node node/tools/etcd_probe.js) (1: compiled in), libcurl not linked"

section "node: npm test"
npm test

section "node: the CLI tests against node/cli.js (the package's bin: the core's CLI)"
SNOWFLEET_CLI="node node/cli.js" bash tests/cli_test.sh

section "node: the npm tarball carries only what it builds from"
python3 tests/packaging/check_archives.py npm | tail -n 1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check_app() {  # check_app DIR EXPECTED_PATH_PART: mint/decode from CJS and ESM in DIR
  (cd "$1" && node -e "
    const sf = require('snowfleet');
    const where = require('node-gyp-build').resolve(require('path').dirname(require.resolve('snowfleet/package.json')));
    if (!where.includes('$2')) throw new Error('addon loaded from ' + where + ', expected $2');
    const g = new sf.Generator({ nodeId: 37 });
    const id = g.nextId();
    if (sf.decode(id).nodeId !== 37) throw new Error('bad decode');
    console.log('  CJS ok:', String(id), 'from', where.replace(process.cwd() + '/', ''));" &&
   node --input-type=module -e "
    import { Generator, decode } from 'snowfleet';
    const s = new Generator({ nodeId: 5 }).nextIdString();
    if (decode(s).nodeId !== 5) throw new Error('bad decode');
    console.log('  ESM ok:', s);")
}

# pack_stage: packs the tarball as scripts/dist/build.sh does, from a stage with node/README.md as
# the README (node/tools/stage_package.js) plus this checkout's prebuilds/, if any.
pack_stage() {
  rm -rf "$work/stage"
  node node/tools/stage_package.js "$work/stage"
  [ ! -d prebuilds ] || cp -r prebuilds "$work/stage/"
  (cd "$work/stage" && npm pack --silent --ignore-scripts --pack-destination "$work" | tail -n 1)
}

section "node: npm pack -> install in a fresh project (source build from the tarball)"
tarball=$(pack_stage)
mkdir "$work/src-app" && (cd "$work/src-app" && npm init -y >/dev/null && npm install "$work/$tarball" >/dev/null)
check_app "$work/src-app" "build/Release"
[ "$(cd "$work/src-app" && npx --no-install snowfleet --version)" = "snowfleet $(head -1 VERSION)" ] ||
  { echo "npx snowfleet --version failed in the installed app" >&2; exit 1; }

section "node: npm run prebuild + npm pack -> install with no compiler needed"
npm run prebuild >/dev/null 2>&1
ls prebuilds/*/
# Prebuilds carry the etcd node source but must load on machines without libcurl.
! readelf -d prebuilds/*/*.node | grep -q 'NEEDED.*libcurl' ||
  { echo "the prebuild links libcurl" >&2; exit 1; }
rm -f "$work/$tarball"
tarball=$(pack_stage)
mkdir "$work/pre-app"
# A bogus header dir makes any attempt to compile fail: the prebuild must be used.
(cd "$work/pre-app" && npm init -y >/dev/null &&
  npm_config_nodedir=/nonexistent-node-headers npm install "$work/$tarball" >/dev/null)
test ! -e "$work/pre-app/node_modules/snowfleet/build" || { echo "a source build ran" >&2; exit 1; }
check_app "$work/pre-app" "prebuilds/"
rm -rf prebuilds
npm run compile >/dev/null 2>&1  # leave this checkout's own build in place

echo "node: all checks passed"
