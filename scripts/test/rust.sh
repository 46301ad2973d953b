#!/usr/bin/env bash
# The Rust crates (rust/): snowfleet-sys builds the core from this checkout with the `cc`
# crate (optimized once, in out/cargo), then: rustfmt, clippy with warnings as errors, every
# test (the declarations against snowfleet.h, every conformance vector, leasing from a local:
# registry, the doc examples) with and without the optional features, one id space shared
# with another copy of the core in the process (libsnowfleet.so.0, built here with CMake,
# loaded before and after the Rust copy), and a program in a temporary directory outside the
# repository that depends on the crate as rust/README.md says and mints. About 5 min of CPU
# from clean: the core's C++ twice (cargo, CMake), then the crates and the doc examples.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
root=$(repo_root)
cd "$root/rust"

section "rust: toolchain"
command -v g++ >/dev/null || apt_install g++
command -v cmake >/dev/null || apt_install cmake
# Debian 12's cargo (1.63) is older than the crates' rust-version (1.77): use rustup's.
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v cargo >/dev/null; then
  apt_install curl ca-certificates
  curl -sSf https://sh.rustup.rs | sh -s -- -y -q --profile minimal -c clippy,rustfmt
  export PATH="$HOME/.cargo/bin:$PATH"
fi
cargo --version
export CARGO_TARGET_DIR="$root/out/cargo"
export CARGO_TERM_COLOR=never

section "rust: rustfmt and clippy (warnings are errors)"
cargo fmt --all --check
cargo clippy --all-targets --all-features --quiet -- -D warnings
cargo clippy --all-targets --quiet -- -D warnings

section "rust: tests (ABI, conformance vectors, leases, doc examples)"
cargo test --all-features --quiet 2>&1 | grep -Ev '^$'
cargo test -p snowfleet --lib --tests --quiet 2>&1 | grep -Ev '^$'
cargo test -p snowfleet --all-features --test conformance --quiet -- --nocapture 2>&1 |
  grep -E '^(Rust|[a-z0-9]+\.json|skipped)'

section "rust: one id space with another copy of the core in the process, in both orders"
capi="$root/out/rust-capi"
cmake -S "$root" -B "$capi" -DCMAKE_BUILD_TYPE=Release -DSNOWFLEET_BUILD_C=ON \
  -DSNOWFLEET_BUILD_CLI=OFF -DSNOWFLEET_ETCD=OFF >/dev/null
cmake --build "$capi" --target snowfleet_c -j2 >/dev/null
log="$root/out/rust-one-registry.log"
SNOWFLEET_TEST_C_LIBRARY="$capi/core/libsnowfleet.so.0" \
  cargo test -p snowfleet --test one_registry --quiet -- --nocapture >"$log" 2>&1 ||
  { cat "$log"; exit 1; }
grep -o 'one registry: .*' "$log" || true
for order in rust-first other-first; do
  grep -q "one registry: $order: shared" "$log" ||
    { cat "$log"; echo "rust: the $order one-registry test did not pass"; exit 1; }
done

section "rust: a program outside the repository, as rust/README.md says"
tmp=$(mktemp -d /tmp/snowfleet-rust-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/mint/src"
cat > "$tmp/mint/Cargo.toml" <<TOML
[package]
name = "mint"
version = "0.1.0"
edition = "2021"

[dependencies]
snowfleet = { path = "$root/rust/snowfleet" }
TOML
cat > "$tmp/mint/src/main.rs" <<'RS'
use snowfleet::{Generator, Mode};

fn main() -> Result<(), snowfleet::Error> {
    let source = std::env::args().nth(1).unwrap_or_else(|| "local:".into());
    let gen = Generator::builder().node_source(source).mode(Mode::Monotonic).build()?;
    let id = gen.next_id()?;
    println!("{id} node {}", snowfleet::decode(id)?.node_id);
    Ok(())
}
RS
(cd "$tmp/mint" && cargo run --quiet -- "local:$tmp/registry")
echo "rust: all passed"
