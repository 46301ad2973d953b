package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.internal.jni.SnowfleetNative;
import dev.snowfleet.testing.ScriptedClock;
import dev.snowfleet.testing.ScriptedClock.Segment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class GeneratorTest {
    static final long EPOCH = 1704067200000L;

    @Test
    void defaultsComeFromTheCore() {
        try (Generator g = Generator.builder().nodeId(37).build()) {
            assertEquals(37, g.nodeId());
            assertEquals(Layout.standard(), g.layout());
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
        }
    }

    @Test
    void nodeIdIsRequiredAndValidated() {
        InvalidArgumentException missing = assertThrows(InvalidArgumentException.class,
                () -> Generator.builder().build());
        assertTrue(missing.getMessage().contains("node_id"), missing.getMessage());
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
        long before = SnowfleetNative.liveGenerators();
        for (int i = 0; i < 2000; i++) {
            Generator.builder().nodeId(i % 1024).build().nextId();
        }
        assertTrue(SnowfleetNative.liveGenerators() > before, "the native objects exist until collected");
        // The Cleaner runs after a collection; give the GC a few chances (not a timing test).
        for (int attempt = 0; attempt < 200 && SnowfleetNative.liveGenerators() > before; attempt++) {
            System.gc();
            Thread.sleep(25);
        }
        assertTrue(SnowfleetNative.liveGenerators() <= before,
                "live native generators: " + SnowfleetNative.liveGenerators() + " (before: " + before + ")");
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
