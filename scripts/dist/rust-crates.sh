#!/usr/bin/env bash
# Packs the Rust crates for crates.io: snowfleet-sys carries a copy of core/ and VERSION
# (its build script compiles them; in a checkout it reads ../../core instead), then
# `cargo package` builds each .crate into out/cargo/package/ and, unless --no-verify is
# given, builds it from the packed sources alone. Publishing is `cargo publish -p
# snowfleet-sys` then `-p snowfleet`, from the same tree.
#   bash scripts/dist/rust-crates.sh [--no-verify]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sys="$root/rust/snowfleet-sys"
rm -rf "$sys/core"
mkdir -p "$sys/core"
cp -r "$root/core/include" "$root/core/src" "$root/core/sources.txt" "$sys/core/"
cp "$root/VERSION" "$sys/VERSION"
cd "$root/rust"
CARGO_TARGET_DIR="$root/out/cargo" cargo package --workspace --allow-dirty "$@"
ls -l "$root/out/cargo/package/"*.crate
