package dev.snowfleet;

/**
 * Run by BatchOutOfMemoryTest in a JVM whose heap cannot hold long[2^24]: asks for that batch
 * and prints the generator's state before and after, as key=value lines.
 */
public final class BatchOutOfMemoryProbe {
    private BatchOutOfMemoryProbe() {}

    public static void main(String[] args) {
        // A monotonic generator and a strict sibling of the same node id share one state word:
        // a batch that ran the monotonic one ahead of the clock would make the strict one wait.
        try (Generator gen = Generator.builder().nodeId(5).mode(Mode.MONOTONIC).build();
                Generator strict = Generator.builder().nodeId(5).build()) {
            long[] warm = gen.nextIds(1000);
            Status before = gen.status();
            System.out.println("before.idsIssued=" + gen.stats().idsIssued());
            System.out.println("before.lastMs=" + before.lastMs());
            System.out.println("before.driftMs=" + gen.driftMs());
            String outcome;
            try {
                outcome = "returned " + gen.nextIds(1 << 24).length;
            } catch (OutOfMemoryError e) {
                outcome = "OutOfMemoryError";
            } catch (RuntimeException e) {
                outcome = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            System.out.println("batch=" + outcome);
            Status after = gen.status();
            System.out.println("after.idsIssued=" + gen.stats().idsIssued());
            System.out.println("after.lastMs=" + after.lastMs());
            System.out.println("after.driftMs=" + gen.driftMs());
            Status sibling = strict.status();
            System.out.println("strict.healthy=" + sibling.healthy() + " " + sibling.reason());
            long[] next = gen.nextIds(10);
            System.out.println("next.length=" + next.length);
            System.out.println("next.follows=" + (next[0] > warm[warm.length - 1]));
            System.out.println("next.idsIssued=" + gen.stats().idsIssued());
        }
    }
}
