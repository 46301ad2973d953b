#!/usr/bin/env bash
# Checks the artifacts scripts/dist.sh wrote (default out/dist/): every native file inside
# a wheel, npm tarball or jar needs only libc (+ libm, libpthread, libdl, the dynamic
# loader) and the id-space registry shipped beside it; every wheel is under 1 MiB.
set -euo pipefail
dist=${1:-out/dist}
allowed='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|ld-linux-(x86-64|aarch64)\.so\.[12]|libc\.musl-(x86_64|aarch64)\.so\.1|libsnowfleet_registry\.so\.1)$'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 checked=0
for a in "$dist"/*; do
  x="$work/$(basename "$a")"
  mkdir "$x"
  case $a in
    *.whl | *.jar) python3 -m zipfile -e "$a" "$x" ;;
    *.tgz | *.tar.gz) tar -xzf "$a" -C "$x" ;;
    *) continue ;;
  esac
  if [[ $a == *.whl ]] && [ "$(stat -c %s "$a")" -ge 1048576 ]; then
    echo "FAIL $a: $(stat -c %s "$a") bytes, the limit is 1 MiB" >&2
    fail=1
  fi
  while IFS= read -r -d '' f; do
    file -b "$f" | grep -q '^ELF' || continue
    checked=$((checked + 1))
    bad=$(readelf -d "$f" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p' | grep -Ev "$allowed" || true)
    if [ -n "$bad" ]; then
      echo "FAIL $(basename "$a"):${f#"$x"} needs $(echo $bad)" >&2
      fail=1
    fi
  done < <(find "$x" -type f -print0)
done
[ "$checked" -gt 0 ] || { echo "FAIL no native file found under $dist" >&2; exit 1; }
[ "$fail" = 0 ] || exit 1
echo "dist-check: $checked native files need only libc (+libm, libpthread, libdl); wheels under 1 MiB"
