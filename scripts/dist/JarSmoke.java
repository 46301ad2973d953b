import dev.snowfleet.Generator;
import dev.snowfleet.Snowfleet;
import dev.snowfleet.internal.NativeLoader;

/**
 * scripts/dist/build.sh runs this single-file program against the built jar: it must load the
 * library the jar carries for this machine's platform and mint with it.
 */
public class JarSmoke {
    public static void main(String[] args) {
        try (Generator gen = Generator.builder().nodeId(37).build()) {
            long id = gen.nextId();
            if (Snowfleet.decode(id).nodeId() != 37 || gen.nextId() <= id) {
                throw new AssertionError("the jar's library minted a wrong id: " + id);
            }
            String source = NativeLoader.source();
            if (!source.equals("jar:" + NativeLoader.resourcePath())) {
                throw new AssertionError("loaded " + source + ", not the jar's library");
            }
            System.out.println("jar smoke: " + NativeLoader.platform() + " loaded " + source
                    + ", minted " + id);
        }
    }
}
