package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A batch the Java heap cannot hold spends no ids. */
class BatchOutOfMemoryTest {
    @TempDir
    Path tmp;

    @Test
    void aBatchThatCannotBeAllocatedSpendsNothing() throws Exception {
        // long[2^24] is 128 MiB; a 64 MiB heap cannot hold it.
        ChildJvm.Result r = ChildJvm.run(tmp,
                List.of(ChildJvm.classesDir(), ChildJvm.testClassesDir()),
                BatchOutOfMemoryProbe.class.getName(), List.of("-Xmx64m", "-Xcheck:jni"));
        System.out.println(r.out());
        assertEquals(0, r.exit(), r.out());
        assertEquals("OutOfMemoryError", r.value("batch"));
        assertEquals(r.longValue("before.idsIssued"), r.longValue("after.idsIssued"), "ids issued");
        assertEquals(r.longValue("before.lastMs"), r.longValue("after.lastMs"), "last issued ms");
        // Read at a later instant, so it may only have shrunk.
        assertTrue(r.longValue("after.driftMs") <= r.longValue("before.driftMs"),
                "drift " + r.value("before.driftMs") + " -> " + r.value("after.driftMs") + " ms");
        assertTrue(r.value("strict.healthy").startsWith("true"),
                "strict sibling: " + r.value("strict.healthy"));
        // The next call works and follows the ids issued before.
        assertEquals(10, r.longValue("next.length"));
        assertEquals("true", r.value("next.follows"));
        assertEquals(r.longValue("before.idsIssued") + 10, r.longValue("next.idsIssued"));
    }
}
