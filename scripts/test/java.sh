#!/usr/bin/env bash
# Builds the Java package from this checkout exactly as a user would -- one Maven command:
# cmake + SWIG build libsnowfleet_jni.so into the jar, javac, Surefire, jar -- and runs the
# whole JUnit suite, including every conformance vector in conformance/vectors and the jar
# loaded from a relative or a noexec java.io.tmpdir and on a JDK 24+ denying native access
# (JarLoadingTest; each skips, saying why, where it cannot run).
#
#   bash scripts/test/java.sh                  # everything
#   bash scripts/test/java.sh --install-only   # prerequisites only (apt)
#
# Installs what it needs on a fresh Debian machine (root); idempotent and quiet.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$(repo_root)"

export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
# Debian's maven depends on a JRE; the JDK (javac, jni.h) is what CMake's FindJNI needs.
apt_install openjdk-17-jdk-headless maven cmake swig g++ make
[[ -x "$JAVA_HOME/bin/javac" && -f "$JAVA_HOME/include/jni.h" ]] ||
  { echo "test-java: no JDK with jni.h at JAVA_HOME=$JAVA_HOME" >&2; exit 1; }
export PATH="$JAVA_HOME/bin:$PATH"
[[ "${1:-}" == --install-only ]] && exit 0

section "java: mvn package (native library, compile, JUnit incl. conformance, jar)"
# -B/-ntp keep the log short; Surefire's "Tests run: N, Failures: ..." lines stay visible.
mvn -B -ntp -f java/pom.xml package

jar="java/target/snowfleet-$(head -1 VERSION).jar"
# native/<os>-<arch>-<libc>/, as NativeLoader names this machine's platform
libc=gnu
if ldd --version 2>&1 | grep -qi musl; then libc=musl; fi
lib="native/$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)-$libc/libsnowfleet_jni.so"
if ! "$JAVA_HOME/bin/jar" tf "$jar" | grep -qx "$lib"; then
  echo "test-java: $jar does not carry $lib" >&2
  exit 1
fi
echo "test-java: $jar carries $lib"
