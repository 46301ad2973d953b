package dev.snowfleet;

import dev.snowfleet.internal.Natives;
import dev.snowfleet.internal.jni.NativeGenerator;
import dev.snowfleet.internal.jni.NativeScriptedClock;
import dev.snowfleet.internal.jni.SnowfleetNative;
import dev.snowfleet.testing.ScriptedClock;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * A thread-safe id generator: one core generator behind a JNI handle.
 *
 * <pre>{@code
 * try (Generator gen = Generator.builder().nodeId(37).build()) {
 *     long id = gen.nextId();
 *     long[] batch = gen.nextIds(10_000);   // ascending
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops the generator (later calls throw
 * {@link GeneratorClosedException}) and releases a leased node id; the native memory goes
 * when the generator becomes unreachable (a {@link java.lang.ref.Cleaner}, no finalizer),
 * so closing while another thread is inside {@code nextId()} is safe.
 *
 * <p>Generators of one JVM with the same node id (not leased), the same layout and the
 * system clock share one state word in the core, so two of them, in any threads, never
 * mint the same id; a strict one waits or refuses while a monotonic sibling runs ahead of
 * the wall clock.
 */
public final class Generator implements AutoCloseable {
    private final NativeGenerator handle;
    private final long pointer;  // handle's C++ object, for the proxy-less hot path
    private final Layout layout;
    private final Mode mode;

    private Generator(Builder b) {
        Layout l = b.layout;
        NativeScriptedClock clock = b.clock == null ? null : Natives.clockHandle(b.clock);
        handle = new NativeGenerator(l.epochMs(), l.timestampBits(), l.datacenterBits(),
                l.machineBits(), l.sequenceBits(), b.nodeId, b.nodeSource, b.mode.text(),
                b.maxWaitMs, b.maxDriftMs, clock);
        pointer = NativeGenerator.getCPtr(handle);
        Natives.freeGeneratorWhenUnreachable(handle, pointer);
        layout = l;
        mode = b.mode;
    }

    /** A builder with the core's defaults: default layout, strict, maxWaitMs 5, maxDriftMs 1000. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next id.
     *
     * @throws ClockMovedBackwardsException when the clock is behind (or stopped) for longer
     *     than the wait budget; nothing was issued
     * @throws TimestampOutOfRangeException when the clock is outside the layout's window
     * @throws GeneratorClosedException after {@link #close()}
     * @throws ForkDetectedException in a child process forked after the generator was made
     */
    public long nextId() {
        // One static JNI call with a long argument; the fence keeps the proxy (whose Cleaner
        // frees the C++ object) reachable until the call has returned.
        long id = SnowfleetNative.generatorNextId(pointer);
        Reference.reachabilityFence(handle);
        return id;
    }

    /**
     * {@code n} ascending ids, filled by one native call (runs inside one millisecond are
     * reserved with one clock read). If a wait fails part-way, the ids already reserved are
     * skipped (never issued to anyone) and the exception is thrown.
     *
     * @throws InvalidArgumentException when n is negative or above 2^24
     * @throws OutOfMemoryError when the array (or the native buffer it is filled from) cannot
     *     be allocated; that happens before any id is reserved, so nothing was issued and the
     *     next call works
     */
    public long[] nextIds(int n) {
        return handle.nextIds(n);
    }

    /** The generator's counters. */
    public Stats stats() {
        long[] s = handle.stats();
        return new Stats(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]);
    }

    /** Reads the clock once and reports whether a call now would be served. */
    public Status status() {
        long[] v = new long[9];
        String reason = handle.status(v);
        return new Status(v[0] != 0, reason, v[1], v[2], v[3], v[4], Mode.values()[(int) v[5]],
                LeaseState.values()[(int) v[6]], v[7], v[8]);
    }

    /** max(0, last issued ms - wall clock now): how far ahead the generator runs. Reads the clock. */
    public long driftMs() {
        return handle.driftMs();
    }

    public long nodeId() {
        return handle.nodeId();
    }

    public Layout layout() {
        return layout;
    }

    public Mode mode() {
        return mode;
    }

    public double maxWaitMs() {
        return handle.maxWaitMs();
    }

    public long maxDriftMs() {
        return handle.maxDriftMs();
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return handle.closed();
    }

    /** Stops the generator and releases a leased node id. Idempotent. */
    @Override
    public void close() {
        handle.close();
    }

    @Override
    public String toString() {
        return "Generator[node " + nodeId() + ", " + layout + ", " + mode.text() + "]";
    }

    /** Options for a {@link Generator}; every value is validated by the core in {@link #build()}. */
    public static final class Builder {
        private Layout layout = Layout.standard();
        private long nodeId = -1;
        private String nodeSource = "";
        private Mode mode = Mode.STRICT;
        private double maxWaitMs = SnowfleetNative.defaultMaxWaitMs();
        private long maxDriftMs = SnowfleetNative.defaultMaxDriftMs();
        private ScriptedClock clock;

        private Builder() {}

        /** 0 .. layout.maxNodeId(). Required unless {@link #nodeSource} is set (not both). */
        public Builder nodeId(long nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        /**
         * Where the node id comes from, as the string every snowfleet package and the CLI
         * share: "static:37", "env:SNOWFLEET_NODE_ID", "k8s[:OFFSET]", "local[:DIR]",
         * "etcd://host:port/prefix?ttl=10". Empty: use {@link #nodeId}. "local" and "etcd"
         * lease the node id (see {@link Status#leaseState()}). Setting both this and
         * {@link #nodeId} makes {@link #build()} throw {@link InvalidArgumentException}.
         */
        public Builder nodeSource(String nodeSource) {
            this.nodeSource = Objects.requireNonNull(nodeSource, "nodeSource");
            return this;
        }

        public Builder layout(Layout layout) {
            this.layout = Objects.requireNonNull(layout, "layout");
            return this;
        }

        public Builder mode(Mode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Rewinds up to this many ms are waited out, larger ones refused; also bounds every
         * wait inside one call (at least 1 ms). In [0, 60000].
         */
        public Builder maxWaitMs(double maxWaitMs) {
            this.maxWaitMs = maxWaitMs;
            return this;
        }

        /** Monotonic mode: how far the logical clock may run ahead of the wall clock, in ms. */
        public Builder maxDriftMs(long maxDriftMs) {
            this.maxDriftMs = maxDriftMs;
            return this;
        }

        /** A scripted clock for deterministic tests; null (the default) is the system clock. */
        public Builder clock(ScriptedClock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * Creates the generator.
         *
         * @throws InvalidArgumentException for an option outside its domain (message names it)
         * @throws NodeIdUnavailableException when the node source cannot provide a node id
         */
        public Generator build() {
            return new Generator(this);
        }
    }
}
