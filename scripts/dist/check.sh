#!/usr/bin/env bash
# Checks the artifacts scripts/dist/build.sh wrote (default out/dist/) and prints each one's size
# and the platforms it carries. Fails unless
# - every native (ELF) file inside a wheel, npm tarball or jar needs only libc (+ libm,
#   libpthread, libdl, the dynamic loader) and the id-space registry shipped beside it;
# - every native file is built for the platform its place names (a wheel's platform tag,
#   the jar's native/linux-<arch>-<gnu|musl>/, the tarball's prebuilds/linux-<x64|arm64>/
#   and its glibc/musl tag): its ELF machine, its C library (libc.so.6 or
#   libc.musl-<arch>.so.1), and for glibc no symbol version newer than 2.17 (the
#   manylinux_2_17 baseline); a native file anywhere else (the sdist, the -sources jar) fails;
# - every wheel's platform tag is the one `auditwheel show` computes for it (AUDITWHEEL, or
#   out/dist-tools/bin/auditwheel as scripts/dist/build.sh installs it; a manylinux_2_17 wheel is
#   also named by its legacy alias manylinux2014), and it is under 1 MiB.
# - every native file is a release build: no debug sections, no assert() (an import of
#   __assert_fail: compiled without -DNDEBUG), no libc++ assertion texts ("...: assertion
#   ... failed: ...", the hardening checks of an unoptimised build), no path of a source or
#   header file (__FILE__ texts; build directories);
# - every native file exports only what its host loads (nm -D --defined-only): the Python
#   extension PyInit__snowfleet, the Node addon the N-API entry points, the JNI library its
#   Java_* functions (JNI_OnLoad/JNI_OnUnload), the id-space registry its C ABI
#   (snowfleet_registry_v1, core/src/registry/abi.h).
set -euo pipefail
dist=${1:-out/dist}
allowed='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|ld-linux-(x86-64|aarch64)\.so\.[12]|libc\.musl-(x86_64|aarch64)\.so\.1|libsnowfleet_registry\.so\.1)$'
glibc_max=2.17
here=$(cd "$(dirname "$0")" && pwd)
. "$here/auditwheel-tag.sh"
auditwheel=${AUDITWHEEL:-$here/../../out/dist-tools/bin/auditwheel}
[ -x "$auditwheel" ] || auditwheel=$(command -v auditwheel || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 checked=0

bad() {
  echo "FAIL $*" >&2
  fail=1
}

# expect ARTIFACT PATH: "<arch> <gnu|musl>" the place of PATH inside ARTIFACT names, or
# nothing when no native file belongs there.
expect() {
  local a=$1 p=$2
  case $a in
    *.whl)
      [[ $a =~ -(manylinux|musllinux)_[0-9]+_[0-9]+_(x86_64|aarch64)(\.manylinux2014_[a-z0-9_]+)?\.whl$ ]] || return 0
      echo "${BASH_REMATCH[2]} $([ "${BASH_REMATCH[1]}" = musllinux ] && echo musl || echo gnu)" ;;
    *-sources.jar | *-javadoc.jar) ;;
    *.jar)
      [[ $p =~ ^/native/linux-(x86_64|aarch64)-(gnu|musl)/[^/]+$ ]] &&
        echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}" ;;
    *.tgz)
      if [[ $p =~ ^/package/prebuilds/linux-(x64|arm64)/(snowfleet\.(glibc|musl)\.node|(glibc|musl)/[^/]+)$ ]]; then
        local libc=${BASH_REMATCH[3]:-${BASH_REMATCH[4]}}
        echo "$([ "${BASH_REMATCH[1]}" = x64 ] && echo x86_64 || echo aarch64)" \
          "$([ "$libc" = musl ] && echo musl || echo gnu)"
      fi ;;
  esac
  return 0
}

# exports_allowed PATH: the pattern every dynamic symbol the native file at PATH defines must
# match, and the one it must define, tab-separated; nothing for a file no host loads.
exports_allowed() {
  case ${1##*/} in
    _snowfleet.*.so) printf '%s\t%s\n' '^PyInit__snowfleet$' PyInit__snowfleet ;;
    *.node) printf '%s\t%s\n' '^(napi_register_module_v1|node_api_module_get_api_version_v1)$' \
      napi_register_module_v1 ;;
    libsnowfleet_jni.so) printf '%s\t%s\n' '^(Java_[A-Za-z0-9_]+|JNI_OnLoad|JNI_OnUnload)$' \
      Java_dev_snowfleet_internal_jni_SnowfleetNativeJNI_generatorNextId ;;
    libsnowfleet_registry.so.1) printf '%s\t%s\n' '^snowfleet_registry_v[0-9]+$' snowfleet_registry_v1 ;;
  esac
}

# check_release_build WHERE FILE: FILE was built optimised, with NDEBUG, and without paths.
check_release_build() {
  local where=$1 f=$2 sections imports texts
  # (read whole, then matched: grep -q closing a pipe early fails the pipeline under pipefail)
  sections=$(readelf -S -W "$f")
  imports=$(nm -D --undefined-only "$f")
  texts=$(strings -a -n 8 "$f")
  ! grep -q ' \.debug_' <<<"$sections" || bad "$where is not a release build: it carries debug sections"
  ! grep -qw '__assert_fail' <<<"$imports" ||
    bad "$where is not a release build: it calls __assert_fail (assert() compiled in: no -DNDEBUG)"
  ! grep -qE ': assertion .* failed' <<<"$texts" ||
    bad "$where is not a release build: it carries assertion texts ($(grep -m1 -E ': assertion .* failed' <<<"$texts" | cut -c1-120))"
  ! grep -qE '^[^ ]*/([^ /]+\.(c|cc|cpp|cxx|h|hh|hpp|ipp|inc|tcc)|include/[^ ]*)(:[0-9]+)?$' <<<"$texts" ||
    bad "$where carries source paths ($(grep -m1 -E '^[^ ]*/([^ /]+\.(c|cc|cpp|cxx|h|hh|hpp|ipp|inc|tcc)|include/[^ ]*)(:[0-9]+)?$' <<<"$texts"))"
}

# check_exports WHERE FILE PATH: FILE defines only the dynamic symbols its host loads.
check_exports() {
  local where=$1 f=$2 p=$3 rule pattern entry defined extra
  rule=$(exports_allowed "$p")
  [ -n "$rule" ] || { bad "$where: a native file no host loads by this name"; return; }
  IFS=$'\t' read -r pattern entry <<<"$rule"
  defined=$(nm -D --defined-only "$f" | awk '{print $NF}' | sed 's/@.*//')
  extra=$(grep -Ev "$pattern" <<<"$defined" || true)
  [ -z "$extra" ] ||
    bad "$where exports $(wc -l <<<"$extra") symbol(s) its host does not load: $(head -n 3 <<<"$extra" | cut -c1-60 | tr '\n' ' ')..."
  grep -qx "$entry" <<<"$defined" || bad "$where does not export $entry"
}

# check_elf ARTIFACT FILE PATH: FILE (at PATH inside ARTIFACT) against the rules above.
check_elf() {
  local a=$1 f=$2 p=$3 where want arch libc machine needed newest
  where="$(basename "$a"):$p"
  want=$(expect "$a" "$p")
  [ -n "$want" ] || { bad "$where: a native file where no platform's belongs"; return; }
  read -r arch libc <<<"$want"
  check_release_build "$where" "$f"
  check_exports "$where" "$f" "$p"
  needed=$(readelf -d "$f" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p')
  local extra
  extra=$(grep -Ev "$allowed" <<<"$needed" || true)
  [ -z "$extra" ] || bad "$where needs $(echo $extra)"
  machine=$(readelf -h "$f" | sed -nE 's/^ *Machine: *//p')
  case $arch:$machine in
    x86_64:*X86-64 | aarch64:AArch64) ;;
    *) bad "$where is built for $machine, its place names $arch" ;;
  esac
  if [ "$libc" = musl ]; then
    grep -qx "libc.musl-$arch.so.1" <<<"$needed" ||
      bad "$where does not need libc.musl-$arch.so.1 (needs: $(echo $needed)), its place names musl"
  else
    grep -qx 'libc.so.6' <<<"$needed" ||
      bad "$where does not need glibc's libc.so.6 (needs: $(echo $needed)), its place names glibc"
    newest=$(readelf -V "$f" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
    if [ -n "$newest" ] && [ "$(printf '%s\n' "$newest" "$glibc_max" | sort -V | tail -n 1)" != "$glibc_max" ]; then
      bad "$where needs GLIBC_$newest, newer than the manylinux baseline $glibc_max"
    fi
  fi
}

for a in "$dist"/*; do
  x="$work/$(basename "$a")"
  mkdir "$x"
  case $a in
    *.whl | *.jar) python3 -m zipfile -e "$a" "$x" ;;
    *.tgz | *.tar.gz) tar -xzf "$a" -C "$x" ;;
    *) continue ;;
  esac
  size=$(stat -c %s "$a")
  tags=
  case $a in
    *.whl)
      [ "$size" -lt 1048576 ] || bad "$a: $size bytes, the limit is 1 MiB"
      named=${a%.whl}
      named=${named##*-}
      if [ -z "$auditwheel" ]; then
        bad "$a: auditwheel not found (scripts/dist/build.sh installs it in out/dist-tools; or set AUDITWHEEL)"
      else
        computed=$(auditwheel_tag "$auditwheel" "$a")
        # the name is auditwheel's tag, and for manylinux_2_17 its legacy alias after it
        # (scripts/dist/wheel_tags.py: pip < 20.3 knows only manylinux2014)
        want=$computed
        [[ $computed == manylinux_2_17_* ]] && want="$computed.manylinux2014_${computed#manylinux_2_17_}"
        [ -n "$computed" ] && [ "$want" = "$named" ] ||
          bad "$a: named $named, auditwheel show computes '${computed:-no tag}' (the name wants '${want:-?}')"
        tags="$named (auditwheel: ${computed:-none})"
      fi ;;
    *-sources.jar | *-javadoc.jar) ;;
    *.jar) tags=$(cd "$x" && ls -d native/*/ 2>/dev/null | sed 's|native/||; s|/$||' | tr '\n' ' ') ;;
    *.tgz) tags=$(cd "$x/package" && find prebuilds -name '*.node' 2>/dev/null | sort | tr '\n' ' ') ;;
  esac
  printf '%10d  %-55s %s\n' "$size" "$(basename "$a")" "$tags"
  while IFS= read -r -d '' f; do
    file -b "$f" | grep -q '^ELF' || continue
    checked=$((checked + 1))
    check_elf "$a" "$f" "${f#"$x"}"
  done < <(find "$x" -type f -print0)
done
[ "$checked" -gt 0 ] || { echo "FAIL no native file found under $dist" >&2; exit 1; }
[ "$fail" = 0 ] || exit 1
echo "dist-check: $checked native files, each built for the platform its place names, need only" \
  "libc (+libm, libpthread, libdl), glibc <= $glibc_max, release builds exporting only their entry points;" \
  "wheel tags as auditwheel computes; wheels under 1 MiB"
