package dev.snowfleet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.ChildJvm;
import dev.snowfleet.Mode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two webapps in one application server each load their own copy of the package and of the
 * native library. Generators of one node id in one process must still
 * share one id space, so the two copies must share the core's state registry.
 */
class TwoClassLoadersTest {
    static final int PER_LOADER = 40_000;

    @TempDir
    Path tmp;

    /** Runs TwoLoadersProbe in a child JVM; "two" loaders or "one" (the control). */
    ChildJvm.Result mint(String loaders, Mode mode) throws Exception {
        // Only the probe is on the child's class path; the loaders read the package from
        // target/classes (the jar's contents). ChildJvm checks no extracted copy is left.
        ChildJvm.Result r = ChildJvm.run(tmp, List.of(ChildJvm.testClassesDir()),
                TwoLoadersProbe.class.getName(), List.of("-Xcheck:jni"), loaders,
                ChildJvm.classesDir().toString(), mode.text(), "21", String.valueOf(PER_LOADER));
        System.out.println(r.out());
        assertEquals(0, r.exit(), r.out());
        // Each loader extracted the copy the package carries.
        assertTrue(r.value("source.a").startsWith("jar:"), r.value("source.a"));
        assertTrue(r.value("source.b").startsWith("jar:"), r.value("source.b"));
        assertEquals(2 * PER_LOADER, r.longValue("ids"));
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void oneNodeIdInTwoClassLoadersMintsNoDuplicates(Mode mode) throws Exception {
        ChildJvm.Result r = mint("two", mode);
        assertEquals("true", r.value("distinctClasses"), "each loader defines its own classes");
        assertEquals(0, r.longValue("duplicates"), mode.text() + ": duplicate ids of "
                + 2 * PER_LOADER + " minted by node 21 in two class loaders of one JVM");
    }

    /** The control: the probe counts no duplicates where one library copy shares the state. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void oneNodeIdTwiceInOneClassLoaderMintsNoDuplicates(Mode mode) throws Exception {
        ChildJvm.Result r = mint("one", mode);
        assertEquals("false", r.value("distinctClasses"));
        assertEquals(0, r.longValue("duplicates"), mode.text() + ": duplicate ids of "
                + 2 * PER_LOADER + " minted by node 21 in one class loader");
    }
}
