package dev.snowfleet.testing;

import dev.snowfleet.internal.Natives;
import dev.snowfleet.internal.jni.NativeScriptedClock;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The core's scripted clock, for deterministic tests: wall readings come from a script and
 * monotonic time is virtual (it advances only when the generator sleeps). Thread-safe. Pass
 * it to {@code Generator.builder().clock(...)}.
 *
 * <p>The script is a list of {@link Segment}s. Segment {ms, count, stepMs, every} yields
 * {@code count} readings {@code ms + stepMs * (i / every)}; after the last segment the clock
 * keeps extending the last segment's pattern, so {@code [of(t)]} is frozen,
 * {@code [of(a), of(b, 1, 1)]} returns a, b, b+1, ..., and {@code [of(t, 1, -4)]} retreats
 * 4 ms per read.
 *
 * <p>Monotonic time advances only by what sleeps on the clock; the wall clock follows the
 * script alone unless the clock {@linkplain #setTicking ticks}, when time slept passes on the
 * wall too, so a test of a wait sees the clock move while the generator waits.
 */
public final class ScriptedClock {
    static {
        Natives.setClockHandles(c -> ((ScriptedClock) c).handle);
    }

    private final NativeScriptedClock handle;

    /**
     * One script segment.
     *
     * @param ms Unix ms of the segment's first reading
     * @param count readings in this segment (at least 1)
     * @param stepMs added every {@code every} readings (may be negative)
     * @param every at least 1
     */
    public record Segment(long ms, long count, long stepMs, long every) {
        /** A single reading (and, as the last segment, a frozen clock). */
        public static Segment of(long ms) {
            return new Segment(ms, 1, 0, 1);
        }

        /** {@code count} readings stepping by {@code stepMs} each. */
        public static Segment of(long ms, long count, long stepMs) {
            return new Segment(ms, count, stepMs, 1);
        }

        /** {@code count} readings stepping by {@code stepMs} every {@code every} readings. */
        public static Segment of(long ms, long count, long stepMs, long every) {
            return new Segment(ms, count, stepMs, every);
        }
    }

    /** A clock frozen at {@code ms} (Unix ms). */
    public ScriptedClock(long ms) {
        this(new NativeScriptedClock(ms));
    }

    /**
     * A clock following {@code script}.
     *
     * @throws dev.snowfleet.InvalidArgumentException for an empty script or a count/every below 1
     */
    public ScriptedClock(List<Segment> script) {
        this(new NativeScriptedClock(flatten(script)));
    }

    private ScriptedClock(NativeScriptedClock handle) {
        this.handle = handle;
        Natives.freeClockWhenUnreachable(handle, NativeScriptedClock.getCPtr(handle));
    }

    /** A clock following the given segments. */
    public static ScriptedClock of(Segment... script) {
        return new ScriptedClock(Arrays.asList(script));
    }

    /** Replaces the remaining script (readings restart at its first segment). */
    public void setScript(List<Segment> script) {
        handle.setScript(flatten(script));
    }

    /** Appends one segment to the script. */
    public void append(Segment segment) {
        append(segment.ms(), segment.count(), segment.stepMs(), segment.every());
    }

    /** Appends one reading at {@code ms} (as the last segment: the clock freezes there). */
    public void append(long ms) {
        append(ms, 1, 0, 1);
    }

    /** Appends segment {ms, count, stepMs, every} (see {@link Segment}). */
    public void append(long ms, long count, long stepMs, long every) {
        handle.append(ms, count, stepMs, every);
    }

    /**
     * Ticking: while on, time slept on this clock passes on the wall too (every reading is the
     * script's plus the ns slept since ticking was turned on or the script last set). Off by
     * default: a frozen script stays frozen.
     */
    public void setTicking(boolean ticking) {
        handle.setTicking(ticking);
    }

    /** Whether the clock {@linkplain #setTicking ticks}. */
    public boolean isTicking() {
        return handle.ticking();
    }

    /** Sleeps {@code ns} of virtual time on the clock, as a generator's wait does (returns at once). */
    public void sleepNs(long ns) {
        handle.sleepNs(ns);
    }

    /** Freezes the wall clock at {@code ms} (replaces the script). */
    public void setWallMs(long ms) {
        handle.setWallMs(ms);
    }

    /** Moves the wall clock by {@code deltaMs} from the reading it would return next, and freezes it there. */
    public void advanceWallMs(long deltaMs) {
        handle.advanceWallMs(deltaMs);
    }

    /** The reading the next wall read would return, in ms (does not consume it). */
    public long peekWallMs() {
        return handle.peekWallMs();
    }

    /** Consumes one wall reading, in ns since the Unix epoch. */
    public long wallNs() {
        return handle.wallNs();
    }

    /** Virtual monotonic time, ns: the total slept so far. */
    public long monotonicNs() {
        return handle.monotonicNs();
    }

    /** Wall readings consumed so far. */
    public long reads() {
        return handle.reads();
    }

    /** Sleeps so far. */
    public long sleepCount() {
        return handle.sleepCount();
    }

    /** Total virtual time slept, ns. */
    public long sleptNs() {
        return handle.sleptNs();
    }

    /** Longest single sleep, ns (0 when none). */
    public long maxSleepNs() {
        return handle.maxSleepNs();
    }

    /** Shortest single sleep, ns (0 when none). */
    public long minSleepNs() {
        return handle.minSleepNs();
    }

    private static long[] flatten(List<Segment> script) {
        Objects.requireNonNull(script, "script");
        long[] flat = new long[script.size() * 4];
        for (int i = 0; i < script.size(); i++) {
            Segment s = Objects.requireNonNull(script.get(i), "script segment");
            flat[4 * i] = s.ms();
            flat[4 * i + 1] = s.count();
            flat[4 * i + 2] = s.stepMs();
            flat[4 * i + 3] = s.every();
        }
        return flat;
    }
}
