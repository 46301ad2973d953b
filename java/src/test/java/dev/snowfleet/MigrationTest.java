package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.f4b6a3.tsid.Tsid;
import com.github.f4b6a3.tsid.TsidFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating.md: tsid-creator's ids (10 node bits, its default epoch 2020-01-01) are layout
 * 41.10.12@1577836800000's while their top bit is 0 (until 2089), checked against ids the library
 * itself generates.
 */
class MigrationTest {
    static final Layout TSID = Layout.parse("41.10.12@1577836800000");

    @Test
    void tsidCreatorIdsAreLayout41_10_12At2020() {
        String[] times = {"2024-06-01T12:00:00Z", "2025-01-24T19:35:58.021Z",
            "2088-12-31T23:59:59.999Z"};
        for (String time : times) {
            for (int node : new int[] {0, 37, 1023}) {
                TsidFactory factory = TsidFactory.builder().withNodeBits(10).withNode(node)
                        .withClock(Clock.fixed(Instant.parse(time), ZoneOffset.UTC)).build();
                for (int i = 0; i < 20; i++) {
                    Tsid tsid = factory.create();
                    long id = tsid.toLong();
                    Decoded d = Snowfleet.decode(id, TSID);
                    assertEquals(tsid.getUnixMilliseconds(), d.timestampMs(), tsid.toString());
                    // tsid-creator starts each millisecond's counter at a random value and,
                    // when 20 ids roll it over, moves on to the next millisecond itself.
                    long fixedMs = Instant.parse(time).toEpochMilli();
                    if (i == 0) assertEquals(fixedMs, d.timestampMs());
                    else assertTrue(d.timestampMs() == fixedMs || d.timestampMs() == fixedMs + 1,
                            tsid.toString());
                    assertEquals(node, d.nodeId(), tsid.toString());
                    assertEquals(id, Snowfleet.compose(d.timestampMs(), node, d.sequence(), TSID));
                }
            }
        }
    }
}
