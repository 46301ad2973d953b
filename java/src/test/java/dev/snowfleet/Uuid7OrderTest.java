package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * UUIDv7 order on the system clock, as counts: 10 M UUIDs strictly increasing from one
 * generator, and threads sharing one never minting the same UUID. Prints its figures.
 */
class Uuid7OrderTest {
    /** RFC 9562 order: the 128 bits as one unsigned number (UUID.compareTo is signed). */
    static int compareUnsigned(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }

    @Test
    void tenMillionUuidsAreStrictlyIncreasingVersion7() {
        final long total = 10_000_000;
        long seen = 0, notIncreasing = 0, notV7 = 0;
        UUID last = null;
        try (Uuid7Generator gen = Uuid7Generator.builder().build()) {
            while (seen < total) {
                // batches with a single call between them: both forms continue one order
                UUID[] batch = gen.nextUuid7s((int) Math.min(65_535, total - seen - 1));
                UUID[] all = new UUID[batch.length + 1];
                System.arraycopy(batch, 0, all, 0, batch.length);
                all[batch.length] = gen.nextUuid7();
                for (UUID u : all) {
                    if (u.version() != 7 || u.variant() != 2) {
                        notV7++;
                    }
                    if (last != null && compareUnsigned(last, u) >= 0) {
                        notIncreasing++;
                    }
                    last = u;
                }
                seen += all.length;
            }
            assertEquals(total, gen.stats().idsIssued());
        }
        System.out.printf("uuid7: %d UUIDs, %d not increasing, %d not v7%n", seen, notIncreasing, notV7);
        assertEquals(total, seen);
        assertEquals(0, notIncreasing, "UUIDs not above their predecessor");
        assertEquals(0, notV7, "UUIDs without version 7 / variant 10");
    }

    @Test
    void threadsSharingAGeneratorNeverMintTheSameUuid() throws Exception {
        final int threads = 4, perThread = 250_000;
        List<UUID[]> runs = new ArrayList<>();
        try (Uuid7Generator gen = Uuid7Generator.builder().build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<UUID[]>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    final boolean batches = t % 2 == 0;
                    futures.add(pool.submit(() -> {
                        UUID[] out = new UUID[perThread];
                        for (int i = 0; i < perThread; ) {
                            if (batches) {
                                UUID[] b = gen.nextUuid7s(Math.min(1000, perThread - i));
                                System.arraycopy(b, 0, out, i, b.length);
                                i += b.length;
                            } else {
                                out[i++] = gen.nextUuid7();
                            }
                        }
                        return out;
                    }));
                }
                for (Future<UUID[]> f : futures) {
                    runs.add(f.get());
                }
            } finally {
                pool.shutdown();
            }
        }
        Set<UUID> all = new HashSet<>(threads * perThread * 2);
        long duplicates = 0, notIncreasing = 0;
        for (UUID[] run : runs) {
            for (int i = 0; i < run.length; i++) {
                if (!all.add(run[i])) {
                    duplicates++;
                }
                if (i > 0 && compareUnsigned(run[i - 1], run[i]) >= 0) {
                    notIncreasing++;
                }
            }
        }
        System.out.printf("uuid7: %d threads x %d UUIDs, %d distinct, %d duplicates, %d not increasing%n",
                threads, perThread, all.size(), duplicates, notIncreasing);
        assertEquals(0, duplicates);
        assertEquals((long) threads * perThread, all.size());
        assertEquals(0, notIncreasing, "a thread's UUIDs not above its previous one");
    }
}
