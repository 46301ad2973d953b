package dev.snowfleet;

import dev.snowfleet.internal.Natives;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Run by MemoryFlatTest in a JVM with a fixed, pre-touched heap: runs {@code lifetimes}
 * generators for each way a generator's life can end to reach the steady state (JIT,
 * allocator arenas, thread-local buffers), then as many again per way, and prints the
 * resident set, the heap in use and the live native generators before and after each
 * measured run, as key=value lines. A generator lifetime: build (node id cycling through 0..1023), one id, a
 * batch of 100, stats and status, then the end being tested.
 */
public final class LifetimesProbe {
    private static final int THREADS = 4;

    private LifetimesProbe() {}

    enum End {
        CLOSE, TRY_WITH_RESOURCES, CLEANER, THREADS
    }

    public static void main(String[] args) throws Exception {
        int lifetimes = Integer.parseInt(args[0]);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            // The steady state first, for every way at once: the JIT has compiled what the
            // measured runs call, and the allocator holds what they need.
            for (End end : End.values()) {
                run(end, lifetimes, pool);
            }
            for (End end : End.values()) {
                String name = end.name().toLowerCase();
                settle();
                long rss0 = rssKiB(), heap0 = heapKiB(), live0 = Natives.liveGenerators();
                run(end, lifetimes, pool);
                settle();
                long rss1 = rssKiB(), heap1 = heapKiB(), live1 = Natives.liveGenerators();
                System.out.println(name + ".rssKiB=" + rss0 + " " + rss1);
                System.out.println(name + ".heapKiB=" + heap0 + " " + heap1);
                System.out.println(name + ".live=" + live0 + " " + live1);
                System.out.println(name + ".rssGrowthKiB=" + (rss1 - rss0));
                System.out.println(name + ".heapGrowthKiB=" + (heap1 - heap0));
                System.out.println(name + ".liveGrowth=" + (live1 - live0));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static void run(End end, int lifetimes, ExecutorService pool) throws Exception {
        if (end != End.THREADS) {
            for (int i = 0; i < lifetimes; i++) {
                live(end, i);
            }
            return;
        }
        // Every thread ends its generators each of the three ways in turn.
        List<Future<?>> parts = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = t;
            parts.add(pool.submit(() -> {
                for (int i = first; i < lifetimes; i += THREADS) {
                    live(End.values()[i % 3], i);
                }
            }));
        }
        for (Future<?> part : parts) {
            part.get();
        }
    }

    static void live(End end, int i) {
        switch (end) {
            case CLOSE: {
                Generator g = build(i);
                use(g);
                g.close();
                break;
            }
            case TRY_WITH_RESOURCES:
                try (Generator g = build(i)) {
                    use(g);
                }
                break;
            case CLEANER:
                use(build(i));
                break;
            default:
                throw new IllegalArgumentException(end.name());
        }
    }

    static Generator build(int i) {
        return Generator.builder().nodeId(i % 1024).build();
    }

    static void use(Generator g) {
        g.nextId();
        g.nextIds(100);
        g.stats();
        g.status();
    }

    /**
     * Collects until the Cleaner has freed every generator (close() stops one, the Cleaner
     * frees it); gives up after a few seconds rather than hang, and the test sees the count.
     */
    static void settle() throws InterruptedException {
        for (int attempt = 0; attempt < 400 && Natives.liveGenerators() > 0; attempt++) {
            System.gc();
            Thread.sleep(10);
        }
        System.gc();
    }

    static long rssKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS in /proc/self/status");
    }

    static long heapKiB() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024;
    }
}
