# Debian packages fetched and unpacked without installing them, for the dist-verify-*
# scripts: a private apt state (its own package lists, cache and an empty dpkg status) reads
# the machine's package sources, so the machine's apt configuration (its architectures, its
# lists, its installed packages) is left as it is. Source it after scripts/lib.sh.

# apt_private DIR [ARCH [deb-src]]: makes (or reuses) the apt state in DIR and sets apt_opts,
# the options every apt-get call on it takes. ARCH (default: the machine's) is the one
# architecture its lists hold. With deb-src the lists take the source packages too (for
# apt_source), but for the security suites': the mirror here serves none of theirs, and an
# apt-get source that picks a security update's version then fails.
apt_private() {
  local dir=$1 arch=${2:-} src=${3:-}
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs"
  touch "$dir/status"
  apt_opts=(-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
    -o "Dir::State::status=$dir/status")
  [ -z "$arch" ] || apt_opts+=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")
  [ "$src" = deb-src ] || return 0
  local f
  mkdir -p "$dir/src" "$dir/parts"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    awk -v RS= -v ORS='\n\n' '!/Suites:[^\n]*-security/ { sub(/Types: deb\n/, "Types: deb deb-src\n") } 1' \
      "$f" >"$dir/parts/${f##*/}"
  done
  { grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null || true; } |
    sed '/-security/!{p;s/^deb /deb-src /}' >"$dir/sources.list"
  apt_opts+=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/parts")
}

# apt_sysroot DIR ROOT PKG...: updates DIR's lists (apt_private first), downloads the PKGs
# (only those, no dependencies: the caller names what it needs) into DIR/debs and unpacks
# them into ROOT, made afresh.
apt_sysroot() {
  local dir root=$2 d
  dir=$(readlink -f "$1")
  shift 2
  apt-get "${apt_opts[@]}" update -qq >/dev/null
  rm -f "$dir"/debs/*.deb
  (cd "$dir/debs" && apt-get "${apt_opts[@]}" download "$@" >"$dir/download.log" 2>&1) ||
    { cat "$dir/download.log" >&2; return 1; }
  rm -rf "$root" && mkdir -p "$root"
  for d in "$dir"/debs/*.deb; do dpkg-deb -x "$d" "$root"; done
}

# apt_source DIR SRCPKG...: downloads the source packages (.dsc, upstream and Debian
# tarballs) into DIR/src, unpacked by the caller; DIR's lists must hold deb-src (apt_private
# with deb-src, then apt-get update).
apt_source() {
  local dir
  dir=$(readlink -f "$1")
  shift
  (cd "$dir/src" && apt-get "${apt_opts[@]}" source --download-only "$@" >"$dir/source.log" 2>&1) ||
    { cat "$dir/source.log" >&2; return 1; }
}
