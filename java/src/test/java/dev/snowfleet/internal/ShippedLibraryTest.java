package dev.snowfleet.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.internal.jni.SnowfleetNativeJNI;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The jar's JNI library and classes carry no test hook (they live in libsnowfleet_jni_test.so). */
class ShippedLibraryTest {
    @Test
    void theJniClassHasNoHook() {
        for (Method m : SnowfleetNativeJNI.class.getDeclaredMethods()) {
            String name = m.getName();
            assertFalse(name.endsWith("ForTest") || name.startsWith("echo") || name.equals("liveGenerators"), name);
        }
    }

    @Test
    void theLibraryExportsNoHook() throws Exception {
        String lib = "/native/" + NativeLoader.platform() + "/" + System.mapLibraryName(NativeLoader.LIBRARY);
        byte[] bytes;
        try (InputStream in = NativeLoader.class.getResourceAsStream(lib)) {
            assertNotNull(in, lib);
            bytes = in.readAllBytes();
        }
        // Exported JNI names sit in .dynstr as plain text.
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("Java_dev_snowfleet_internal_jni_SnowfleetNativeJNI_generatorNextId"));
        for (String hook : Arrays.asList("ForTest", "SnowfleetNativeJNI_echo", "liveGenerators")) {
            assertFalse(text.contains(hook), lib + " contains " + hook);
        }
    }
}
