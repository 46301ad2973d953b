import dev.snowfleet.Generator;
import dev.snowfleet.SnowfleetException;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Host-shared node id worker, Java: joins a node source (local:DIR?share=NAME), says which
 * node id it got, waits for {@code go END_UNIX_MS} on stdin, then mints in batches as fast
 * as it can until END_UNIX_MS, writing each batch's runs of consecutive ids to RUNFILE
 * ({@code FIRST COUNT} lines) after each batch. Same protocol as share_worker.py.
 *
 * <pre>java -cp snowfleet.jar:DIR ShareWorker SOURCE RUNFILE BATCH</pre>
 */
public class ShareWorker {
    public static void main(String[] args) throws IOException, InterruptedException {
        String source = args[0];
        int batch = Integer.parseInt(args[2]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.US_ASCII);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        long handed = 0;
        try (FileOutputStream file = new FileOutputStream(args[1]);
             Generator gen = Generator.builder().nodeSource(source).build()) {
            out.println("node " + gen.nodeId() + " " + gen.status().markMs());
            long endMs = Long.parseLong(in.readLine().split(" ")[1]);
            out.println("minting " + System.currentTimeMillis());
            StringBuilder text = new StringBuilder(1024);
            while (System.currentTimeMillis() < endMs) {
                long[] ids;
                try {
                    ids = gen.nextIds(batch);
                } catch (SnowfleetException e) {
                    out.println("error " + e.code() + " " + System.currentTimeMillis() + " " + e.getMessage());
                    Thread.sleep(1);
                    continue;
                }
                // Runs of consecutive ids; an id not above the one before starts its own.
                text.setLength(0);
                int start = 0;
                for (int i = 1; i <= ids.length; ++i) {
                    if (i < ids.length && ids[i] == ids[i - 1] + 1) continue;
                    text.append(ids[start]).append(' ').append(i - start).append('\n');
                    start = i;
                }
                file.write(text.toString().getBytes(StandardCharsets.US_ASCII));
                handed += ids.length;
            }
            out.println("closed " + handed + " " + gen.stats().markWrites() + " "
                    + gen.stats().markWriteFailures());
        }
    }
}
