package dev.snowfleet;

import dev.snowfleet.internal.jni.SnowfleetNative;
import java.time.Instant;
import java.util.Objects;

/**
 * The ids of a time, for range scans over an id column: {@link #minId} / {@link #maxId} of a
 * millisecond, and the inclusive bounds of the ids stamped in {@code [start, end)}
 * ({@code first <= id && id <= last}, SQL {@code id BETWEEN first AND last}).
 *
 * <p>A strict generator stamps an id with the millisecond it was minted in, so a slack of 0
 * is exact. A monotonic generator may stamp ids up to its {@code maxDriftMs} ahead of the
 * wall clock (never behind): to find every id it minted in a time range, pass that as
 * {@code slackMs}; it widens the upper bound only.
 *
 * <p>Times are {@link Instant}s (a whole millisecond: a finer part is refused, not rounded)
 * or Unix ms. A time outside the layout's window throws {@link TimestampOutOfRangeException};
 * an empty or reversed range or a negative slack {@link InvalidArgumentException}.
 */
public final class IdRange {
    private final long first;
    private final long last;

    private IdRange(long first, long last) {
        this.first = first;
        this.last = last;
    }

    /** The lowest id of the range. */
    public long first() {
        return first;
    }

    /** The highest id of the range (inclusive). */
    public long last() {
        return last;
    }

    /** The ids stamped in [start, end) under the default layout, without slack. */
    public static IdRange of(Instant start, Instant end) {
        return of(start, end, 0, Layout.DEFAULT);
    }

    /** The ids stamped in [start, end), the upper bound widened by {@code slackMs}. */
    public static IdRange of(Instant start, Instant end, long slackMs, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return ofMs(millis(start, "start"), millis(end, "end"), slackMs, layout);
    }

    /** As {@link #of(Instant, Instant, long, Layout)}, of Unix ms. */
    public static IdRange ofMs(long startMs, long endMs, long slackMs, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        long[] r = SnowfleetNative.idRange(layout.toString(), startMs, endMs, slackMs);
        return new IdRange(r[0], r[1]);
    }

    /** The lowest id any node can mint in {@code time}'s millisecond (default layout). */
    public static long minId(Instant time) {
        return minId(time, Layout.DEFAULT);
    }

    /** The lowest id any node can mint in {@code time}'s millisecond. */
    public static long minId(Instant time, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return minIdMs(millis(time, "time"), layout);
    }

    /** The lowest id any node can mint in Unix millisecond {@code ms}. */
    public static long minIdMs(long ms, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return SnowfleetNative.minId(layout.toString(), ms);
    }

    /** The highest id any node can mint in {@code time}'s millisecond (default layout). */
    public static long maxId(Instant time) {
        return maxId(time, Layout.DEFAULT);
    }

    /** The highest id any node can mint in {@code time}'s millisecond. */
    public static long maxId(Instant time, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return maxIdMs(millis(time, "time"), layout);
    }

    /** The highest id any node can mint in Unix millisecond {@code ms}. */
    public static long maxIdMs(long ms, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return SnowfleetNative.maxId(layout.toString(), ms);
    }

    /** Unix ms of a whole-millisecond Instant: the core's rule and message (whole_ms). */
    static long millis(Instant t, String name) {
        Objects.requireNonNull(t, name);
        return SnowfleetNative.wholeMs(name, t.getEpochSecond(), t.getNano());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdRange && ((IdRange) o).first == first && ((IdRange) o).last == last;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(first) * 31 + Long.hashCode(last);
    }

    @Override
    public String toString() {
        return "IdRange[first=" + first + ", last=" + last + "]";
    }
}
