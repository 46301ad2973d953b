package dev.snowfleet.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by TwoClassLoadersTest in a JVM whose class path holds only the test classes, like an
 * application server: two "webapps", each a URLClassLoader over the package (parent: the
 * platform loader, so each defines its own dev.snowfleet classes and loads its own copy of
 * the native library), make a generator for the same node id and layout and mint from two
 * threads at once. Prints key=value lines: whether the classes are distinct, each loader's
 * library source, the ids minted and how many of them are duplicates.
 *
 * <p>Arguments: "two" (two loaders) or "one" (both generators from one loader: the control,
 * one copy of the library), the package's classes directory (or jar), the mode ("strict",
 * "monotonic"), the node id, the ids per generator. Uses reflection only: this class must
 * not link dev.snowfleet itself.
 */
public final class TwoLoadersProbe {
    private TwoLoadersProbe() {}

    /** A generator of the copy of dev.snowfleet that {@code loader} defines. */
    record Webapp(Class<?> generatorClass, Object generator, MethodHandle nextId, String source) {
        static Webapp open(ClassLoader loader, String mode, long nodeId) throws Exception {
            Class<?> gen = Class.forName("dev.snowfleet.Generator", true, loader);
            Class<?> modes = Class.forName("dev.snowfleet.Mode", true, loader);
            Object builder = gen.getMethod("builder").invoke(null);
            Class<?> b = builder.getClass();
            b.getMethod("nodeId", long.class).invoke(builder, nodeId);
            b.getMethod("mode", modes).invoke(builder, modes.getMethod("parse", String.class).invoke(null, mode));
            // Waiting for the next millisecond is not what this probe is about: a descheduled
            // thread must not turn into a refusal.
            b.getMethod("maxWaitMs", double.class).invoke(builder, 1000.0);
            Object g = b.getMethod("build").invoke(builder);
            MethodHandle next = MethodHandles.publicLookup()
                    .findVirtual(gen, "nextId", MethodType.methodType(long.class)).bindTo(g);
            Object source = Class.forName("dev.snowfleet.internal.NativeLoader", true, loader)
                    .getMethod("source").invoke(null);
            return new Webapp(gen, g, next, String.valueOf(source));
        }

        void close() throws Exception {
            ((AutoCloseable) generator).close();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean two = args[0].equals("two");
        URL classes = Path.of(args[1]).toUri().toURL();
        String mode = args[2];
        long nodeId = Long.parseLong(args[3]);
        int perLoader = Integer.parseInt(args[4]);
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        try (URLClassLoader loaderA = new URLClassLoader("webapp-a", new URL[] {classes}, platform);
                URLClassLoader loaderB = new URLClassLoader("webapp-b", new URL[] {classes}, platform)) {
            Webapp a = Webapp.open(loaderA, mode, nodeId);
            Webapp b = Webapp.open(two ? loaderB : loaderA, mode, nodeId);
            System.out.println("distinctClasses=" + (a.generatorClass() != b.generatorClass()));
            System.out.println("source.a=" + a.source());
            System.out.println("source.b=" + b.source());

            long[] ids = new long[2 * perLoader];
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread[] threads = new Thread[2];
            Webapp[] apps = {a, b};
            for (int t = 0; t < 2; t++) {
                Webapp app = apps[t];
                int offset = t * perLoader;
                threads[t] = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < perLoader; i++) {
                            ids[offset + i] = (long) app.nextId().invokeExact();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            a.close();
            b.close();
            if (failure.get() != null) {
                System.out.println("error=" + failure.get());
                failure.get().printStackTrace(System.out);
                System.exit(2);
            }
            long[] sorted = ids.clone();
            Arrays.sort(sorted);
            long duplicates = 0;
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i] == sorted[i - 1]) {
                    duplicates++;
                }
            }
            System.out.println("ids=" + ids.length);
            System.out.println("duplicates=" + duplicates);
        }
    }
}
