#!/usr/bin/env bash
# The Java benchmark: snowfleet through JNI against tsid-creator, a pure-Java copy of
# Twitter's IdWorker, Uuid7Generator against uuid-creator's UUIDv7 (getTimeOrderedEpoch), a
# bare JNI call and clock reads, all in the same run.
#
#   scripts/bench/java.sh [all|paired|jmh] [extra arguments for that tool]
#
# paired: dev.snowfleet.bench.PairedBench -- every contender runs one 20 ms slice per round
#         (200 ms for the two rate-capped rows) in a shuffled order, 3 JVM forks x 40 rounds,
#         so peers share the same minutes of a noisy machine; prints medians (ns/id, ids/s)
#         and median per-round ratios.
# jmh:    JMH 1.37 (dev.snowfleet.bench.IdBenchmark, 3 forks x 5 x 1 s after 3 x 1 s warmup);
#         prints JMH's table, then the median of all measurement iterations per row.
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
mode="${1:-all}"
[[ $# -gt 0 ]] && shift
cd java
quiet() { "$@" >target/bench-build.log 2>&1 || { cat target/bench-build.log; exit 1; }; }
mkdir -p target
quiet mvn -B -ntp -DskipTests package
quiet mvn -B -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
cp="target/classes:target/test-classes:$(cat target/bench.classpath)"
java="$JAVA_HOME/bin/java"
"$java" -version 2>&1 | head -1
if [[ "$mode" == all || "$mode" == paired ]]; then
  "$java" -cp "$cp" dev.snowfleet.bench.PairedBench "$@"
fi
if [[ "$mode" == all || "$mode" == jmh ]]; then
  out="target/jmh-result.json"
  "$java" -cp "$cp" org.openjdk.jmh.Main 'dev.snowfleet.bench.IdBenchmark' \
    -f 3 -wi 3 -w 1s -i 5 -r 1s -rf json -rff "$out" "$@"
  "$java" -cp "$cp" dev.snowfleet.bench.Report "$out"
fi
