#!/usr/bin/env bash
# Go package (go/): builds the C interface into go/native with go/build-native.sh (the step a
# Go user runs), then in go/: lists_gen.go against lists.h and go vet, staticcheck, go test
# (every conformance vector, the runnable examples, generators and worker processes on one
# local: registry, two generators on one etcd prefix of a loopback etcd started here),
# go test -race, the same examples through an installed snowfleet (-tags snowfleet_pkgconfig),
# the benchmarks' module (vet and one iteration of each benchmark: figures come from
# `go test -bench .` in go/bench, see go/README.md), and a Go program outside the repository
# that depends on the module with require + replace, as go/README.md says.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
root="$(repo_root)"
cd "$root"

section "go: dependencies"
# The C interface's build (etcd support: libcurl's and nlohmann-json's headers); pkg-config
# for the installed-library route.
# etcd-server and curl: the etcd lease test.
apt_install g++ cmake ninja-build libcurl4-openssl-dev nlohmann-json3-dev pkg-config etcd-server curl
[ -x /usr/local/go/bin/go ] && export PATH="$PATH:/usr/local/go/bin"
if ! command -v go >/dev/null; then
  echo "test-go: needs Go 1.24 or newer on PATH (go.dev/dl)" >&2
  exit 1
fi
go version
export GOFLAGS="-mod=mod -buildvcs=false"

section "go: the C interface into go/native (go/build-native.sh)"
bash go/build-native.sh

cd "$root/go"
section "go: go vet, staticcheck"
go vet ./...
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

tmp=$(mktemp -d /tmp/snowfleet-go-XXXXXX)
etcd_pid=""
cleanup() {
  if [ -n "$etcd_pid" ]; then kill -9 "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

section "go: an etcd on loopback for the etcd lease test"
etcd_private_start "$tmp" go
export SNOWFLEET_TEST_ETCD=$endpoint

section "go: go test (conformance vectors, examples, local: and etcd leases, lists_gen.go current)"
go test -count=1 -v -run 'TestConformance|Etcd' . >"$tmp/verbose.log" 2>&1 || true
grep -E '^(--- |ok|FAIL)|cases run' "$tmp/verbose.log" || true
grep -q -- '--- PASS: TestTwoGeneratorsLeaseFromOneEtcdPrefix' "$tmp/verbose.log" ||
  { echo "test-go: the etcd lease test did not pass"; cat "$tmp/verbose.log"; exit 1; }
go test -count=1 ./...

section "go: go test -race"
go test -race -count=1 ./...

section "go: through an installed snowfleet (-tags snowfleet_pkgconfig)"
PKG_CONFIG_PATH="$root/go/native/lib/pkgconfig" LD_LIBRARY_PATH="$root/go/native/lib" \
  go test -count=1 -tags snowfleet_pkgconfig -run 'Example' .

section "go: the benchmarks' module builds and runs (one iteration each)"
(cd bench && go vet . && go test -run '^$' -bench . -benchtime=1x . >/dev/null && echo "go/bench: ok")

section "go: a program outside the repository (go/README.md's steps)"
mkdir -p "$tmp/mint" && cd "$tmp/mint"
go mod init example.com/mint >/dev/null 2>&1
go mod edit -require=github.com/snowfleet/snowfleet/go@v0.0.0 \
  -replace=github.com/snowfleet/snowfleet/go="$root/go"
cat > main.go <<'GO'
package main

import (
	"fmt"
	"log"
	"os"

	snowfleet "github.com/snowfleet/snowfleet/go"
)

func main() {
	gen, err := snowfleet.New(snowfleet.Options{NodeSource: "local:" + os.Args[1], Mode: snowfleet.Monotonic})
	if err != nil {
		log.Fatal(err)
	}
	defer gen.Close()
	id, err := gen.NextID()
	if err != nil {
		log.Fatal(err)
	}
	d, _ := snowfleet.Decode(id)
	fmt.Println(id, d.NodeID, d.Time())
}
GO
go mod tidy >/dev/null 2>&1
go build -o mint .
./mint "$tmp/registry"
echo "test-go: passed"
