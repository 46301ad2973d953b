import dev.snowfleet.Generator;
import dev.snowfleet.Snowfleet;
import dev.snowfleet.Uuid7;
import dev.snowfleet.Uuid7Generator;
import dev.snowfleet.internal.NativeLoader;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * Run against a released jar on a foreign JVM (scripts/dist/verify-jar-aarch64.sh: Debian's
 * arm64 OpenJDK under qemu-aarch64): the loader must name the platform given as the first
 * argument and load that platform's library from the jar; ids and UUIDv7s must be unique,
 * ascending and decode to what was minted. Compiled by the host's javac (the arm64 JRE has no
 * compiler), so it exits non-zero on any failure rather than relying on assertions being on.
 */
public class JarVerify {
    public static void main(String[] args) {
        String want = args[0];
        int n = 10_000;
        long first;
        try (Generator gen = Generator.builder().nodeId(37).build()) {
            long[] ids = gen.nextIds(n);
            for (int i = 1; i < n; i++) {
                check(ids[i] > ids[i - 1], "ids not ascending at " + i + ": " + ids[i - 1] + ", " + ids[i]);
            }
            check(Snowfleet.decode(ids[0]).nodeId() == 37, "decode(" + ids[0] + ") gave another node");
            long now = System.currentTimeMillis();
            long ts = Snowfleet.decode(ids[n - 1]).timestampMs();
            check(Math.abs(now - ts) < 60_000, "decoded time " + ts + " is not now (" + now + ")");
            first = ids[0];
        }
        check(NativeLoader.platform().equals(want), "the loader named " + NativeLoader.platform() + ", not " + want);
        check(NativeLoader.source().equals("jar:/native/" + want + "/libsnowfleet_jni.so"),
                "loaded " + NativeLoader.source() + ", not the jar's " + want + " library");
        UUID last = null;
        Set<UUID> seen = new HashSet<>();
        try (Uuid7Generator gen = Uuid7Generator.builder().build()) {
            for (UUID u : gen.nextUuid7s(n)) {
                check(u.version() == 7 && seen.add(u), "UUID " + u + " is not a new version 7");
                check(last == null || last.toString().compareTo(u.toString()) < 0, "UUIDs not ascending: " + u);
                last = u;
            }
            check(Uuid7.decode(last).uuid().equals(last), "Uuid7.decode(" + last + ") gave another UUID");
        }
        System.out.println("jar verify: " + System.getProperty("os.arch") + " JVM " + System.getProperty("java.vm.version")
                + ", " + want + " loaded " + NativeLoader.source() + "; " + n + " ids (first " + first + ") and " + n
                + " UUIDv7s (last " + last + ") unique, ascending, decoded");
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("jar verify: FAIL " + what);
            System.exit(1);
        }
    }
}
