#!/usr/bin/env bash
# The jar with a relative java.io.tmpdir (-Djava.io.tmpdir=tmp, as some launchers and build
# tools pass): NativeLoader extracts the JNI library there and System.load, which takes only
# absolute paths, refused it ("Expecting an absolute path of the library"). Fails unless the
# jar loads and mints.
#
#   bash scripts/check-jar-relative-tmpdir.sh out/dist/snowfleet-VERSION.jar
set -euo pipefail
jar=$(realpath "${1:?usage: check-jar-relative-tmpdir.sh JAR}")
java=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
# the single-file program dist.sh runs on the jar: loads it and mints
smoke=$(realpath "$(dirname "$0")/packaging/JarSmoke.java")
if out=$(cd "$work" && "$java" -Djava.io.tmpdir=tmp -cp "$jar" "$smoke" 2>&1); then
  echo "check-jar-relative-tmpdir: $out with -Djava.io.tmpdir=tmp"
else
  echo "FAIL: the jar does not load with -Djava.io.tmpdir=tmp:" >&2
  grep -v '^\s*at ' <<<"$out" >&2
  exit 1
fi
