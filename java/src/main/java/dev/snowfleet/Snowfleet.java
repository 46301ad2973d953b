package dev.snowfleet;

import dev.snowfleet.internal.jni.SnowfleetNative;
import java.util.Objects;

/** The codec: compose, decode and parse ids, and parse time text, without a generator. */
public final class Snowfleet {
    private Snowfleet() {}

    /**
     * Unpacks an id made with the default layout.
     *
     * @throws InvalidArgumentException for a negative id
     */
    public static Decoded decode(long id) {
        return decode(id, Layout.DEFAULT);
    }

    /**
     * Unpacks an id made with {@code layout}.
     *
     * @throws InvalidArgumentException for a negative id
     */
    public static Decoded decode(long id, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return decoded(SnowfleetNative.decode(layout.epochMs(), layout.timestampBits(),
                layout.datacenterBits(), layout.machineBits(), layout.sequenceBits(), id));
    }

    /**
     * Unpacks an id given as decimal text (as it arrives in JSON, a URL or a log line), made
     * with the default layout.
     *
     * @throws InvalidArgumentException quoting the text unless it is digits only, 0 &lt;= id
     *     &lt;= 2^63 - 1
     */
    public static Decoded decode(String id) {
        return decode(id, Layout.DEFAULT);
    }

    /** As {@link #decode(String)}, for an id made with {@code layout}. */
    public static Decoded decode(String id, Layout layout) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(layout, "layout");
        return decoded(SnowfleetNative.decodeText(layout.epochMs(), layout.timestampBits(),
                layout.datacenterBits(), layout.machineBits(), layout.sequenceBits(), id));
    }

    private static Decoded decoded(long[] f) {
        return new Decoded(f[0], f[1], f[2], f[3], f[4]);
    }

    /**
     * Packs a timestamp (Unix ms), node id and sequence into an id. Nothing is masked. The
     * layout comes last, as in {@link #decode(long, Layout)} and {@link IdRange#of}.
     *
     * @throws TimestampOutOfRangeException when the timestamp is outside the layout's window
     * @throws InvalidArgumentException when the node id or sequence does not fit its field
     */
    public static long compose(long timestampMs, long nodeId, long sequence, Layout layout) {
        return compose(timestampMs, NodeArgs.of(nodeId), sequence, layout);
    }

    /**
     * As {@link #compose(long, long, long, Layout)}, with the node given as datacenter and
     * machine ids (for a split layout; an unsplit one takes datacenter 0).
     */
    public static long compose(long timestampMs, long datacenterId, long machineId, long sequence,
            Layout layout) {
        return compose(timestampMs, NodeArgs.of(datacenterId, machineId), sequence, layout);
    }

    /**
     * As {@link #compose(long, long, long, Layout)}, with the node in whichever form
     * {@code node} holds. The core checks the forms as a generator's: exactly one of node id
     * or datacenter + machine (both halves), else {@link InvalidArgumentException} naming
     * what was given.
     */
    public static long compose(long timestampMs, NodeArgs node, long sequence, Layout layout) {
        return composeGiven(layout, timestampMs, node, sequence);
    }

    /**
     * As {@link #compose(long, NodeArgs, long, Layout)} without a sequence: the core's
     * default, 0 (the node's first id of that millisecond).
     */
    public static long compose(long timestampMs, NodeArgs node, Layout layout) {
        return composeGiven(layout, timestampMs, node, null);
    }

    /** @deprecated the layout goes last: {@link #compose(long, long, long, Layout)}. */
    @Deprecated
    public static long compose(Layout layout, long timestampMs, long nodeId, long sequence) {
        return compose(timestampMs, nodeId, sequence, layout);
    }

    /** @deprecated the layout goes last: {@link #compose(long, long, long, long, Layout)}. */
    @Deprecated
    public static long compose(Layout layout, long timestampMs, long datacenterId, long machineId,
            long sequence) {
        return compose(timestampMs, datacenterId, machineId, sequence, layout);
    }

    /** @deprecated the layout goes last: {@link #compose(long, NodeArgs, long, Layout)}. */
    @Deprecated
    public static long compose(Layout layout, long timestampMs, NodeArgs node, long sequence) {
        return compose(timestampMs, node, sequence, layout);
    }

    /** @deprecated the layout goes last: {@link #compose(long, NodeArgs, Layout)}. */
    @Deprecated
    public static long compose(Layout layout, long timestampMs, NodeArgs node) {
        return compose(timestampMs, node, layout);
    }

    /** The one call into the core; a null field (node part or sequence) is not given. */
    private static long composeGiven(Layout layout, long timestampMs, NodeArgs node, Long sequence) {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(node, "node");
        return SnowfleetNative.compose(layout.epochMs(), layout.timestampBits(),
                layout.datacenterBits(), layout.machineBits(), layout.sequenceBits(), timestampMs,
                node.nodeId() != null, orZero(node.nodeId()),
                node.datacenterId() != null, orZero(node.datacenterId()),
                node.machineId() != null, orZero(node.machineId()),
                sequence != null, orZero(sequence));
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }

    /**
     * Parses a decimal id: digits only, 0 &lt;= id &lt;= 2^63 - 1.
     *
     * @throws InvalidArgumentException quoting the text otherwise
     */
    public static long parseId(String text) {
        Objects.requireNonNull(text, "text");
        return SnowfleetNative.parseId(text);
    }

    /**
     * Parses an RFC 3339 date-time into Unix milliseconds with the core's one parser (the
     * CLI's {@code --time} and every language use it), e.g.
     * {@code parseTime("2025-01-24T20:35:58.021+01:00") == 1737747358021L}.
     *
     * <p>{@code YYYY-MM-DDTHH:MM:SS[.fraction]} then {@code Z}, {@code +HH:MM} or
     * {@code -HH:MM}; {@code t}/{@code z} may be lower case; no space for {@code T}; years
     * 0000-9999; the day must exist in its month; digits past the millisecond must be 0 (an
     * id's timestamp is whole milliseconds); no leap second ({@code :60}).
     *
     * @throws InvalidArgumentException quoting the text and naming the rule otherwise
     * @throws NullPointerException for a null text
     */
    public static long parseTime(String text) {
        Objects.requireNonNull(text, "text");
        return SnowfleetNative.parseIso8601(text);
    }
}
