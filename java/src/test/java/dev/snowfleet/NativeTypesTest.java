package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.snowfleet.internal.jni.SnowfleetNative;
import dev.snowfleet.internal.jnitest.SnowfleetTestNative;
import org.junit.jupiter.api.Test;

/** int64_t is Java long end to end (SWIGWORDSIZE64 would have made it int). */
class NativeTypesTest {
    @Test
    void int64RoundTripsAsLong() {
        long[] values = {0, 1, (1L << 31), (1L << 31) + 7, (1L << 32) + 1, 141264821508263936L,
                Long.MAX_VALUE, -1, Long.MIN_VALUE};
        for (long v : values) {
            assertEquals(v, SnowfleetTestNative.echo(v));
        }
    }

    @Test
    void idsAbove2To31SurviveCodecAndGenerator() {
        long big = 141264821508263936L;  // > 2^56
        assertEquals(big, Snowfleet.parseId("141264821508263936"));
        Decoded d = Snowfleet.decode(big);
        assertEquals(1737747358021L, d.timestampMs());
        assertEquals(big, Snowfleet.compose(d.timestampMs(), d.nodeId(), d.sequence(), Layout.DEFAULT));
    }

    @Test
    void modesMatchTheCore() {
        for (Mode m : Mode.values()) {
            assertEquals(m, Mode.parse(m.text()));
            assertEquals(m.ordinal(), SnowfleetNative.parseMode(m.text()));
        }
        assertEquals("strict", Mode.STRICT.text());
        assertEquals("monotonic", Mode.MONOTONIC.text());
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Mode.parse("fast"));
        assertEquals("INVALID_ARGUMENT", e.code());
        assertThrows(NullPointerException.class, () -> Mode.parse(null));
    }

    @Test
    void leaseStatesMatchTheCore() {
        String[] names = {"none", "held", "unconfirmed", "lost", "released"};
        assertEquals(names.length, LeaseState.values().length);
        for (LeaseState l : LeaseState.values()) {
            assertEquals(names[l.ordinal()], l.text());
            assertEquals(l.name().toLowerCase(java.util.Locale.ROOT), l.text());
        }
        // The core has no state past the last constant.
        assertEquals("", SnowfleetNative.leaseStateName(LeaseState.values().length));
    }
}
