package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.internal.Natives;
import dev.snowfleet.testing.ScriptedClock;
import dev.snowfleet.testing.ScriptedClock.Segment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratorTest {
    static final long EPOCH = 1704067200000L;

    @Test
    void defaultsComeFromTheCore() {
        try (Generator g = Generator.builder().nodeId(37).build()) {
            assertEquals(37, g.nodeId());
            assertEquals(Layout.DEFAULT, g.layout());
            assertEquals(Mode.STRICT, g.mode());
            assertEquals(5.0, g.maxWaitMs());
            assertEquals(1000, g.maxDriftMs());
            long id = g.nextId();
            assertTrue(id > 0);
            assertEquals(37, Snowfleet.decode(id).nodeId());
            long[] batch = g.nextIds(10_000);
            assertEquals(10_000, batch.length);
            assertTrue(batch[0] > id);
            for (int i = 1; i < batch.length; i++) {
                assertTrue(batch[i] > batch[i - 1], "ascending at " + i);
            }
            assertEquals(10_001, g.stats().idsIssued());
            Status s = g.status();
            assertTrue(s.healthy(), s.reason());
            assertEquals("", s.reason());
            assertEquals(37, s.nodeId());
            // No lease: nothing to lose, no mark, no deadline.
            assertEquals(LeaseState.NONE, s.leaseState());
            assertEquals(-1, s.markMs());
            assertEquals(-1, s.leaseExpiresInMs());
            assertEquals(0, g.stats().markWrites());
            assertEquals(0, g.stats().leaseRefusals());
        }
    }

    @Test
    void aLeasedNodeIdReportsItsLeaseAndMarkWrites(@TempDir Path dir) {
        Generator g = Generator.builder().nodeSource("local:" + dir).build();
        Status s = g.status();
        assertEquals(LeaseState.HELD, s.leaseState());
        assertTrue(s.healthy(), s.reason());
        assertEquals(-1, s.leaseExpiresInMs(), "a local lease cannot expire while the process lives");
        long before = System.currentTimeMillis();
        long[] ids = g.nextIds(1000);
        long lastMs = Snowfleet.decode(ids[ids.length - 1]).timestampMs();
        s = g.status();
        // Written ahead: the mark covers the ids already handed out.
        assertTrue(s.markMs() >= lastMs && lastMs >= before, "mark " + s.markMs() + ", last id at " + lastMs);
        assertTrue(Files.exists(dir.resolve(String.format("slot-%04d.mark", g.nodeId()))));
        Stats stats = g.stats();
        assertTrue(stats.markWrites() >= 1);
        assertEquals(0, stats.leaseRefusals());
        assertEquals(0, stats.markWriteFailures());
        assertEquals(0, stats.leaseRenewalFailures(), "a local lease is never renewed");
        // The mark runs ahead of the ids (about a second, written again at half that).
        assertTrue(s.markHeadroomMs() > 0 && s.markHeadroomMs() <= 2000, "headroom " + s.markHeadroomMs());
        g.close();  // lowers the mark to the last issued ms: one more write
        s = g.status();
        assertEquals(LeaseState.RELEASED, s.leaseState());
        assertFalse(s.healthy());
        assertEquals(lastMs, s.markMs());
        assertEquals(stats.markWrites() + 1, g.stats().markWrites());
    }

    @Test
    void nodeIdAndNodeSourceTogetherAreRefused() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().nodeId(5).nodeSource("static:37").build());
        assertTrue(e.getMessage().contains("got node_id=5 and node_source='static:37'"), e.getMessage());
    }

    @Test
    void aGeneratorMadeAfterTheCleanerRanContinuesAfterTheOldOne() throws Exception {
        // After a monotonic burst and the Cleaner, a new generator for the node once
        // re-issued 840,256 of 1,000,000 ids. The id space's last millisecond outlives it.
        Generator.Builder b = Generator.builder().nodeId(904).mode(Mode.MONOTONIC).maxDriftMs(86_400_000);
        long live = Natives.liveGenerators();
        Set<Long> first = new HashSet<>();
        for (long id : b.build().nextIds(1_000_000)) {
            first.add(id);
        }
        for (int i = 0; i < 100 && Natives.liveGenerators() > live; i++) {
            System.gc();
            Thread.sleep(20);
        }
        // Other tests' generators may be cleaned meanwhile too: at most as many as before.
        assertTrue(Natives.liveGenerators() <= live, "the Cleaner freed the first generator");
        int dup = 0;
        for (long id : b.build().nextIds(1_000_000)) {
            dup += first.contains(id) ? 1 : 0;
        }
        assertEquals(0, dup);
    }

    @Test
    void successiveGeneratorsOfOneNodeNeverRepeatAnId() {
        Set<Long> seen = new HashSet<>();
        int total = 0;
        for (Mode mode : new Mode[] {Mode.STRICT, Mode.MONOTONIC}) {
            for (int i = 0; i < 100; i++) {
                Generator g = Generator.builder().nodeId(mode == Mode.STRICT ? 905 : 906).mode(mode).build();
                for (long id : g.nextIds(1000)) {
                    seen.add(id);
                }
                total += 1000;
                if (i % 2 == 1) {
                    g.close();
                }
            }
        }
        assertEquals(total, seen.size());
    }

    @Test
    void twoGeneratorsOfOneNodeIdInTwoThreadsNeverRepeat() throws Exception {
        // Same node id, same layout, system clock: the core gives both one state word, so two
        // threads that each made their own generator cannot mint the same id.
        try (Generator a = Generator.builder().nodeId(21).build();
                Generator b = Generator.builder().nodeId(21).build()) {
            long x = a.nextId();
            long y = b.nextId();
            long z = a.nextId();
            assertTrue(x < y && y < z, "one ascending sequence (separate words would restart b's)");
            int rounds = 200;
            long[][] out = new long[2][rounds * 1100];
            CountDownLatch start = new CountDownLatch(2);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                Generator g = t == 0 ? a : b;
                long[] mine = out[t];
                Thread w = new Thread(() -> {
                    try {
                        start.countDown();
                        start.await();
                        int n = 0;
                        for (int r = 0; r < rounds; r++) {
                            long[] batch = g.nextIds(1000);
                            System.arraycopy(batch, 0, mine, n, batch.length);
                            n += batch.length;
                            for (int i = 0; i < 100; i++) {
                                mine[n++] = g.nextId();
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            Set<Long> seen = new HashSet<>();
            long max = 0;
            for (long[] mine : out) {
                for (long id : mine) {
                    assertTrue(seen.add(id), "duplicate " + id);
                    max = Math.max(max, id);
                }
            }
            assertEquals(2 * rounds * 1100, seen.size());
            assertEquals(rounds * 1100 + 2, a.stats().idsIssued());  // stats stay per generator
            assertEquals(rounds * 1100 + 1, b.stats().idsIssued());
            a.close();  // closing one leaves its sibling minting after everything issued
            assertTrue(b.nextId() > max);
        }
    }

    @Test
    void aStrictGeneratorWaitsForItsMonotonicSibling() {
        // 16 ids per ms: 80,000 monotonic ids run ~5 s ahead of the wall clock, and a strict
        // generator of the same node id (sharing the word) must not mint below them.
        Layout layout = Layout.parse("41.18.4@1704067200000");
        try (Generator mono = Generator.builder().nodeId(22).layout(layout).mode(Mode.MONOTONIC)
                        .maxDriftMs(60_000).build();
                Generator strict = Generator.builder().nodeId(22).layout(layout).maxWaitMs(5).build()) {
            long[] ids = mono.nextIds(80_000);
            long last = ids[ids.length - 1];
            assertTrue(mono.driftMs() > 1000, "drift " + mono.driftMs());
            assertFalse(strict.status().healthy());
            ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, strict::nextId);
            assertTrue(e.driftMs() > 1000, "drift " + e.driftMs());
            assertTrue(mono.nextId() > last, "the monotonic sibling carries on");
        }
    }

    @Test
    void theNodeMayBeGivenAsDatacenterAndMachine() {
        try (Generator g = Generator.builder().layout(Layout.TWITTER).datacenterId(3).machineId(5).build()) {
            assertEquals(3 * 32 + 5, g.nodeId());
            Decoded d = Snowfleet.decode(g.nextId(), Layout.TWITTER);
            assertEquals(3, d.datacenterId());
            assertEquals(5, d.machineId());
        }
        InvalidArgumentException half = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().layout(Layout.TWITTER).datacenterId(3).build());
        assertTrue(half.getMessage().contains("datacenter_id=3 needs machine_id"), half.getMessage());
        InvalidArgumentException two = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().layout(Layout.TWITTER).nodeId(1).datacenterId(0).machineId(1).build());
        assertTrue(two.getMessage().contains("node_id=1"), two.getMessage());
    }

    @Test
    void aTickingClockMovesWhileTheGeneratorWaits() {
        // A spent millisecond: strict mode waits for the next one. On a frozen clock that wait
        // can never end (refused after max_wait_ms); on a ticking one, the time slept passes.
        Layout tiny = Layout.create(EPOCH, 51, 10, 2);  // 4 ids per ms
        ScriptedClock frozen = new ScriptedClock(EPOCH + 5000);
        assertFalse(frozen.isTicking());
        try (Generator g = Generator.builder().layout(tiny).nodeId(3).clock(frozen).build()) {
            g.nextIds(4);
            assertThrows(ClockMovedBackwardsException.class, g::nextId);
        }
        ScriptedClock ticking = new ScriptedClock(EPOCH + 9000);
        ticking.setTicking(true);
        assertTrue(ticking.isTicking());
        try (Generator g = Generator.builder().layout(tiny).nodeId(3).clock(ticking).build()) {
            g.nextIds(4);
            long id = g.nextId();
            assertEquals(EPOCH + 9001, Snowfleet.decode(id, tiny).timestampMs());
            assertEquals(1, g.stats().waits());
            assertTrue(ticking.sleptNs() > 0 && ticking.sleptNs() <= 5_000_000, "slept " + ticking.sleptNs());
        }
        ScriptedClock manual = new ScriptedClock(EPOCH);
        manual.setTicking(true);
        manual.sleepNs(2_000_000);
        assertEquals(EPOCH + 2, manual.peekWallMs());
        assertEquals(1, manual.sleepCount());
    }

    @Test
    void nodeIdIsRequiredAndValidated() {
        // The core's rulebook answers, not its internal "node_id got -1".
        InvalidArgumentException missing = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().build());
        assertTrue(missing.getMessage().contains("node_id") && missing.getMessage().contains("node_source")
                && !missing.getMessage().contains("-1"), missing.getMessage());
        InvalidArgumentException empty = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().nodeSource("").build());
        assertTrue(empty.getMessage().contains("node_source must not be empty"), empty.getMessage());
        InvalidArgumentException emptyBeside = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().nodeId(5).nodeSource("").build());
        assertTrue(emptyBeside.getMessage().contains("node_source must not be empty"), emptyBeside.getMessage());
        InvalidArgumentException big = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().nodeId(1024).build());
        assertTrue(big.getMessage().contains("1024"), big.getMessage());
        assertThrows(InvalidArgumentException.class, () -> Generator.builder().nodeId(-1).build());
        assertThrows(InvalidArgumentException.class, () -> Generator.builder().nodeId(1L << 40).build());
        InvalidArgumentException nan = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().nodeId(1).maxWaitMs(Double.NaN).build());
        assertTrue(nan.getMessage().contains("max_wait_ms"), nan.getMessage());
        assertThrows(InvalidArgumentException.class, () -> Generator.builder().nodeId(1).maxDriftMs(-1).build());
        assertThrows(NullPointerException.class, () -> Generator.builder().layout(null));
        assertThrows(NullPointerException.class, () -> Generator.builder().mode(null));
    }

    @Test
    void nodeSourceGoesStraightToTheCore() {
        try (Generator g = Generator.builder().nodeSource("static:37").build()) {
            assertEquals(37, g.nodeId());
        }
        assertThrows(InvalidArgumentException.class, () -> Generator.builder().nodeSource("bogus").build());
        assertThrows(InvalidArgumentException.class, () -> Generator.builder().nodeSource("static:1024").build());
        NodeIdUnavailableException e = assertThrows(NodeIdUnavailableException.class,
                () -> Generator.builder().nodeSource("env:SNOWFLEET_TEST_SURELY_UNSET_VARIABLE").build());
        assertEquals("NODE_ID_UNAVAILABLE", e.code());
    }

    @Test
    void theSeedsLiteralFromAFrozenClock() {
        try (Generator g = Generator.builder().nodeId(37).clock(new ScriptedClock(1737747358021L)).build()) {
            assertEquals(141264821508263936L, g.nextId());
        }
    }

    @Test
    void aLargeRewindIsRefusedAndChangesNothing() {
        ScriptedClock clock = ScriptedClock.of(Segment.of(EPOCH + 1000), Segment.of(EPOCH + 400));
        try (Generator g = Generator.builder().nodeId(7).clock(clock).build()) {
            long first = g.nextId();
            ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, g::nextId);
            assertEquals(600, e.driftMs());
            assertEquals("CLOCK_MOVED_BACKWARDS", e.code());
            assertEquals(1, g.stats().refusals());
            assertEquals(1, g.stats().idsIssued());
            // The clock recovers: the next id follows the first one, nothing was lost or reused.
            clock.setWallMs(EPOCH + 1000);
            long next = g.nextId();
            assertEquals(first + 1, next);
            assertEquals(3, clock.reads());
        }
    }

    @Test
    void aSmallRewindIsWaitedOut() {
        ScriptedClock clock = ScriptedClock.of(Segment.of(EPOCH + 1000), Segment.of(EPOCH + 998),
                Segment.of(EPOCH + 1000));
        try (Generator g = Generator.builder().nodeId(7).maxWaitMs(5).clock(clock).build()) {
            long one = g.nextId();
            long two = g.nextId();
            assertTrue(two > one);
            assertEquals(1, Snowfleet.decode(two).sequence());
            assertEquals(1, g.stats().waits());
            assertTrue(clock.sleepCount() > 0);
        }
    }

    @Test
    void monotonicBorrowsOnAFrozenClock() {
        try (Generator g = Generator.builder().nodeId(9).mode(Mode.MONOTONIC)
                .clock(new ScriptedClock(EPOCH + 77)).build()) {
            long[] ids = g.nextIds(10_000);
            for (int i = 1; i < ids.length; i++) {
                assertTrue(ids[i] > ids[i - 1]);
            }
            assertEquals(EPOCH + 77, Snowfleet.decode(ids[0]).timestampMs());
            assertEquals(EPOCH + 79, Snowfleet.decode(ids[ids.length - 1]).timestampMs());
            assertEquals(2, g.stats().msBorrowed());
            assertEquals(2, g.driftMs());
        }
    }

    @Test
    void badBatchSizesChangeNothing() {
        try (Generator g = Generator.builder().nodeId(1).clock(new ScriptedClock(EPOCH)).build()) {
            InvalidArgumentException neg = assertThrows(InvalidArgumentException.class, () -> g.nextIds(-5));
            assertTrue(neg.getMessage().contains("-5"), neg.getMessage());
            InvalidArgumentException big = assertThrows(InvalidArgumentException.class,
                    () -> g.nextIds((1 << 24) + 1));
            assertTrue(big.getMessage().contains("16777217"), big.getMessage());
            assertArrayEquals(new long[0], g.nextIds(0));
            assertEquals(0, g.stats().idsIssued());
            assertEquals(EPOCH, Snowfleet.decode(g.nextId()).timestampMs());
        }
    }

    @Test
    void closeIsIdempotentAndLaterCallsThrow() {
        Generator g = Generator.builder().nodeId(3).build();
        g.nextId();
        assertFalse(g.isClosed());
        g.close();
        g.close();
        assertTrue(g.isClosed());
        GeneratorClosedException e = assertThrows(GeneratorClosedException.class, g::nextId);
        assertEquals("GENERATOR_CLOSED", e.code());
        assertThrows(GeneratorClosedException.class, () -> g.nextIds(3));
        assertFalse(g.status().healthy());
        assertEquals(1, g.stats().idsIssued());
    }

    @Test
    void threadsShareOneGeneratorWithoutDuplicates() throws Exception {
        int threads = 4;
        int perThread = 50_000;
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        try (Generator g = Generator.builder().nodeId(5).mode(Mode.MONOTONIC).build()) {
            List<Thread> workers = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < threads; t++) {
                final boolean batches = t % 2 == 0;
                Thread w = new Thread(() -> {
                    try {
                        long last = -1;
                        for (int i = 0; i < perThread; i += batches ? 100 : 1) {
                            long[] ids = batches ? g.nextIds(100) : new long[] {g.nextId()};
                            for (long id : ids) {
                                if (id <= last) {
                                    throw new AssertionError("not increasing within a thread");
                                }
                                last = id;
                                if (!seen.add(id)) {
                                    throw new AssertionError("duplicate " + id);
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals((long) threads * perThread, seen.size());
            assertEquals((long) threads * perThread, g.stats().idsIssued());
        }
    }

    @Test
    void closingWhileOtherThreadsMintIsSafe() throws Exception {
        Generator g = Generator.builder().nodeId(6).mode(Mode.MONOTONIC).build();
        CountDownLatch started = new CountDownLatch(2);
        AtomicInteger closedSeen = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Thread w = new Thread(() -> {
                started.countDown();
                try {
                    while (true) {
                        g.nextIds(64);
                        g.nextId();
                    }
                } catch (GeneratorClosedException e) {
                    closedSeen.incrementAndGet();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            workers.add(w);
            w.start();
        }
        started.await();
        Thread.sleep(20);
        g.close();
        for (Thread w : workers) {
            w.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(2, closedSeen.get());
    }

    @Test
    void unreachableGeneratorsAreFreedWithoutClose() throws InterruptedException {
        long before = Natives.liveGenerators();
        // Discord's layout: generators of one node id and layout share a state word until all
        // are freed, so these strict ones must not share one with another test's monotonic
        // generator that ran ahead of the clock (default layout).
        for (int i = 0; i < 2000; i++) {
            Generator.builder().layout(Layout.DISCORD).nodeId(i % 1024).build().nextId();
        }
        assertTrue(Natives.liveGenerators() > before, "the native objects exist until collected");
        // The Cleaner runs after a collection; give the GC a few chances (not a timing test).
        for (int attempt = 0; attempt < 200 && Natives.liveGenerators() > before; attempt++) {
            System.gc();
            Thread.sleep(25);
        }
        assertTrue(Natives.liveGenerators() <= before,
                "live native generators: " + Natives.liveGenerators() + " (before: " + before + ")");
    }

    @Test
    void scriptedClockReportsWhatTheGeneratorDid() {
        ScriptedClock clock = ScriptedClock.of(new Segment(EPOCH, 3, 1, 1));
        assertEquals(EPOCH, clock.peekWallMs());
        try (Generator g = Generator.builder().nodeId(1).clock(clock).build()) {
            g.nextId();
            g.nextId();
            assertEquals(2, clock.reads());
            assertEquals(EPOCH + 2, clock.peekWallMs());
        }
        clock.advanceWallMs(10);
        assertEquals(EPOCH + 12, clock.peekWallMs());
        clock.setScript(List.of(Segment.of(EPOCH + 5)));
        assertEquals(EPOCH + 5, clock.peekWallMs());
        clock.append(Segment.of(EPOCH + 6));
        assertEquals((EPOCH + 5) * 1_000_000, clock.wallNs());
        assertEquals((EPOCH + 6) * 1_000_000, clock.wallNs());
        assertThrows(InvalidArgumentException.class, () -> new ScriptedClock(List.of()));
        assertThrows(InvalidArgumentException.class, () -> ScriptedClock.of(new Segment(EPOCH, 0, 0, 1)));
    }
}
