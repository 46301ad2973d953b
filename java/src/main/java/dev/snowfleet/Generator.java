package dev.snowfleet;

import dev.snowfleet.internal.Natives;
import dev.snowfleet.internal.jni.NativeGenerator;
import dev.snowfleet.internal.jni.NativeGeneratorArgs;
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
 * // a split layout: the node as datacenter + machine
 * Generator.builder().layout(Layout.TWITTER).datacenterId(3).machineId(5).build();
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
    // The core's generator arguments (SNOWFLEET_GENERATOR_ARGS in lists.h), in order: one
    // Builder setter each. Checked against the core's list when the class loads, so a change
    // to the list fails here.
    private static final String ARGS =
            "layout,nodeId,datacenterId,machineId,nodeSource,mode,maxWaitMs,maxDriftMs,clock";

    static {
        String core = SnowfleetNative.generatorArgs();
        if (!ARGS.equals(core)) {
            throw new IllegalStateException("dev.snowfleet.Generator.Builder sets " + ARGS + "; the core's arguments are " + core);
        }
    }

    private final NativeGenerator handle;
    private final long pointer;  // handle's C++ object, for the proxy-less hot path
    private final Layout layout;
    private final Mode mode;

    private Generator(Builder b) {
        NativeGeneratorArgs args = b.args();
        try {
            handle = new NativeGenerator(args);
        } finally {
            args.delete();
        }
        pointer = NativeGenerator.getCPtr(handle);
        Natives.freeGeneratorWhenUnreachable(handle, pointer);
        layout = new Layout(handle.layout());
        mode = Mode.values()[handle.mode()];
    }

    /**
     * A builder. Options left unset take the core's defaults (default layout, strict,
     * maxWaitMs 5, maxDriftMs 1000); the node must be given one way: nodeId, datacenterId +
     * machineId, or nodeSource.
     */
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
     * @throws GeneratorClosedException after {@link #close()}, whatever n is (checked first)
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
        return FieldRecords.STATS.of(handle.stats());
    }

    /** Reads the clock once and reports whether a call now would be served. */
    public Status status() {
        return FieldRecords.STATUS.of(handle.status());
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

    /**
     * Options for a {@link Generator}. The builder records only what is set; the core applies
     * every rule and default in {@link #build()} (snowfleet::resolve_options), so Java accepts
     * and refuses exactly what every other snowfleet package does.
     */
    public static final class Builder {
        private Layout layout;
        private Long nodeId;
        private Long datacenterId;
        private Long machineId;
        private String nodeSource;
        private Mode mode;
        private Double maxWaitMs;
        private Long maxDriftMs;
        private ScriptedClock clock;

        private Builder() {}

        /** The whole node field, 0 .. layout.maxNodeId(). One node form only (see {@link #build()}). */
        public Builder nodeId(long nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        /**
         * The node field's high part, 0 .. layout.maxDatacenterId(); with {@link #machineId}:
         * the node is {@code datacenterId << machineBits | machineId}. An unsplit layout has
         * datacenter 0 only.
         */
        public Builder datacenterId(long datacenterId) {
            this.datacenterId = datacenterId;
            return this;
        }

        /** The node field's low part, 0 .. layout.maxMachineId(); with {@link #datacenterId}. */
        public Builder machineId(long machineId) {
            this.machineId = machineId;
            return this;
        }

        /**
         * Where the node id comes from, as the string every snowfleet package and the CLI
         * share: "static:37", "env:SNOWFLEET_NODE_ID", "k8s[:OFFSET]", "local[:DIR][?share=NAME]",
         * "etcd://host:port/prefix?ttl=10", "postgres://...", "k8s-lease://PREFIX". The last
         * four lease the node id (see
         * {@link Status#leaseState()}). An empty string is refused by {@link #build()}.
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
         * @throws InvalidArgumentException for an option outside its domain, an empty node
         *     source, or a node given in no form, in two forms or half (datacenterId without
         *     machineId); the message names the argument and the value
         * @throws NodeIdUnavailableException when the node source cannot provide a node id
         */
        public Generator build() {
            return new Generator(this);
        }

        /** The native GeneratorArgs holding exactly the options that were set. */
        private NativeGeneratorArgs args() {
            NativeGeneratorArgs a = new NativeGeneratorArgs();
            if (layout != null) {
                a.setLayout(layout.epochMs(), layout.timestampBits(), layout.datacenterBits(),
                        layout.machineBits(), layout.sequenceBits());
            }
            if (nodeId != null) {
                a.setNodeId(nodeId);
            }
            if (datacenterId != null) {
                a.setDatacenterId(datacenterId);
            }
            if (machineId != null) {
                a.setMachineId(machineId);
            }
            if (nodeSource != null) {
                a.setNodeSource(nodeSource);
            }
            if (mode != null) {
                a.setMode(mode.text());
            }
            if (maxWaitMs != null) {
                a.setMaxWaitMs(maxWaitMs);
            }
            if (maxDriftMs != null) {
                a.setMaxDriftMs(maxDriftMs);
            }
            if (clock != null) {
                a.setClock(Natives.clockHandle(clock));
            }
            return a;
        }
    }
}
