#!/usr/bin/env bash
# Mints and decodes a few ids from Java: builds the jar if needed (tests skipped; run
# scripts/test/java.sh for those), then runs java/examples/Demo.java against it.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$(repo_root)"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
jar="java/target/snowfleet-$(head -1 VERSION).jar"
if [[ ! -f "$jar" ]]; then
  bash scripts/test/java.sh --install-only >/dev/null
  log=$(mktemp)
  mvn -B -q -ntp -f java/pom.xml -DskipTests package >"$log" 2>&1 || { cat "$log"; exit 1; }
  rm -f "$log"
fi
"$JAVA_HOME/bin/java" -cp "$jar" java/examples/Demo.java
