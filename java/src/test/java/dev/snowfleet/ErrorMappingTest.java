package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.internal.jni.SnowfleetNative;
import dev.snowfleet.internal.jnitest.SnowfleetTestNative;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Java exception table is the core's list (snowfleet::error_kinds() through SWIG): every
 * kind has its class, with the right base for its category and the right code, the native
 * glue throws exactly that class, and no other exception class exists. No C++ exception
 * crosses JNI.
 */
class ErrorMappingTest {

    static Class<?> classOf(int kind) throws ClassNotFoundException {
        return Class.forName(SnowfleetNative.exceptionClassName(kind).replace('/', '.'));
    }

    @Test
    void everyCoreKindHasItsClassWithTheCategorysBaseAndTheCode() throws Exception {
        int n = SnowfleetNative.errorKindCount();
        assertEquals(8, n, "the core's list changed: review the Java classes and README table");
        for (int i = 0; i < n; i++) {
            String code = SnowfleetNative.errorKindCode(i);
            String name = SnowfleetNative.errorKindName(i);
            String category = SnowfleetNative.errorKindCategory(i);
            Class<?> cls = classOf(i);
            assertEquals("dev.snowfleet." + name + "Exception", cls.getName());
            assertTrue(SnowfleetFailure.class.isAssignableFrom(cls), cls + " implements SnowfleetFailure");
            assertTrue(RuntimeException.class.isAssignableFrom(cls), cls + " is unchecked");
            assertTrue(Modifier.isPublic(cls.getModifiers()), cls + " is public");
            if (category.equals("argument")) {
                assertTrue(IllegalArgumentException.class.isAssignableFrom(cls), cls + " is an IllegalArgumentException");
            } else {
                assertTrue(SnowfleetException.class.isAssignableFrom(cls), cls + " is a SnowfleetException");
            }
            assertEquals(code, cls.getField("CODE").get(null), cls + ".CODE");
        }
    }

    @Test
    void theNativeGlueThrowsExactlyTheMappedClass() throws Exception {
        for (int i = 0; i < SnowfleetNative.errorKindCount(); i++) {
            final int kind = i;
            String message = "kind " + i + ": caf\u00e9 \u2713 \ud83d\ude00";
            Throwable e = assertThrows(RuntimeException.class,
                    () -> SnowfleetTestNative.throwErrorForTest(kind, message, 600 + kind));
            assertSame(classOf(i), e.getClass());
            assertEquals(SnowfleetNative.errorKindCode(i), ((SnowfleetFailure) e).code());
            assertEquals(message, e.getMessage(), "the message survives UTF-8 both ways");
            if (e instanceof ClockMovedBackwardsException) {
                assertEquals(600 + kind, ((ClockMovedBackwardsException) e).driftMs());
            }
        }
    }

    @Test
    void noOtherExceptionClassesExist() throws IOException, URISyntaxException {
        Set<String> expected = new TreeSet<>();
        for (int i = 0; i < SnowfleetNative.errorKindCount(); i++) {
            expected.add(SnowfleetNative.errorKindName(i) + "Exception");
        }
        expected.add("SnowfleetException");
        Path dir = Path.of(SnowfleetException.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/snowfleet");
        Set<String> actual;
        try (Stream<Path> files = Files.list(dir)) {
            actual = files.map(p -> p.getFileName().toString())
                    .filter(f -> f.endsWith("Exception.class"))
                    .map(f -> f.substring(0, f.length() - ".class".length()))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(expected, actual);
    }

    @Test
    void otherCppExceptionsBecomeInternalErrorException() {
        InternalErrorException std = assertThrows(InternalErrorException.class,
                () -> SnowfleetTestNative.throwStdExceptionForTest("boom"));
        assertEquals("boom", std.getMessage());
        assertEquals("INTERNAL", std.code());
        InternalErrorException unknown = assertThrows(InternalErrorException.class,
                SnowfleetTestNative::throwUnknownForTest);
        assertEquals("unknown C++ exception", unknown.getMessage());
        // The JVM is still fine after each: the next call works.
        assertEquals(5, SnowfleetTestNative.echo(5));
    }

    @Test
    void nativeOutOfMemoryBecomesOutOfMemoryError() {
        OutOfMemoryError e = assertThrows(OutOfMemoryError.class, SnowfleetTestNative::throwBadAllocForTest);
        assertTrue(e.getMessage().contains("native memory"), e.getMessage());
        assertEquals(5, SnowfleetTestNative.echo(5));
    }

    @Test
    void invalidUtf8InACoreMessageIsReplacedNotFatal() {
        // A stray byte (a character cut in half) becomes U+FFFD: Java's UTF-8 decoder reads
        // the message, never JNI's modified UTF-8 reader (which would abort under -Xcheck:jni).
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                SnowfleetTestNative::throwInvalidUtf8ForTest);
        assertEquals("cut \ufffd here", e.getMessage());
        // A lone surrogate has no UTF-8 form: Java's encoder sends '?' in its place.
        Throwable lone = assertThrows(InvalidArgumentException.class,
                () -> SnowfleetTestNative.throwErrorForTest(0, "a \ud800 c", 0));
        assertEquals("a ? c", lone.getMessage());
    }

    @Test
    void aBadKindIndexIsAnInvalidArgument() {
        assertThrows(InvalidArgumentException.class, () -> SnowfleetNative.errorKindCode(99));
        assertThrows(InvalidArgumentException.class, () -> SnowfleetTestNative.throwErrorForTest(-1, "x", 0));
    }
}
