#!/usr/bin/env bash
# The CLI demo (formerly the main job): builds the snowfleet CLI on a fresh Debian 12 machine and uses it to mint
# ids and decode them back (time in ISO-8601 UTC, node, sequence).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
apt_install g++ cmake ninja-build >/dev/null
cmake -S . -B out/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build out/release --target snowfleet >/dev/null
cli=out/release/core/snowfleet

section "mint 5 ids as node 37 (strict mode, default layout 41.10.12@2024-01-01)"
ids=$("$cli" next --node 37 -n 5)
echo "$ids"
section "decode them"
# shellcheck disable=SC2086
"$cli" decode $ids
section "the reference's worked examples"
"$cli" decode 141264821508263936 141264821510144037
"$cli" decode --layout twitter 1724551110457221119
section "the layout's arithmetic"
"$cli" layout
