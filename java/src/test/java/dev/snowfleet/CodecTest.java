package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CodecTest {
    @Test
    void theSeedsLiteralDecodes() {
        Decoded d = Snowfleet.decode(141264821508263936L);
        assertEquals(new Decoded(1737747358021L, 37, 0, 37, 0), d);
        assertEquals(Instant.parse("2025-01-24T19:35:58.021Z"), d.instant());
        Decoded other = Snowfleet.decode(141264821510144037L);
        assertEquals(496, other.nodeId());
        assertEquals(37, other.sequence());
    }

    @Test
    void aTimePastYear9999IsAnInstantWrittenAsTheCliWritesIt() {
        Decoded d = Snowfleet.decode(Long.MAX_VALUE, Layout.parse("52.0.11@0"));
        assertEquals((1L << 52) - 1, d.timestampMs());
        // The core's form for a year RFC 3339 cannot express (snowfleet decode, layout).
        assertEquals("+144683-05-23T16:29:30.495Z", d.instant().toString());
        assertThrows(InvalidArgumentException.class,
                () -> Snowfleet.parseTime("+144683-05-23T16:29:30.495Z"));
    }

    @Test
    void composeSplitTwitter() {
        long id = Snowfleet.compose(1700000000000L, 7, 13, 4095, Layout.TWITTER);
        Decoded d = Snowfleet.decode(id, Layout.TWITTER);
        assertEquals(new Decoded(1700000000000L, 7 * 32 + 13, 7, 13, 4095), d);
        assertEquals(id, Snowfleet.compose(1700000000000L, 7 * 32 + 13, 4095, Layout.TWITTER));
    }

    @Test
    void outOfRangeInputsAreRejectedNotMasked() {
        InvalidArgumentException node = assertThrows(InvalidArgumentException.class,
                () -> Snowfleet.compose(1737747358021L, 1024, 0, Layout.DEFAULT));
        assertTrue(node.getMessage().contains("1024"), node.getMessage());
        assertThrows(InvalidArgumentException.class,
                () -> Snowfleet.compose(1737747358021L, 1, 4096, Layout.DEFAULT));
        TimestampOutOfRangeException ts = assertThrows(TimestampOutOfRangeException.class,
                () -> Snowfleet.compose(1704067199999L, 1, 0, Layout.DEFAULT));
        assertEquals("TIMESTAMP_OUT_OF_RANGE", ts.code());
        assertThrows(InvalidArgumentException.class, () -> Snowfleet.decode(-1));
    }

    @Test
    void parseId() {
        assertEquals(Long.MAX_VALUE, Snowfleet.parseId("9223372036854775807"));
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> Snowfleet.parseId("9223372036854775808"));
        assertTrue(e.getMessage().contains("9223372036854775808"), e.getMessage());
        assertThrows(InvalidArgumentException.class, () -> Snowfleet.parseId("-1"));
        assertThrows(InvalidArgumentException.class, () -> Snowfleet.parseId(""));
        assertThrows(NullPointerException.class, () -> Snowfleet.parseId(null));
    }

    @Test
    void parseTime() {
        assertEquals(1737747358021L, Snowfleet.parseTime("2025-01-24T20:35:58.021+01:00"));
        assertEquals(Instant.parse("2024-02-29T12:00:00Z").toEpochMilli(),
                Snowfleet.parseTime("2024-02-29T12:00:00Z"));
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> Snowfleet.parseTime("2024-02-31T00:00:00Z"));
        assertTrue(e.getMessage().contains("'2024-02-31T00:00:00Z'"), e.getMessage());
        assertTrue(e.getMessage().contains("day 31 is outside 01-29 for 2024-02"), e.getMessage());
        assertEquals("INVALID_ARGUMENT", e.code());
        assertThrows(NullPointerException.class, () -> Snowfleet.parseTime(null));
    }

    @Test
    void layouts() {
        assertEquals("41.10.12@1704067200000", Layout.DEFAULT.toString());
        assertEquals("default", Layout.DEFAULT.presetName());
        assertEquals("41.5.5.12@1288834974657", Layout.TWITTER.toString());
        assertEquals("41.5.5.12@1420070400000", Layout.DISCORD.toString());
        assertEquals(Layout.TWITTER, Layout.parse("41.5.5.12@1288834974657"));
        assertEquals(Layout.TWITTER.hashCode(), Layout.parse("twitter").hashCode());
        assertEquals(Layout.DEFAULT, Layout.create(1704067200000L, 41, 10, 12));
        assertEquals(Layout.DISCORD, Layout.createSplit(1420070400000L, 41, 5, 5, 12));
        assertNotEquals(Layout.TWITTER, Layout.DISCORD);
        Layout custom = Layout.create(1704067200000L, 42, 8, 13);
        assertEquals("", custom.presetName());
        assertEquals(custom, Layout.parse(custom.toString()));
        assertEquals(255, custom.maxNodeId());
        assertEquals(8191, custom.maxSequence());
        assertTrue(Layout.TWITTER.split());
        assertEquals(31, Layout.TWITTER.maxDatacenterId());
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Layout.parse("41.10.13@0"));
        assertTrue(e.getMessage().contains("64"), e.getMessage());
        InvalidArgumentException text = assertThrows(InvalidArgumentException.class, () -> Layout.parse("41.10.x@0"));
        assertTrue(text.getMessage().contains("41.10.x@0"), text.getMessage());
        assertThrows(InvalidArgumentException.class, () -> Layout.create(-1, 41, 10, 12));
        assertThrows(NullPointerException.class, () -> Layout.parse(null));
    }

    /** Which layout fields go together is the core's rule (Layout::create(LayoutArgs)). */
    @Test
    void layoutBuilderLeavesTheRulesToTheCore() {
        assertEquals(Layout.TWITTER, Layout.builder().epochMs(1288834974657L).timestampBits(41)
                .datacenterBits(5).machineBits(5).sequenceBits(12).build());
        assertEquals(Layout.DEFAULT, Layout.builder().sequenceBits(12).nodeBits(10).timestampBits(41)
                .epochMs(1704067200000L).build());
        assertRefused("node_bits, or datacenter_bits", Layout.builder().epochMs(0).timestampBits(41).sequenceBits(12));
        assertRefused("node_bits=10", Layout.builder().epochMs(0).timestampBits(41).sequenceBits(12)
                .nodeBits(10).datacenterBits(5).machineBits(5));
        assertRefused("datacenter_bits=5", Layout.builder().epochMs(0).timestampBits(41).sequenceBits(12)
                .datacenterBits(5));
        assertRefused("epoch_ms", Layout.builder().timestampBits(41).sequenceBits(12).nodeBits(10));
        assertRefused("sequence_bits", Layout.builder().epochMs(0).timestampBits(41).nodeBits(10));
        // A width is checked as given: 2^32 + 10 is not wrapped to 10 on the way.
        InvalidArgumentException wide = assertThrows(InvalidArgumentException.class,
                () -> Layout.create(0, 41, (1L << 32) + 10, 12));
        assertTrue(wide.getMessage().contains("node_bits") && wide.getMessage().contains("4294967306"),
                wide.getMessage());
        InvalidArgumentException split = assertThrows(InvalidArgumentException.class,
                () -> Layout.createSplit(0, 41, 0, 10, 12));
        assertTrue(split.getMessage().contains("datacenter_bits >= 1"), split.getMessage());
    }

    private static void assertRefused(String named, Layout.Builder b) {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, b::build);
        assertTrue(e.getMessage().contains(named), e.getMessage());
    }

    @Test
    void composeWithoutSequenceIsTheCoresDefault() {
        assertEquals(141264821508263936L, Snowfleet.compose(1737747358021L, NodeArgs.of(37), Layout.DEFAULT));
        assertEquals(Snowfleet.compose(1737747358021L, 3, 5, 0, Layout.TWITTER),
                Snowfleet.compose(1737747358021L, NodeArgs.of(3, 5), Layout.TWITTER));
        InvalidArgumentException none = assertThrows(InvalidArgumentException.class,
                () -> Snowfleet.compose(1737747358021L, new NodeArgs(null, null, null), Layout.DEFAULT));
        assertTrue(none.getMessage().contains("node_id"), none.getMessage());
    }

    /** The layout-first overloads stay, deprecated, and answer as the layout-last ones. */
    @Test
    @SuppressWarnings("deprecation")
    void layoutFirstComposeIsTheSameCall() {
        long ts = 1737747358021L;
        assertEquals(Snowfleet.compose(ts, 37, 5, Layout.DEFAULT), Snowfleet.compose(Layout.DEFAULT, ts, 37, 5));
        assertEquals(Snowfleet.compose(ts, 7, 13, 4095, Layout.TWITTER),
                Snowfleet.compose(Layout.TWITTER, ts, 7, 13, 4095));
        assertEquals(Snowfleet.compose(ts, NodeArgs.of(37), 1, Layout.DEFAULT),
                Snowfleet.compose(Layout.DEFAULT, ts, NodeArgs.of(37), 1));
        assertEquals(Snowfleet.compose(ts, NodeArgs.of(37), Layout.DEFAULT),
                Snowfleet.compose(Layout.DEFAULT, ts, NodeArgs.of(37)));
    }
}
