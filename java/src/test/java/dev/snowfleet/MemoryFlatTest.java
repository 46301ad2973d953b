package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory stays flat over 10,000 generator lifetimes, however they end: close(),
 * try-with-resources, left to the Cleaner, and all three from four threads at once. Runs
 * LifetimesProbe in a child JVM whose heap is fixed and pre-touched, so the resident set
 * moves only with native memory (and the heap in use is reported on its own).
 */
class MemoryFlatTest {
    static final int LIFETIMES = 10_000;
    /**
     * Generous bounds on growth over the measured 10,000 lifetimes; without a leak the
     * figures stay within about 1.2 MiB (resident set, four threads on a busy machine) and
     * 0.8 MiB (heap). A leaked core generator alone is 448 bytes, so a native leak of one per
     * lifetime (4.4 MiB) exceeds the bound; the live-generator count catches leaked proxies.
     */
    static final long RSS_BOUND_KIB = 4096;
    static final long HEAP_BOUND_KIB = 2048;

    @TempDir
    Path tmp;

    @Test
    void memoryIsFlatOverTenThousandLifetimes() throws Exception {
        ChildJvm.Result r = ChildJvm.run(tmp,
                List.of(ChildJvm.classesDir(), ChildJvm.testClassesDir()),
                LifetimesProbe.class.getName(),
                List.of("-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC"),
                String.valueOf(LIFETIMES));
        System.out.println(r.out());
        assertEquals(0, r.exit(), r.out());
        for (String end : List.of("close", "try_with_resources", "cleaner", "threads")) {
            assertEquals("0 0", r.value(end + ".live"), end + ": every native generator is freed");
            long rss = r.longValue(end + ".rssGrowthKiB");
            long heap = r.longValue(end + ".heapGrowthKiB");
            assertTrue(rss < RSS_BOUND_KIB, end + ": resident set grew " + rss + " KiB over "
                    + LIFETIMES + " lifetimes (bound " + RSS_BOUND_KIB + " KiB)");
            assertTrue(heap < HEAP_BOUND_KIB, end + ": heap in use grew " + heap + " KiB over "
                    + LIFETIMES + " lifetimes (bound " + HEAP_BOUND_KIB + " KiB)");
        }
    }
}
