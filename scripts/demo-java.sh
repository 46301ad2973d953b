#!/usr/bin/env bash
# Mints and decodes a few ids from Java: builds the jar if needed (tests skipped; run
# scripts/test-java.sh for those), then runs java/examples/Demo.java against it.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
jar="java/target/snowfleet-0.1.0.jar"
if [[ ! -f "$jar" ]]; then
  if ! command -v mvn >/dev/null || ! command -v swig >/dev/null || ! command -v cmake >/dev/null; then
    bash scripts/test-java.sh >/dev/null  # installs the toolchain and builds the jar
  else
    mvn -B -q -ntp -f java/pom.xml -DskipTests package >/dev/null
  fi
fi
"$JAVA_HOME/bin/java" -cp "$jar" java/examples/Demo.java
