#!/usr/bin/env bash
# Builds the Java package from this checkout exactly as a user would -- one Maven command:
# cmake + SWIG build libsnowfleet_jni.so into the jar, javac, Surefire, jar -- and runs the
# whole JUnit suite, including every conformance vector in conformance/vectors.
# Installs what it needs on a fresh Debian machine (root); idempotent and quiet.
set -euo pipefail
cd "$(dirname "$0")/.."

export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"

missing=()
[[ -x "$JAVA_HOME/bin/javac" && -f "$JAVA_HOME/include/jni.h" ]] || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
command -v cmake >/dev/null || missing+=(cmake)
command -v swig >/dev/null || command -v swig4.0 >/dev/null || missing+=(swig)
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
if ((${#missing[@]})); then
  echo "test-java: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ -x "$JAVA_HOME/bin/javac" ]] || { echo "test-java: no JDK at JAVA_HOME=$JAVA_HOME" >&2; exit 1; }
export PATH="$JAVA_HOME/bin:$PATH"

# -B/-ntp keep the log short; Surefire's "Tests run: N, Failures: ..." lines stay visible.
mvn -B -ntp -f java/pom.xml package

jar="java/target/snowfleet-0.1.0.jar"
lib="native/$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)/libsnowfleet_jni.so"
if ! "$JAVA_HOME/bin/jar" tf "$jar" | grep -qx "$lib"; then
  echo "test-java: $jar does not carry $lib" >&2
  exit 1
fi
echo "test-java: $jar carries $lib"
