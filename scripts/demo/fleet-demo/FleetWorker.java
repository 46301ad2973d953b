import dev.snowfleet.Generator;
import dev.snowfleet.Layout;
import dev.snowfleet.SnowfleetException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

/**
 * Polyglot fleet demo, Java worker: leases a node id from a node source, mints for a few
 * seconds, prints the fleet line protocol (see scripts/demo/fleet_summary.py).
 *
 * <pre>java -cp snowfleet.jar FleetWorker.java SOURCE SECONDS [LAYOUT]</pre>
 */
public class FleetWorker {
    public static void main(String[] args) throws IOException, InterruptedException {
        String source = args[0];
        long end = System.nanoTime() + (long) (Double.parseDouble(args[1]) * 1e9);
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 16);
        Generator.Builder builder = Generator.builder().nodeSource(source);
        if (args.length > 2) builder.layout(Layout.parse(args[2]));
        try (Generator gen = builder.build()) {
            out.write("node " + gen.nodeId() + " " + gen.status().markMs() + "\n");
            out.flush();
            StringBuilder line = new StringBuilder(2048);
            while (System.nanoTime() < end) {
                long wall = System.currentTimeMillis();
                try {
                    long[] ids = gen.nextIds(64);
                    line.setLength(0);
                    line.append("ids ").append(wall);
                    for (long id : ids) line.append(' ').append(id);
                    out.write(line.append('\n').toString());
                    out.flush();
                } catch (SnowfleetException e) {
                    out.write("error " + e.code() + " " + wall + " " + e.getMessage() + "\n");
                    Thread.sleep(10);
                    continue;
                }
                Thread.sleep(0, 500_000);
            }
            out.write("closed " + gen.stats().idsIssued() + " " + gen.stats().markWrites() + "\n");
        }
        out.flush();
    }
}
