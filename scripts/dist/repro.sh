#!/usr/bin/env bash
# Reproducibility: builds every artifact twice from this commit, in two fresh build
# directories (scripts/dist/build.sh with SNOWFLEET_DIST_BUILD / SNOWFLEET_DIST_OUT), and fails
# unless the two sets are byte-identical. Takes the same SNOWFLEET_DIST_* variables.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
mkdir -p out
for run in a b; do
  rm -rf "out/dist-repro-build-$run" "out/dist-repro-$run"
  SNOWFLEET_DIST_BUILD="out/dist-repro-build-$run" SNOWFLEET_DIST_OUT="out/dist-repro-$run" \
    bash scripts/dist/build.sh >"out/dist-repro-$run.log" 2>&1 ||
    { tail -n 30 "out/dist-repro-$run.log" >&2; exit 1; }
done
section "dist-repro: sha256 of both runs"
(cd out/dist-repro-a && sha256sum -- *) | tee out/dist-repro-a.sha256
(cd out/dist-repro-b && sha256sum -- *) >out/dist-repro-b.sha256
if ! diff -u out/dist-repro-a.sha256 out/dist-repro-b.sha256; then
  echo "dist-repro: the two runs differ" >&2
  exit 1
fi
echo "dist-repro: $(wc -l <out/dist-repro-a.sha256) artifacts byte-identical across two builds"
