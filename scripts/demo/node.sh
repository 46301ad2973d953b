#!/usr/bin/env bash
# Mints and decodes a few ids from Node.js. Builds the package first if this checkout has
# not been built (npm ci compiles the addon; see scripts/test/node.sh for the toolchain).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
if ! node -e "require('./node/index.js')" >/dev/null 2>&1; then
  if [ -z "${npm_config_nodedir:-}" ]; then
    prefix=$(node -p 'path.dirname(path.dirname(process.execPath))')
    [ -f "$prefix/include/node/node_api.h" ] || { apt_install libnode-dev; prefix=/usr; }
    export npm_config_nodedir="$prefix"
  fi
  section "node: building the addon (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
section "node: mint and decode"
node node/demo.js
