package dev.snowfleet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.Snowfleet;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each way of finding the library, in a fresh JVM (a library loads once per JVM). */
class NativeLoaderTest {
    @TempDir
    Path tmp;

    record Result(int exit, String out) {}

    Result probe(String classPath, String... jvmArgs) throws IOException, InterruptedException {
        Path tmpdir = Files.createDirectories(tmp.resolve("javatmp"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Djava.io.tmpdir=" + tmpdir);
        cmd.addAll(List.of(jvmArgs));
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(LoaderProbe.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        try (Stream<Path> left = Files.list(tmpdir)) {
            assertEquals(List.of(), left.collect(Collectors.toList()), "extracted copies are removed");
        }
        return new Result(exit, out);
    }

    static Path classesDir() throws Exception {
        return Path.of(NativeLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    static Path testClassesDir() throws Exception {
        return Path.of(LoaderProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    static Path bundledLibrary() throws Exception {
        URL url = NativeLoader.class.getResource(NativeLoader.resourcePath());
        assertNotNull(url, "the build put " + NativeLoader.resourcePath() + " on the class path");
        return Path.of(url.toURI());
    }

    /** A copy of target/classes without native/, like a jar built for another platform. */
    Path classesWithoutNative() throws Exception {
        Path src = classesDir();
        Path dst = tmp.resolve("classes-no-native");
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path rel = src.relativize(f);
                if (rel.startsWith("native")) {
                    continue;
                }
                Path to = dst.resolve(rel.toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return dst;
    }

    static void assertMinted(Result r) {
        assertEquals(0, r.exit, r.out);
        String id = r.out.lines().filter(l -> l.startsWith("id=")).findFirst().orElseThrow().substring(3);
        assertEquals(11, Snowfleet.decode(Long.parseLong(id)).nodeId());
    }

    @Test
    void fromTheJarByDefault() throws Exception {
        Result r = probe(classesDir() + File.pathSeparator + testClassesDir());
        assertMinted(r);
        assertTrue(r.out.contains("source=jar:" + NativeLoader.resourcePath()), r.out);
    }

    @Test
    void thePropertyOverrides() throws Exception {
        Path copy = Files.copy(bundledLibrary(), tmp.resolve("libcopy.so"));
        // The JNI library finds the id-space registry in its own directory.
        Files.copy(bundledLibrary().resolveSibling(NativeLoader.REGISTRY),
                tmp.resolve(NativeLoader.REGISTRY));
        Result r = probe(classesDir() + File.pathSeparator + testClassesDir(),
                "-D" + NativeLoader.PROPERTY + "=" + copy);
        assertMinted(r);
        assertTrue(r.out.contains("source=property:" + copy), r.out);
    }

    @Test
    void aBadPropertyIsAClearError() throws Exception {
        Result r = probe(classesDir() + File.pathSeparator + testClassesDir(),
                "-D" + NativeLoader.PROPERTY + "=" + tmp.resolve("missing.so"));
        assertEquals(3, r.exit, r.out);
        assertTrue(r.out.contains("named by -D" + NativeLoader.PROPERTY), r.out);
    }

    @Test
    void loadLibraryWhenInstalledOnTheLibraryPath() throws Exception {
        Result r = probe(classesWithoutNative() + File.pathSeparator + testClassesDir(),
                "-Djava.library.path=" + bundledLibrary().getParent());
        assertMinted(r);
        assertTrue(r.out.contains("source=java.library.path"), r.out);
    }

    @Test
    void nothingToLoadIsAClearError() throws Exception {
        Result r = probe(classesWithoutNative() + File.pathSeparator + testClassesDir(),
                "-Djava.library.path=" + tmp);
        assertEquals(3, r.exit, r.out);
        assertTrue(r.out.contains(NativeLoader.platform()), r.out);
        assertTrue(r.out.contains("-D" + NativeLoader.PROPERTY), r.out);
    }

    @Test
    void aLibraryFromAnotherReleaseIsRefusedNamingBothVersions() {
        assertEquals(null, NativeLoader.versionMismatch("0.1.0", "0.1.0", "jar:/x"));
        assertEquals(null, NativeLoader.versionMismatch(null, "0.1.0", "jar:/x"));  // no manifest
        String m = NativeLoader.versionMismatch("0.2.0", "0.1.0", "property:/opt/lib.so");
        assertTrue(m.contains("snowfleet 0.2.0 jar") && m.contains("native library 0.1.0"), m);
        assertTrue(m.contains("property:/opt/lib.so") && m.contains("-Dsnowfleet.library.path"), m);
        m = NativeLoader.versionMismatch("0.2.0", "0.1.0", "jar:/native/linux-x86_64/x.so");
        assertTrue(m.contains("rebuild it (mvn package)"), m);
    }

    @Test
    void deniedNativeAccessNamesTheFlagForTheClassPathOrTheModule() {
        // The denial itself needs JDK 24+ (JarLoadingTest); here the flag
        // each way of running the jar needs.
        String m = NativeLoader.nativeAccessDenied(NativeLoaderTest.class.getModule());
        assertTrue(m.contains("--enable-native-access=ALL-UNNAMED"), m);
        m = NativeLoader.nativeAccessDenied(Object.class.getModule());
        assertTrue(m.contains("module java.base"), m);
        assertTrue(m.contains("--enable-native-access=java.base"), m);
    }

    @Test
    void theLoadedLibraryIsThisRelease() throws IOException {
        String version = Files.readString(Path.of(System.getProperty("snowfleet.conformance.dir"))
                .resolve("../../VERSION")).trim();
        assertEquals(version, dev.snowfleet.internal.jni.SnowfleetNative.coreVersion());
    }
}
