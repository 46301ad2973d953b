package dev.snowfleet.bench;

import com.github.f4b6a3.tsid.TsidCreator;
import dev.snowfleet.Generator;
import dev.snowfleet.Mode;
import dev.snowfleet.internal.jnitest.SnowfleetTestNative;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * snowfleet from Java against its peers, all in one JMH run (scripts/bench/java.sh prints the
 * medians and ratios). Every score is ns per id (average time per operation per thread).
 *
 * <p>The monotonic generator runs with maxDriftMs = 1 day: a tight loop mints ~5x faster than
 * the 4,096 ids/ms a 12-bit sequence holds, and the default 1000 ms drift limit would turn
 * the benchmark into a measurement of that rate limit (the monotonicDefaultDrift row shows
 * it). tsid-creator has no such limit (22 counter bits per ms, borrowing like monotonic mode).
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class IdBenchmark {
    Generator strict;
    Generator monotonic;
    Generator monotonicDefaultDrift;
    TwitterIdWorker twitter;
    long x = 1;

    @Setup(Level.Trial)
    public void setUp() {
        strict = Generator.builder().nodeId(1).build();
        monotonic = Generator.builder().nodeId(2).mode(Mode.MONOTONIC).maxDriftMs(86_400_000).build();
        monotonicDefaultDrift = Generator.builder().nodeId(3).mode(Mode.MONOTONIC).build();
        twitter = new TwitterIdWorker(1, 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        strict.close();
        monotonic.close();
        monotonicDefaultDrift.close();
    }

    // ---- one thread ------------------------------------------------------------------

    @Benchmark
    public long strictNextId() {
        return strict.nextId();
    }

    @Benchmark
    public long monotonicNextId() {
        return monotonic.nextId();
    }

    @Benchmark
    public long monotonicDefaultDriftNextId() {
        return monotonicDefaultDrift.nextId();
    }

    @Benchmark
    @OperationsPerInvocation(10_000)
    public long[] monotonicNextIds10000() {
        return monotonic.nextIds(10_000);
    }

    @Benchmark
    @OperationsPerInvocation(10_000)
    public long[] strictNextIds10000() {
        return strict.nextIds(10_000);
    }

    @Benchmark
    public long tsidCreator() {
        return TsidCreator.getTsid().toLong();
    }

    @Benchmark
    public long twitterIdWorkerJava() {
        return twitter.nextId();
    }

    // ---- two threads on one generator (tsid-creator's default factory is shared too) ---

    @Benchmark
    @Threads(2)
    public long monotonicNextId2Threads() {
        return monotonic.nextId();
    }

    @Benchmark
    @Threads(2)
    public long tsidCreator2Threads() {
        return TsidCreator.getTsid().toLong();
    }

    @Benchmark
    @Threads(2)
    public long strictNextId2Threads() {
        return strict.nextId();
    }

    // ---- reference rows ----------------------------------------------------------------

    /** One bare JNI call (a static native method returning its long argument). */
    @Benchmark
    public long bareJniCall() {
        return SnowfleetTestNative.echo(x);
    }

    @Benchmark
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Benchmark
    public Instant instantNow() {
        return Instant.now();
    }
}
