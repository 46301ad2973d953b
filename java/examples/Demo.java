import dev.snowfleet.Decoded;
import dev.snowfleet.Generator;
import dev.snowfleet.Layout;
import dev.snowfleet.Mode;
import dev.snowfleet.Snowfleet;
import dev.snowfleet.testing.ScriptedClock;

/** Mints and decodes a few ids (scripts/demo/java.sh runs it against the built jar). */
public class Demo {
    public static void main(String[] args) {
        try (Generator gen = Generator.builder().nodeId(37).build()) {
            for (int i = 0; i < 3; i++) {
                long id = gen.nextId();
                Decoded d = Snowfleet.decode(id);
                System.out.printf("%d  node=%d seq=%d  %s%n", id, d.nodeId(), d.sequence(), d.instant());
            }
            long[] batch = gen.nextIds(10_000);
            System.out.printf("batch of %d: %d .. %d (ascending)%n", batch.length, batch[0], batch[batch.length - 1]);
            System.out.println("stats: " + gen.stats());
        }
        try (Generator frozen = Generator.builder().nodeId(37).mode(Mode.STRICT)
                .clock(new ScriptedClock(1737747358021L)).build()) {
            long id = frozen.nextId();
            System.out.println("seed literal on a scripted clock: " + id + " -> " + Snowfleet.decode(id));
        }
        long twitter = Snowfleet.compose(1700000000000L, 7, 13, 4095, Layout.TWITTER);
        System.out.println("twitter layout compose: " + twitter + " -> " + Snowfleet.decode(twitter, Layout.TWITTER));
    }
}
