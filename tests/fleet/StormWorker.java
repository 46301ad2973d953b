import dev.snowfleet.Generator;
import dev.snowfleet.Layout;
import dev.snowfleet.SnowfleetException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Claim-storm worker, Java: N threads each build a generator on one node source at one agreed
 * instant and hold the slots until SIGTERM (or 120 s). Same line protocol as
 * tests/storm_worker.cc.
 *
 * <pre>java -cp snowfleet.jar StormWorker.java SOURCE GENERATORS LAYOUT START_AT_UNIX_MS</pre>
 */
public class StormWorker {
    public static void main(String[] args) throws IOException, InterruptedException {
        String source = args[0];
        int count = Integer.parseInt(args[1]);
        Layout layout = Layout.parse(args[2]);
        long startAt = Long.parseLong(args[3]);
        PrintStream out = System.out;
        List<Generator> gens = new ArrayList<>();
        int[] refused = {0};
        Thread.sleep(Math.max(0, startAt - System.currentTimeMillis()));
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; ++i) {
            Thread t = new Thread(() -> {
                long t0 = System.nanoTime();
                String line;
                try {
                    Generator g = Generator.builder().nodeSource(source).layout(layout).build();
                    synchronized (gens) {
                        gens.add(g);
                    }
                    line = "claimed " + g.nodeId() + " " + (System.nanoTime() - t0) / 1000;
                } catch (SnowfleetException e) {
                    synchronized (gens) {
                        refused[0]++;
                    }
                    line = "error " + e.code() + " " + (System.nanoTime() - t0) / 1000 + " " + e.getMessage();
                }
                synchronized (out) {
                    out.println(line);
                    out.flush();
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) t.join();
        out.println("ready " + gens.size() + " " + refused[0]);
        for (Generator g : gens) {
            StringBuilder line = new StringBuilder("ids ").append(System.currentTimeMillis());
            try {
                for (long id : g.nextIds(4)) line.append(' ').append(id);
            } catch (SnowfleetException e) { // a held slot refusing (fenced); keep holding
                line = new StringBuilder("error " + e.code() + " 0 " + e.getMessage());
            }
            out.println(line);
        }
        out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Generator g : gens) g.close();
        }));
        Thread.sleep(120_000);
        for (Generator g : gens) g.close();
        out.println("closed");
        out.flush();
        System.exit(0);
    }
}
