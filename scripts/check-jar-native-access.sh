#!/usr/bin/env bash
# The jar on a JDK that denies native access (JDK 24+ with --illegal-native-access=deny, the
# default JEP 472 announces for a later release) to an application that did not pass
# --enable-native-access: System.load throws IllegalCallerException. Fails unless the error
# names the flag that allows it (--enable-native-access=ALL-UNNAMED on the class path).
#
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 bash scripts/check-jar-native-access.sh JAR
set -euo pipefail
jar=$(realpath "${1:?usage: check-jar-native-access.sh JAR}")
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the single-file program dist.sh runs on the jar: loads it and mints
smoke=$(realpath "$(dirname "$0")/packaging/JarSmoke.java")
"$java" --illegal-native-access=deny -version >/dev/null 2>&1 ||
  { echo "$java has no --illegal-native-access (JDK 24+ needed)" >&2; exit 2; }
set +e
out=$("$java" --illegal-native-access=deny -cp "$jar" "$smoke" 2>&1)
rc=$?
set -e
echo "exit $rc: $(grep -m1 -E 'Exception|Error' <<<"$out" || head -n 1 <<<"$out")"
[ "$rc" != 0 ] || { echo "FAIL: minted with native access denied?" >&2; exit 1; }
if grep -E 'Exception|Error' <<<"$out" | grep -q -- '--enable-native-access'; then
  echo "check-jar-native-access: the error names --enable-native-access"
else
  echo "FAIL: the error does not name --enable-native-access:" >&2
  grep -v '^\s*at ' <<<"$out" >&2
  exit 1
fi
