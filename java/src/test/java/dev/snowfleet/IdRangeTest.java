package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** IdRange and IdText with Java's types, beyond the conformance vectors (which use ms). */
class IdRangeTest {
    @Test
    void anInstantIsItsMillisecond() {
        Instant t = Instant.parse("2025-01-24T19:35:58.021Z");
        long id = Snowfleet.compose(t.toEpochMilli(), 37, 0, Layout.DEFAULT);
        assertEquals(id - (37L << 12), IdRange.minId(t));
        assertEquals(id - (37L << 12) + (1L << 22) - 1, IdRange.maxId(t));
        IdRange r = IdRange.of(t, t.plusMillis(1));
        assertEquals(IdRange.minId(t), r.first());
        assertEquals(IdRange.maxId(t), r.last());
    }

    @Test
    void subMillisecondAndOutOfWindowTimesAreRefusedNamingThem() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> IdRange.minId(Instant.parse("2026-12-01T00:00:00.000001Z")));
        assertTrue(e.getMessage().contains("2026-12-01T00:00:00.000001Z"), e.getMessage());
        TimestampOutOfRangeException o = assertThrows(TimestampOutOfRangeException.class,
                () -> IdRange.maxId(Instant.parse("1999-01-01T00:00:00Z")));
        assertTrue(o.getMessage().contains("915148800000"), o.getMessage());
        assertThrows(TimestampOutOfRangeException.class,
                () -> IdRange.minId(Instant.MAX.truncatedTo(ChronoUnit.MILLIS)));  // past 64-bit ms
        assertThrows(InvalidArgumentException.class, () -> IdRange.of(Instant.parse("2026-12-02T00:00:00Z"),
                Instant.parse("2026-12-01T00:00:00Z")));
    }

    @Test
    void slackWidensTheUpperBoundOnly() {
        Instant a = Instant.parse("2026-12-01T00:00:00Z"), b = Instant.parse("2026-12-02T00:00:00Z");
        IdRange exact = IdRange.of(a, b), wide = IdRange.of(a, b, 1000, Layout.DEFAULT);
        assertEquals(exact.first(), wide.first());
        assertEquals(IdRange.maxId(b.plusMillis(999)), wide.last());
    }

    @Test
    void textFormsRoundTripAndSortAsTheIds() {
        long a = 141264821508263936L, b = a + 1;
        assertEquals("03XEZKD8M4M00", IdText.formatBase32(a));
        assertEquals(a, IdText.parseBase32("03xezkd8m4m00"));
        assertTrue(IdText.formatBase62(a).compareTo(IdText.formatBase62(b)) < 0);
        assertEquals(Long.MAX_VALUE, IdText.parseBase62("AzL8n0Y58m7"));
        assertThrows(InvalidArgumentException.class, () -> IdText.parseBase62("AzL8n0Y58m8"));
        assertThrows(InvalidArgumentException.class, () -> IdText.formatBase32(-1));
    }
}
