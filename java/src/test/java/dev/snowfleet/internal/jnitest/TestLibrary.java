package dev.snowfleet.internal.jnitest;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * Loads libsnowfleet_jni_test.so, the test and benchmark hooks (bindings/java/test_hooks.hpp),
 * from the test classes (mvn puts it in target/test-classes/native-test/). The generated
 * SnowfleetTestNativeJNI calls this after loading the shipped library, whose registry it uses.
 */
public final class TestLibrary {
    private static boolean loaded;

    private TestLibrary() {}

    /** Loads the hooks' library once. */
    public static synchronized void load() {
        if (loaded) {
            return;
        }
        String name = "/native-test/" + System.mapLibraryName("snowfleet_jni_test");
        URL url = TestLibrary.class.getResource(name);
        if (url == null) {
            throw new UnsatisfiedLinkError("no " + name + " among the test classes: run mvn package");
        }
        try {
            System.load(Path.of(url.toURI()).toString());
        } catch (URISyntaxException e) {
            throw new UnsatisfiedLinkError("cannot locate " + url + ": " + e.getMessage());
        }
        loaded = true;
    }
}
