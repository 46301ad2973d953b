#!/usr/bin/env bash
# Proves the jar scripts/dist/build.sh wrote (out/dist/snowfleet-VERSION.jar) on an arm64 JVM:
# Debian 12's own openjdk-17-jre-headless:arm64 runs under qemu-aarch64 (Debian's qemu-user)
# from a sysroot of unpacked arm64 packages, fetched with a private apt state
# (scripts/dist/apt-sysroot.sh: the machine's apt architectures and its amd64 JDK are
# left as they are; nothing arm64 is installed).
#
# 1. The jar itself: scripts/dist/JarVerify.java (compiled by the host's javac: the JRE
#    has none) must see NativeLoader name linux-aarch64-gnu, load the jar's
#    native/linux-aarch64-gnu/ library, mint 10000 ids and 10000 UUIDv7s, unique, ascending,
#    decoded.
# 2. The Java suite (java/src/test, less the benchmarks) on the same JVM, through JUnit's
#    console launcher (Surefire would fork a JVM of its own choosing): the tests read
#    target/classes-style directories, so they run against the jar's contents unpacked (the
#    same classes and native/ files), with -Xcheck:jni as under Maven. The test hooks'
#    library (libsnowfleet_jni_test.so, which no jar carries) and its SWIG proxies are
#    cross-built for aarch64 with the release toolchain (scripts/dist/zig-toolchain.sh).
#    Tests that start a child JVM exec java.home/bin/java through the JDK's lib/jspawnhelper,
#    aarch64 files the host kernel cannot run without a binfmt_misc registration; in the
#    sysroot both are therefore shell scripts that run the real ones (*.aarch64) under qemu,
#    so those tests run too. Left out: PlatformSelectionTest's
#    thisJvmsPlatformIsOneTheBuildNamesItsLibraryFor, which asserts the classes carry the
#    build machine's platform only (true of mvn package, not of a released jar; step 1 checks
#    the loader's pick), and MemoryFlatTest, whose child JVM reads its resident set from
#    /proc/self/statm: under qemu that is qemu's, translation cache included, which grows as
#    the JIT emits code (4.8 MB over the 10,000 lifetimes in one of two runs, bound 4 MB).
#
# The argument vectors a Java caller cannot even write (a float node id, ...) count as
# aborted (JUnit assumptions), as under Maven.
#
# Usage: bash scripts/dist/verify-jar-aarch64.sh [DIST_DIR [LAUNCHER_ARGS...]]  (default out/dist)
# Takes minutes: every JVM start is emulated. See docs/dist.md ("Verified on").
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/apt-sysroot.sh"
cd "$(repo_root)"
root=$PWD
dist=${1:-out/dist}
shift || true  # the rest goes to JUnit's launcher (--select-class=..., to run a part)
builds=${SNOWFLEET_DIST_BUILD:-out/dist-build}
version=$(head -1 VERSION)
jar=$(readlink -f "$dist/snowfleet-$version.jar")
plat=linux-aarch64-gnu
[ -f "$jar" ] || { echo "no $dist/snowfleet-$version.jar: run scripts/dist/build.sh" >&2; exit 1; }
unzip -l "$jar" "native/$plat/libsnowfleet_jni.so" >/dev/null ||
  { echo "$jar carries no native/$plat/ (SNOWFLEET_DIST_TARGETS without aarch64-linux-gnu?)" >&2; exit 1; }
host_java=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}

section "dist-verify (jar, aarch64): Debian's arm64 OpenJDK 17 in a sysroot, qemu-user"
apt_install qemu-user unzip
bash scripts/test/java.sh --install-only >/dev/null
work=$root/out/dist-arm64-jdk
apt_dir=$work/apt
sysroot=$work/sysroot
jhome=$sysroot/usr/lib/jvm/java-17-openjdk-arm64
apt_private "$apt_dir" arm64
# The JRE and what its launcher, libjvm and the java.base libraries load; the JRE's other
# dependencies (CUPS, fonts, ALSA, NSS, ...) serve AWT, printing and TLS providers only.
pkgs=(openjdk-17-jre-headless libc6 libgcc-s1 libstdc++6 zlib1g)
if [ ! -x "$jhome/lib/jspawnhelper.aarch64" ]; then
  apt_sysroot "$apt_dir" "$sysroot" "${pkgs[@]}"
  for exe in bin/java lib/jspawnhelper; do
    mv "$jhome/$exe" "$jhome/$exe.aarch64"
    printf '#!/bin/sh\n# exec by the JVM: the host runs this script, qemu the aarch64 file\nexec qemu-aarch64 -L "%s" "%s" "$@"\n' \
      "$sysroot" "$jhome/$exe.aarch64" >"$jhome/$exe"
    chmod +x "$jhome/$exe"
  done
fi
ajava() { "$jhome/bin/java" "$@"; }
ajava -version 2>&1 | sed -n 's/^/  /;2p'

section "dist-verify (jar, aarch64): $(basename "$jar") loads and mints"
mkdir -p "$work/verify"
"$host_java/bin/javac" --release 17 -d "$work/verify" -cp "$jar" scripts/dist/JarVerify.java
start=$(date +%s%N)
(cd "$work" && ajava -cp "$jar:$work/verify" JarVerify "$plat")
echo "  $(( ($(date +%s%N) - start) / 1000000 )) ms, JVM start included"

section "dist-verify (jar, aarch64): the test hooks' library, cross-built for aarch64"
. scripts/dist/zig-toolchain.sh
t=aarch64-linux-gnu
# The tools dist/build.sh installed, as they are: zig_tools_install copies the headers anew, and
# their new dates would rebuild the whole library.
if [ -x "$tools/bin/python" ] && [ -f "$tools/include/curl/curl.h" ]; then
  inc=$tools/include
else
  zig_tools_install
fi
zig_wrappers "$t"
build=$builds/$t-java
mkdir -p "$build"
# dist/build.sh's Java build directory for this target (the same arguments, so its library is
# untouched) plus where the test library and its proxies go.
cmake_cross "$t" "$build" -DSNOWFLEET_BUILD_JAVA=ON -DJAVA_HOME="$host_java" \
  -DSNOWFLEET_JAVA_RESOURCES_DIR="$root/$build/java-resources" \
  -DSNOWFLEET_JAVA_SOURCES_DIR="$root/$build/java-sources" \
  -DSNOWFLEET_JAVA_TEST_SOURCES_DIR="$work/test-sources" \
  -DSNOWFLEET_JAVA_TEST_RESOURCES_DIR="$work/test-resources"
nice -n 15 cmake --build "$build" -j2 --target snowfleet_jni_test >/dev/null
file -b "$work/test-resources/native-test/libsnowfleet_jni_test.so" | cut -d, -f1-2

section "dist-verify (jar, aarch64): the Java suite on the arm64 JVM"
classes=$work/classes
tclasses=$work/test-classes
rm -rf "$classes" "$tclasses" && mkdir -p "$classes" "$tclasses"
(cd "$classes" && unzip -q "$jar" -x 'META-INF/*')
cp -r "$work/test-resources/native-test" "$tclasses/"
cp_file=$work/test.classpath
(mvn -B -q -ntp -Dstyle.color=never -f java/pom.xml dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$cp_file" &&
  mvn -B -q -ntp -Dstyle.color=never dependency:get \
    -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.1) >"$work/mvn.log" 2>&1 ||
  { cat "$work/mvn.log" >&2; exit 1; }
launcher=$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/1.14.1/junit-platform-console-standalone-1.14.1.jar
mapfile -t sources < <(find java/src/test/java "$work/test-sources" -name '*.java' -not -path '*/bench/*')
"$host_java/bin/javac" --release 17 -nowarn -d "$tclasses" -cp "$classes:$(cat "$cp_file")" "${sources[@]}"
# The launcher brings JUnit itself; the class path adds the tests' other dependencies.
deps=$(tr ':' '\n' <"$cp_file" | grep -v -e /org/junit/ -e /org/opentest4j/ -e /org/apiguardian/ | paste -sd:)
start=$(date +%s)
status=0
(cd "$work" && ajava -Xcheck:jni -Dsnowfleet.conformance.dir="$root/conformance/vectors" \
  -jar "$launcher" execute --disable-banner --disable-ansi-colors --details=tree --details-theme=ascii \
  --class-path "$classes:$tclasses:$deps" --scan-class-path "$tclasses" \
  --exclude-methodname '.*PlatformSelectionTest#thisJvmsPlatformIsOneTheBuildNamesItsLibraryFor.*' \
  --exclude-classname '.*[.]MemoryFlatTest' \
  "$@" >"$work/junit.log" 2>&1) || status=$?
grep -E '^  JUnit Jupiter:' "$work/junit.log" | sed 's/^/  FAILED /' || true
sed -n '/^Test run finished/,$p' "$work/junit.log" | grep -vE '^\s*$' | sed 's/^/  /'
echo "  (every test's line: $work/junit.log)"
echo "dist-verify (jar, aarch64): the suite took $(($(date +%s) - start)) s under qemu"
[ "$status" = 0 ]
