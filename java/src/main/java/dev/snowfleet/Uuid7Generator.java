package dev.snowfleet;

import dev.snowfleet.internal.Natives;
import dev.snowfleet.internal.jni.NativeUuid7Args;
import dev.snowfleet.internal.jni.NativeUuid7Generator;
import dev.snowfleet.internal.jni.SnowfleetNative;
import dev.snowfleet.testing.ScriptedClock;
import dev.snowfleet.testing.ScriptedRandom;
import java.lang.ref.Reference;
import java.util.Objects;
import java.util.UUID;

/**
 * A thread-safe RFC 9562 UUIDv7 generator: the core's Uuid7Generator behind a JNI handle,
 * with a Snowflake {@link Generator}'s guarantees (rewind guard, wait budget, strict and
 * monotonic modes, batch form), because the core mints each (millisecond, counter) pair with
 * one. See docs/uuid7.md for the bit layout and the counter.
 *
 * <pre>{@code
 * try (Uuid7Generator gen = Uuid7Generator.builder().build()) {
 *     UUID id = gen.nextUuid7();
 *     UUID[] batch = gen.nextUuid7s(10_000);   // ascending
 * }
 * Uuid7Fields f = Uuid7.decode(id.toString());
 * }</pre>
 *
 * <p>UUIDs of one generator, in any threads, are strictly increasing in the order they are
 * minted, compared as unsigned 128-bit numbers (their canonical text order). Note that
 * {@link UUID#compareTo} compares the halves as <em>signed</em> longs, which disagrees once
 * the timestamp's top bit is set (after the year 6429).
 *
 * <p>{@link #close()} stops the generator (later calls throw
 * {@link GeneratorClosedException}); the native memory goes when the generator becomes
 * unreachable, as with {@link Generator}.
 */
public final class Uuid7Generator implements AutoCloseable {
    private final NativeUuid7Generator handle;
    private final long pointer;  // handle's C++ object, for the proxy-less hot path
    private final Mode mode;

    private Uuid7Generator(Builder b) {
        NativeUuid7Args args = b.args();
        try {
            handle = new NativeUuid7Generator(args);
        } finally {
            args.delete();
        }
        pointer = NativeUuid7Generator.getCPtr(handle);
        Natives.freeUuid7GeneratorWhenUnreachable(handle, pointer);
        mode = Mode.values()[handle.mode()];
    }

    /**
     * A builder. Options left unset take the core's defaults (strict, maxWaitMs 5,
     * maxDriftMs 1000, the system clock and the system's CSPRNG).
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next UUIDv7.
     *
     * @throws ClockMovedBackwardsException when the clock is behind (or stopped) for longer
     *     than the wait budget; nothing was issued
     * @throws TimestampOutOfRangeException when the clock is before 1970 or after 10889
     * @throws GeneratorClosedException after {@link #close()}
     */
    public UUID nextUuid7() {
        long[] halves = new long[2];
        // One static JNI call; the fence keeps the proxy (whose Cleaner frees the C++ object)
        // reachable until the call has returned.
        SnowfleetNative.uuid7NextInto(pointer, halves);
        Reference.reachabilityFence(handle);
        return new UUID(halves[0], halves[1]);
    }

    /**
     * {@code n} ascending UUIDs, filled by one native call. If a wait fails part-way, the
     * UUIDs already reserved are skipped (never issued) and the exception is thrown.
     *
     * @throws GeneratorClosedException after {@link #close()}, whatever n is (checked first)
     * @throws InvalidArgumentException when n is negative or above 2^24
     * @throws OutOfMemoryError when the arrays cannot be allocated; nothing was issued
     */
    public UUID[] nextUuid7s(int n) {
        long[] halves = handle.nextUuid7s(n);
        UUID[] out = new UUID[halves.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = new UUID(halves[2 * i], halves[2 * i + 1]);
        }
        return out;
    }

    /** The generator's counters (ids_issued counts UUIDs). */
    public Stats stats() {
        return FieldRecords.STATS.of(handle.stats());
    }

    /** Reads the clock once and reports whether a call now would be served, as {@link Generator#status()} (node id 0). */
    public Status status() {
        return FieldRecords.STATUS.of(handle.status());
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

    /** Stops the generator. Idempotent. */
    @Override
    public void close() {
        handle.close();
    }

    @Override
    public String toString() {
        return "Uuid7Generator[" + mode.text() + "]";
    }

    /**
     * Options for a {@link Uuid7Generator}: a Snowflake generator's minus the node and the
     * layout. The builder records only what is set; the core checks every value in
     * {@link #build()}.
     */
    public static final class Builder {
        private Mode mode;
        private Double maxWaitMs;
        private Long maxDriftMs;
        private ScriptedClock clock;
        private ScriptedRandom random;

        private Builder() {}

        public Builder mode(Mode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** As {@link Generator.Builder#maxWaitMs}: in [0, 60000]. */
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
         * A scripted random source for deterministic tests (with a scripted clock every UUID
         * is known in advance); null (the default) is the system's CSPRNG.
         */
        public Builder random(ScriptedRandom random) {
            this.random = random;
            return this;
        }

        /**
         * Creates the generator.
         *
         * @throws InvalidArgumentException for an option outside its domain, naming it and
         *     the value
         */
        public Uuid7Generator build() {
            return new Uuid7Generator(this);
        }

        private NativeUuid7Args args() {
            NativeUuid7Args a = new NativeUuid7Args();
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
            if (random != null) {
                a.setRandom(Natives.randomHandle(random));
            }
            return a;
        }
    }
}
