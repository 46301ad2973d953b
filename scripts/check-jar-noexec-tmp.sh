#!/usr/bin/env bash
# The jar on a machine whose temporary directory is mounted noexec (hardened hosts and
# containers: /tmp as tmpfs noexec): NativeLoader extracts the JNI library to java.io.tmpdir
# and System.load cannot map it. Fails unless the error says where it extracted to and what
# to do (-Djava.io.tmpdir=<an exec directory> or -Dsnowfleet.library.path=<a copy on disk>).
# Needs root (unshare -m to mount a private noexec tmpfs).
#
#   bash scripts/check-jar-noexec-tmp.sh out/dist/snowfleet-VERSION.jar
set -euo pipefail
jar=$(realpath "${1:?usage: check-jar-noexec-tmp.sh JAR}")
java=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/noexec"
# the single-file program dist.sh runs on the jar: loads it and mints
smoke=$(realpath "$(dirname "$0")/packaging/JarSmoke.java")
# A machine that cannot make a mount namespace (no root, or a container without
# CAP_SYS_ADMIN) cannot stage the noexec directory: said, not failed.
if ! unshare -m mount -t tmpfs -o noexec,size=1m tmpfs "$work/noexec" 2>/dev/null; then
  echo "check-jar-noexec-tmp: not run: cannot mount a private tmpfs here (needs root, unshare -m)"
  exit 0
fi
set +e
out=$(unshare -m bash -c 'mount -t tmpfs -o noexec,size=16m tmpfs "$1" && exec "$2" -Djava.io.tmpdir="$1" -cp "$3" "$4"' \
  _ "$work/noexec" "$java" "$jar" "$smoke" 2>&1)
rc=$?
set -e
first=$(grep -m1 'UnsatisfiedLinkError' <<<"$out" || true)
echo "exit $rc: ${first:-$(head -n 1 <<<"$out")}"
[ "$rc" != 0 ] || { echo "FAIL: minted from a noexec java.io.tmpdir?" >&2; exit 1; }
if grep -q 'java.io.tmpdir\|snowfleet.library.path' <<<"$first"; then
  echo "check-jar-noexec-tmp: the error names the way out"
else
  echo "FAIL: the error names neither -Djava.io.tmpdir nor -Dsnowfleet.library.path:" >&2
  grep -v '^\s*at ' <<<"$out" >&2
  exit 1
fi
