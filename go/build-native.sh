#!/usr/bin/env bash
# Builds the C interface (libsnowfleet.so.0, snowfleet.h) from this checkout and installs it
# into go/native/, where the Go package's cgo directives look (link.go). The one build step
# a Go user runs before `go build`; run it again after updating the checkout.
#   bash go/build-native.sh            # Release build in out/go-native, installed in go/native
# Needs CMake 3.18+ and a C++17 compiler. SNOWFLEET_GO_BUILD_DIR overrides the build folder.
set -euo pipefail
go_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$go_dir/.." && pwd)
build=${SNOWFLEET_GO_BUILD_DIR:-$root/out/go-native}
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DSNOWFLEET_BUILD_C=ON -DSNOWFLEET_BUILD_CLI=OFF -DSNOWFLEET_INSTALL=ON \
  -DCMAKE_INSTALL_LIBDIR=lib >/dev/null
cmake --build "$build"
cmake --install "$build" --prefix "$go_dir/native" >/dev/null
echo "snowfleet: C interface installed in $go_dir/native"
