package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowfleet.internal.jni.SnowfleetNative;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Stats and Status are written once, in the core (SNOWFLEET_STATS_FIELDS /
 * SNOWFLEET_STATUS_FIELDS): the Java records must carry the core's camelCase names in the
 * core's order, since values cross JNI in that order (FieldRecords).
 */
class FieldsTest {
    static List<String> components(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
    }

    static List<String> core(int count, IntFunction<String> name) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(name.apply(i));
        }
        return out;
    }

    @Test
    void statsComponentsAreTheCoresFieldsInOrder() {
        assertEquals(core(SnowfleetNative.statsFieldCount(), SnowfleetNative::statsFieldCamel),
                components(Stats.class));
        assertEquals("ids_issued", SnowfleetNative.statsFieldName(0));
    }

    @Test
    void statusComponentsAreTheCoresFieldsInOrder() {
        assertEquals(core(SnowfleetNative.statusFieldCount(), SnowfleetNative::statusFieldCamel),
                components(Status.class));
        assertEquals("mark_headroom_ms",
                SnowfleetNative.statusFieldName(SnowfleetNative.statusFieldCount() - 1));
    }

    @Test
    void valuesLandInTheirComponents() {
        // A frozen clock: last_ms is the one id's ms, wall_ms the clock, mode and node as set.
        long t = 1737747358021L;
        try (Generator g = Generator.builder().nodeId(12).mode(Mode.MONOTONIC)
                .clock(new dev.snowfleet.testing.ScriptedClock(t)).build()) {
            g.nextIds(3);
            Stats s = g.stats();
            assertEquals(3, s.idsIssued());
            assertEquals(0, s.refusals());
            assertEquals(0, s.markWriteFailures());
            assertEquals(0, s.leaseRenewalFailures());
            Status st = g.status();
            assertEquals(true, st.healthy());
            assertEquals("", st.reason());
            assertEquals(t, st.wallMs());
            assertEquals(t, st.lastMs());
            assertEquals(0, st.driftMs());
            assertEquals(12, st.nodeId());
            assertEquals(Mode.MONOTONIC, st.mode());
            assertEquals(LeaseState.NONE, st.leaseState());
            assertEquals(-1, st.markMs());
            assertEquals(-1, st.leaseExpiresInMs());
            assertEquals(-1, st.markHeadroomMs());
        }
    }
}
