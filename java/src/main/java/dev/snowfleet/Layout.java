package dev.snowfleet;

import dev.snowfleet.internal.jni.NativeLayoutArgs;
import dev.snowfleet.internal.jni.SnowfleetNative;
import java.util.Objects;

/**
 * The bit layout of an id: 1 sign bit (always 0) + timestamp + node + sequence = 64, where
 * node may be split into datacenter (high bits) + machine (low bits). Immutable and always
 * valid: every factory asks the core, which validates. Text form: "41.10.12@1704067200000"
 * or, split, "41.5.5.12@1288834974657".
 */
public final class Layout {
    // The core's layout fields (SNOWFLEET_LAYOUT_FIELDS in lists.h) in the order of its long[]
    // description, which the constructor reads; checked against the core's list on loading,
    // before any Layout exists, so a change to the list fails here, not in a wrong field.
    private static final String FIELDS = "epochMs,timestampBits,nodeBits,datacenterBits,machineBits,"
            + "sequenceBits,timestampShift,nodeShift,maxNodeId,maxDatacenterId,maxMachineId,maxSequence,"
            + "maxElapsedMs,maxTimestampMs";

    static {
        String core = SnowfleetNative.layoutFields();
        if (!FIELDS.equals(core)) {
            throw new IllegalStateException("dev.snowfleet.Layout reads " + FIELDS + "; the core's fields are " + core);
        }
    }

    /** The default layout 41.10.12@1704067200000 (epoch 2024-01-01T00:00:00Z); text name "default". */
    public static final Layout DEFAULT = parse("default");
    /** Twitter's 41.5.5.12@1288834974657; text name "twitter". */
    public static final Layout TWITTER = parse("twitter");
    /** Discord's 41.5.5.12@1420070400000; text name "discord". */
    public static final Layout DISCORD = parse("discord");

    private final long epochMs;
    private final int timestampBits;
    private final int datacenterBits;
    private final int machineBits;
    private final int sequenceBits;
    private final int nodeBits;
    private final int nodeShift;
    private final int timestampShift;
    private final long maxNodeId;
    private final long maxDatacenterId;
    private final long maxMachineId;
    private final long maxSequence;
    private final long maxElapsedMs;
    private final long maxTimestampMs;
    private final String text;
    private final String presetName;

    /** From the core's description (SnowfleetNative.layoutParse's long[], in FIELDS order). */
    Layout(long[] d) {
        epochMs = d[0];
        timestampBits = (int) d[1];
        nodeBits = (int) d[2];
        datacenterBits = (int) d[3];
        machineBits = (int) d[4];
        sequenceBits = (int) d[5];
        timestampShift = (int) d[6];
        nodeShift = (int) d[7];
        maxNodeId = d[8];
        maxDatacenterId = d[9];
        maxMachineId = d[10];
        maxSequence = d[11];
        maxElapsedMs = d[12];
        maxTimestampMs = d[13];
        text = SnowfleetNative.layoutText(epochMs, timestampBits, datacenterBits, machineBits, sequenceBits);
        presetName = SnowfleetNative.layoutPreset(epochMs, timestampBits, datacenterBits, machineBits, sequenceBits);
    }

    /**
     * Parses the text form or a preset name ("default", "twitter", "discord").
     *
     * @throws InvalidArgumentException quoting the text when it is not a valid layout
     */
    public static Layout parse(String text) {
        return new Layout(SnowfleetNative.layoutParse(Objects.requireNonNull(text, "text")));
    }

    /**
     * A layout with an unsplit node field: {@code builder()} with these four fields.
     *
     * @throws InvalidArgumentException naming the bad field
     */
    public static Layout create(long epochMs, long timestampBits, long nodeBits, long sequenceBits) {
        return builder().epochMs(epochMs).timestampBits(timestampBits).nodeBits(nodeBits)
                .sequenceBits(sequenceBits).build();
    }

    /**
     * A layout whose node field is datacenterBits (at least 1) + machineBits: {@code
     * builder()} with these five fields.
     *
     * @throws InvalidArgumentException naming the bad field
     */
    public static Layout createSplit(long epochMs, long timestampBits, long datacenterBits,
            long machineBits, long sequenceBits) {
        return builder().epochMs(epochMs).timestampBits(timestampBits).datacenterBits(datacenterBits)
                .machineBits(machineBits).sequenceBits(sequenceBits).build();
    }

    /**
     * A builder: set epochMs, timestampBits, sequenceBits, and the node field as nodeBits
     * (unsplit) or datacenterBits + machineBits (split).
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A layout's fields as the caller gives them. The builder records only what is set; in
     * {@link #build()} the core decides which fields go together and checks each as given
     * (snowfleet::Layout::create(LayoutArgs)), so Java accepts and refuses exactly what every
     * other snowfleet package does.
     */
    public static final class Builder {
        private Long epochMs;
        private Long timestampBits;
        private Long nodeBits;
        private Long datacenterBits;
        private Long machineBits;
        private Long sequenceBits;

        private Builder() {}

        /** Unix ms of timestamp 0, in [0, 253402300799999] (9999-12-31T23:59:59.999Z). */
        public Builder epochMs(long epochMs) {
            this.epochMs = epochMs;
            return this;
        }

        /** Width of the timestamp field, in [1, 52]. */
        public Builder timestampBits(long timestampBits) {
            this.timestampBits = timestampBits;
            return this;
        }

        /** Width of an unsplit node field; not with datacenterBits / machineBits. */
        public Builder nodeBits(long nodeBits) {
            this.nodeBits = nodeBits;
            return this;
        }

        /** Width of the node field's high part (at least 1); with {@link #machineBits}. */
        public Builder datacenterBits(long datacenterBits) {
            this.datacenterBits = datacenterBits;
            return this;
        }

        /** Width of the node field's low part; with {@link #datacenterBits}. */
        public Builder machineBits(long machineBits) {
            this.machineBits = machineBits;
            return this;
        }

        /** Width of the per-millisecond sequence. */
        public Builder sequenceBits(long sequenceBits) {
            this.sequenceBits = sequenceBits;
            return this;
        }

        /**
         * The layout.
         *
         * @throws InvalidArgumentException for a missing field, both node forms or half a
         *     split node, a width or epoch outside its range, or widths that do not add up
         *     to 63; the message names the field and the value
         */
        public Layout build() {
            NativeLayoutArgs a = new NativeLayoutArgs();
            try {
                if (epochMs != null) {
                    a.setEpochMs(epochMs);
                }
                if (timestampBits != null) {
                    a.setTimestampBits(timestampBits);
                }
                if (nodeBits != null) {
                    a.setNodeBits(nodeBits);
                }
                if (datacenterBits != null) {
                    a.setDatacenterBits(datacenterBits);
                }
                if (machineBits != null) {
                    a.setMachineBits(machineBits);
                }
                if (sequenceBits != null) {
                    a.setSequenceBits(sequenceBits);
                }
                return new Layout(SnowfleetNative.layoutCreate(a));
            } finally {
                a.delete();
            }
        }
    }

    /** Unix ms of timestamp 0. */
    public long epochMs() {
        return epochMs;
    }

    public int timestampBits() {
        return timestampBits;
    }

    /** datacenterBits + machineBits. */
    public int nodeBits() {
        return nodeBits;
    }

    /** 0 when the node field is not split. */
    public int datacenterBits() {
        return datacenterBits;
    }

    /** Equals nodeBits when the node field is not split. */
    public int machineBits() {
        return machineBits;
    }

    public int sequenceBits() {
        return sequenceBits;
    }

    /** Whether the node field is split into datacenter + machine. */
    public boolean split() {
        return datacenterBits > 0;
    }

    public int nodeShift() {
        return nodeShift;
    }

    public int timestampShift() {
        return timestampShift;
    }

    public long maxNodeId() {
        return maxNodeId;
    }

    public long maxDatacenterId() {
        return maxDatacenterId;
    }

    public long maxMachineId() {
        return maxMachineId;
    }

    public long maxSequence() {
        return maxSequence;
    }

    /** Largest elapsed-ms value the timestamp field holds: 2^timestampBits - 1. */
    public long maxElapsedMs() {
        return maxElapsedMs;
    }

    /** Last Unix millisecond the layout can represent: epochMs + maxElapsedMs. */
    public long maxTimestampMs() {
        return maxTimestampMs;
    }

    /** "default", "twitter" or "discord" when equal to a preset, else "". */
    public String presetName() {
        return presetName;
    }

    /** The canonical text form, e.g. "41.10.12@1704067200000"; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Layout)) {
            return false;
        }
        Layout l = (Layout) o;
        return epochMs == l.epochMs && timestampBits == l.timestampBits
                && datacenterBits == l.datacenterBits && machineBits == l.machineBits
                && sequenceBits == l.sequenceBits;
    }

    @Override
    public int hashCode() {
        int h = Long.hashCode(epochMs);
        h = 31 * h + timestampBits;
        h = 31 * h + datacenterBits;
        h = 31 * h + machineBits;
        return 31 * h + sequenceBits;
    }
}
