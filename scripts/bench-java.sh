#!/usr/bin/env bash
# The Java benchmark (JMH): snowfleet through JNI against tsid-creator, a pure-Java copy of
# Twitter's IdWorker, a bare JNI call and clock reads, all in one run. Prints JMH's table,
# then the median of every measurement iteration across forks as ns/id and ids/s, and the
# ratios. Arguments go to JMH, e.g.  scripts/bench-java.sh -f 1 -i 3   (a quick look).
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
cd java
mvn -B -q -ntp -DskipTests package >/dev/null
mvn -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath >/dev/null
cp="target/classes:target/test-classes:$(cat target/bench.classpath)"
out="target/jmh-result.json"
"$JAVA_HOME/bin/java" -cp "$cp" org.openjdk.jmh.Main 'dev.snowfleet.bench.IdBenchmark' \
  -f 3 -wi 3 -w 1s -i 5 -r 1s -rf json -rff "$out" "$@"
"$JAVA_HOME/bin/java" -cp "$cp" dev.snowfleet.bench.Report "$out"
