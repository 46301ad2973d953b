#!/usr/bin/env bash
# Builds the real kube-apiserver (k8s.io/kubernetes v1.37.2 from the Go module proxy, the
# module in tests/fleet/kube-apiserver/) and kubeclient (client-go's kubeconfig and
# in-cluster loading, the tests' reference client) once, and caches them outside the checkout:
#   ${SNOWFLEET_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/snowfleet}/kube-<hash>/
# where <hash> covers the module's go.mod, go.sum and sources, so a changed module builds
# anew and an unchanged one is reused by every checkout and CI run on the machine. Prints
# the two binaries' paths, kube-apiserver then kubeclient, as its last two lines on stdout
# (everything else goes to stderr). Concurrent callers wait for one build (flock). Needs
# Go >= 1.21 (`go` then fetches the go.mod's toolchain by itself if it is older).
# The first build downloads ~0.5 GB of modules into the Go module cache and compiles
# ~2,000 packages at nice 10: minutes on 2 cores (the figure is printed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"

src=tests/fleet/kube-apiserver
command -v go >/dev/null || { echo "kube-apiserver: no 'go' on PATH (Go >= 1.21 needed)" >&2; exit 1; }
hash=$(cd "$src" && cat go.mod go.sum $(find . -name '*.go' | LC_ALL=C sort) | sha256sum | cut -c1-16)
cache=${SNOWFLEET_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/snowfleet}
out=$cache/kube-$hash
mkdir -p "$cache"

exec 9>"$cache/kube-apiserver.lock"
flock 9
if [ ! -x "$out/kubeclient" ]; then
  echo "kube-apiserver: building $out (go $(go env GOVERSION), module cache $(go env GOMODCACHE))" >&2
  start=$(date +%s)
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  # CGO off as upstream builds it (no C toolchain, static binaries); -s -w drop the symbol
  # and DWARF tables (smaller, and a faster link); the version is what /version reports.
  (cd "$src" && CGO_ENABLED=0 nice -n 10 go build -p 2 -trimpath -o "$out.tmp/" \
    -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=v1.37.2 \
      -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=37" \
    . ./kubeclient) >&2
  rm -rf "$out" && mv "$out.tmp" "$out"
  echo "kube-apiserver: built in $(($(date +%s) - start)) s: $(du -m "$out/kube-apiserver" | cut -f1) MB," \
    "kubeclient $(du -m "$out/kubeclient" | cut -f1) MB" >&2
fi
echo "$out/kube-apiserver"
echo "$out/kubeclient"
