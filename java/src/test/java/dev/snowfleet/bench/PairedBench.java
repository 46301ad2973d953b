package dev.snowfleet.bench;

import com.github.f4b6a3.tsid.TsidCreator;
import com.github.f4b6a3.uuid.UuidCreator;
import dev.snowfleet.Generator;
import dev.snowfleet.Mode;
import dev.snowfleet.Uuid7Generator;
import dev.snowfleet.internal.jnitest.SnowfleetTestNative;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;

/**
 * An interleaved harness for a shared, noisy machine. JMH runs one benchmark after another,
 * so a neighbour's burst lands on one row and not on its peer; here every round runs every
 * contender for one short slice, in a shuffled order, so each pair of rows shares the same
 * minutes and every ratio is taken per round. Prints medians over all rounds of all forks.
 *
 * <p>Usage: {@code PairedBench [--json FILE] [forks] [rounds] [sliceMs]} (defaults 3, 40, 20;
 * the two rate-capped contenders run 10 slices' worth). Each fork is a fresh JVM (the parent
 * only collects and summarises). {@code --json FILE} also writes the medians in the bench JSON
 * form that bench/chart.py reads.
 */
public final class PairedBench {
    private PairedBench() {}

    /** One contender: {@code run(n)} mints n ids (in one thread) and returns something to consume. */
    abstract static class Contender {
        final String name;
        final int threads;
        /** Slice length in base slices. Rate-capped contenders (4,096 ids/ms) get long slices:
         *  each slice starts with a fresh millisecond's sequence, so a short slice would
         *  overstate the sustained rate by up to one millisecond's worth of ids. */
        final int sliceScale;

        Contender(String name, int threads) {
            this(name, threads, 1);
        }

        Contender(String name, int threads, int sliceScale) {
            this.name = name;
            this.threads = threads;
            this.sliceScale = sliceScale;
        }

        abstract long run(int n);
    }

    static volatile long sink;

    static List<Contender> contenders() {
        Generator strict = Generator.builder().nodeId(1).build();
        Generator monotonic = Generator.builder().nodeId(2).mode(Mode.MONOTONIC).maxDriftMs(86_400_000).build();
        // The two-thread row mints on a generator of its own: a thread minting alone owns its
        // id space's state word and stores without a compare-and-swap, until another thread
        // writes the word; from then on it is shared by compare-and-swap for good, and the
        // one-thread row would measure that instead (docs/performance.md).
        Generator monotonicShared =
            Generator.builder().nodeId(3).mode(Mode.MONOTONIC).maxDriftMs(86_400_000).build();
        TwitterIdWorker twitter = new TwitterIdWorker(1, 1);
        Uuid7Generator uuid7 = Uuid7Generator.builder().build();  // strict: 2^15 per ms, never reached here
        List<Contender> c = new ArrayList<>();
        c.add(new Contender("strictNextId", 1, 10) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += strict.nextId();
                }
                return s;
            }
        });
        c.add(new Contender("monotonicNextId", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += monotonic.nextId();
                }
                return s;
            }
        });
        c.add(new Contender("tsidCreator", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += TsidCreator.getTsid().toLong();
                }
                return s;
            }
        });
        c.add(new Contender("monotonicNextIds10000", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i += 10_000) {
                    long[] ids = monotonic.nextIds(10_000);
                    s += ids[ids.length - 1];
                }
                return s;
            }
        });
        c.add(new Contender("twitterIdWorkerJava", 1, 10) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += twitter.nextId();
                }
                return s;
            }
        });
        c.add(new Contender("monotonicNextId2Threads", 2) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                  s += monotonicShared.nextId();
                }
                return s;
            }
        });
        c.add(new Contender("tsidCreator2Threads", 2) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += TsidCreator.getTsid().toLong();
                }
                return s;
            }
        });
        c.add(new Contender("uuid7NextUuid7", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += uuid7.nextUuid7().getLeastSignificantBits();
                }
                return s;
            }
        });
        c.add(new Contender("uuidCreatorV7", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += UuidCreator.getTimeOrderedEpoch().getLeastSignificantBits();
                }
                return s;
            }
        });
        c.add(new Contender("uuidCreatorV7Fast", 1) {  // not a CSPRNG: the peer's fast variant
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += UuidCreator.getTimeOrderedEpochFast().getLeastSignificantBits();
                }
                return s;
            }
        });
        c.add(new Contender("uuid7NextUuid7s10000", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i += 10_000) {
                    UUID[] u = uuid7.nextUuid7s(10_000);
                    s += u[u.length - 1].getLeastSignificantBits();
                }
                return s;
            }
        });
        c.add(new Contender("uuid7NextUuid72Threads", 2) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += uuid7.nextUuid7().getLeastSignificantBits();
                }
                return s;
            }
        });
        c.add(new Contender("uuidCreatorV72Threads", 2) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += UuidCreator.getTimeOrderedEpoch().getLeastSignificantBits();
                }
                return s;
            }
        });
        c.add(new Contender("bareJniCall", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += SnowfleetTestNative.echo(i);
                }
                return s;
            }
        });
        c.add(new Contender("currentTimeMillis", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += System.currentTimeMillis();
                }
                return s;
            }
        });
        c.add(new Contender("instantNow", 1) {
            long run(int n) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += Instant.now().getNano();
                }
                return s;
            }
        });
        return c;
    }

    /** Wall ns for `threads` threads each running c.run(n), started together. */
    static long timeSlice(Contender c, int n) throws Exception {
        if (c.threads == 1) {
            long t0 = System.nanoTime();
            sink += c.run(n);
            return System.nanoTime() - t0;
        }
        CyclicBarrier start = new CyclicBarrier(c.threads + 1);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < c.threads; t++) {
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    sink += c.run(n);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            th.start();
            ts.add(th);
        }
        start.await();
        long t0 = System.nanoTime();
        for (Thread th : ts) {
            th.join();
        }
        return System.nanoTime() - t0;
    }

    /** Child: warm up, size each contender's slice, then print "R name ns_per_id" lines. */
    static void child(int rounds, long sliceNs) throws Exception {
        List<Contender> cs = contenders();
        Map<Contender, Integer> sizes = new LinkedHashMap<>();
        for (Contender c : cs) {
            long slice = sliceNs * c.sliceScale;
            int n = 10_000;
            long deadline = System.nanoTime() + 2_000_000_000L;  // ~2 s warm-up each
            long ns = 0;
            while (System.nanoTime() < deadline) {
                ns = timeSlice(c, n);
                if (ns < slice / 2) {
                    n = (int) Math.min(Integer.MAX_VALUE / 2, n * 2L);
                }
            }
            // per-thread ids for one slice, a multiple of the batch size
            long want = Math.max(10_000, (long) ((double) n * slice / Math.max(ns, 1)));
            sizes.put(c, (int) Math.min(Integer.MAX_VALUE / 2, (want / 10_000 + 1) * 10_000));
        }
        Random rnd = new Random(42);
        for (int r = 0; r < rounds; r++) {
            List<Contender> order = new ArrayList<>(cs);
            Collections.shuffle(order, rnd);
            for (Contender c : order) {
                int n = sizes.get(c);
                long ns = timeSlice(c, n);
                double perId = (double) ns / ((long) n * c.threads);  // wall ns per id, all threads
                System.out.printf(Locale.ROOT, "R %d %s %.4f%n", r, c.name, perId);
            }
        }
        System.out.flush();
    }

    static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            child(Integer.parseInt(args[1]), Long.parseLong(args[2]) * 1_000_000L);
            return;
        }
        String jsonOut = null;
        if (args.length > 1 && args[0].equals("--json")) {
            jsonOut = args[1];
            args = Arrays.copyOfRange(args, 2, args.length);
        }
        int forks = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int sliceMs = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Map<String, List<Double>> perId = new LinkedHashMap<>();
        Map<String, Map<Integer, Double>> byRound = new LinkedHashMap<>();
        Map<String, Integer> threads = new LinkedHashMap<>();
        for (Contender c : contenders()) {
            threads.put(c.name, c.threads);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int f = 0; f < forks; f++) {
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    PairedBench.class.getName(), "--child", String.valueOf(rounds), String.valueOf(sliceMs))
                    .redirectErrorStream(true).start();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    String[] w = line.split(" ");
                    if (w.length != 4 || !w[0].equals("R")) {
                        System.out.println("fork " + f + ": " + line);
                        continue;
                    }
                    double v = Double.parseDouble(w[3]);
                    perId.computeIfAbsent(w[2], k -> new ArrayList<>()).add(v);
                    byRound.computeIfAbsent(w[2], k -> new LinkedHashMap<>()).put(f * 100_000 + Integer.parseInt(w[1]), v);
                }
            }
            if (p.waitFor() != 0) {
                throw new IllegalStateException("fork " + f + " failed");
            }
        }
        System.out.printf(Locale.ROOT, "%nPairedBench: %d forks x %d rounds x %d ms slices, shuffled order each round%n",
                forks, rounds, sliceMs);
        System.out.printf(Locale.ROOT, "%-26s %7s %12s %16s %8s%n", "contender", "threads", "ns/id", "ids/s (total)", "samples");
        for (Map.Entry<String, List<Double>> e : perId.entrySet()) {
            double m = median(e.getValue());
            System.out.printf(Locale.ROOT, "%-26s %7d %12.2f %16s %8d%n", e.getKey(), threads.get(e.getKey()), m,
                    String.format(Locale.ROOT, "%,.0f", 1e9 / m), e.getValue().size());
        }
        System.out.println();
        ratio(byRound, "monotonicNextId", "tsidCreator", "monotonic nextId() / tsid-creator, median per-round ratio");
        ratio(byRound, "monotonicNextId2Threads", "tsidCreator2Threads", "2 threads: monotonic / tsid-creator");
        ratio(byRound, "strictNextId", "twitterIdWorkerJava", "strict nextId() / Java IdWorker");
        ratio(byRound, "uuid7NextUuid7", "uuidCreatorV7", "nextUuid7() / uuid-creator getTimeOrderedEpoch()");
        ratio(byRound, "uuid7NextUuid72Threads", "uuidCreatorV72Threads", "2 threads: nextUuid7() / uuid-creator");
        ratio(byRound, "monotonicNextId", "bareJniCall", "monotonic nextId() / bare JNI call");
        if (jsonOut != null) {
            BenchJson.write(Path.of(jsonOut), perId, threads, String.format(Locale.ROOT,
                    "bash scripts/bench/java.sh paired %d %d %d", forks, rounds, sliceMs));
        }
    }

    static void ratio(Map<String, Map<Integer, Double>> byRound, String a, String b, String label) {
        Map<Integer, Double> ra = byRound.get(a);
        Map<Integer, Double> rb = byRound.get(b);
        if (ra == null || rb == null) {
            return;
        }
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<Integer, Double> e : ra.entrySet()) {
            Double other = rb.get(e.getKey());
            if (other != null) {
                ratios.add(e.getValue() / other);
            }
        }
        Collections.sort(ratios);
        System.out.printf(Locale.ROOT, "%-58s %.2f  (quartiles %.2f .. %.2f)%n", label, median(ratios),
                ratios.get(ratios.size() / 4), ratios.get(3 * ratios.size() / 4));
    }
}
