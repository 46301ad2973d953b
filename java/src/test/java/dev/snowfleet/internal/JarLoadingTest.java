package dev.snowfleet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.snowfleet.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The package as a jar (target/classes with the native library, zipped) loaded in a fresh JVM
 * where the temporary directory or the JVM makes loading hard: a relative
 * {@code java.io.tmpdir}, a {@code noexec} one, a JDK that denies native access.
 */
class JarLoadingTest {
    static final long TIMEOUT_S = 120;

    @TempDir
    Path tmp;

    Path jar;

    record Result(int exit, String out) {
        String error() {
            return out.lines().filter(l -> l.startsWith("error=")).findFirst().orElse(out);
        }
    }

    @BeforeEach
    void writeJar() throws Exception {
        jar = tmp.resolve("snowfleet.jar");
        Path classes = ChildJvm.classesDir();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    /** Runs LoaderProbe from the jar: {@code prefix... java jvmArgs... -cp jar:test-classes LoaderProbe}. */
    Result probe(Path dir, List<String> prefix, Path javaHome, String... jvmArgs) throws Exception {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(javaHome.resolve("bin").resolve("java").toString());
        cmd.addAll(List.of(jvmArgs));
        cmd.add("-cp");
        cmd.add(jar + File.pathSeparator + ChildJvm.testClassesDir());
        cmd.add(LoaderProbe.class.getName());
        Path log = tmp.resolve("child.log");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly().waitFor();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(exited, "child JVM still running after " + TIMEOUT_S + " s; killed. Output:\n" + out);
        return new Result(p.exitValue(), out);
    }

    static Path runningJdk() {
        return Path.of(System.getProperty("java.home"));
    }

    @Test
    void loadsAndMintsWithARelativeTmpdir() throws Exception {
        // System.load takes only absolute paths ("Expecting an absolute path of the library").
        Files.createDirectories(tmp.resolve("tmp"));
        Result r = probe(tmp, List.of(), runningJdk(), "-Djava.io.tmpdir=tmp");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("source=jar:" + NativeLoader.resourcePath()), r.out());
    }

    @Test
    void aNoexecTmpdirGetsAnErrorNamingTheWayOut() throws Exception {
        // A private tmpfs mounted noexec (a hardened /tmp) in a mount namespace of its own.
        Path noexec = Files.createDirectories(tmp.resolve("noexec"));
        assumeTrue(run(List.of("unshare", "-m", "mount", "-t", "tmpfs", "-o", "noexec,size=1m", "tmpfs",
                noexec.toString())) == 0,
                "cannot mount a private tmpfs here (needs root and unshare -m, i.e. CAP_SYS_ADMIN)");
        List<String> prefix = List.of("unshare", "-m", "sh", "-c",
                "mount -t tmpfs -o noexec,size=16m tmpfs \"$0\" && exec \"$@\"", noexec.toString());
        Result r = probe(tmp, prefix, runningJdk(), "-Djava.io.tmpdir=" + noexec);
        assertNotEquals(0, r.exit(), "minted from a noexec java.io.tmpdir?\n" + r.out());
        assertTrue(r.error().contains("java.io.tmpdir") && r.error().contains(NativeLoader.PROPERTY),
                r.out());
    }

    @Test
    void deniedNativeAccessGetsAnErrorNamingTheFlag() throws Exception {
        Optional<Path> jdk = jdkWithNativeAccessDenial();
        assumeTrue(jdk.isPresent(), "no JDK 24+ found (the running JVM, JAVA_HOME, -Dsnowfleet.test.jdk,"
                + " SNOWFLEET_JDK_DENY, or a JDK beside " + runningJdk() + "): --illegal-native-access"
                + " needs one");
        Result r = probe(tmp, List.of(), jdk.get(), "--illegal-native-access=deny");
        assertNotEquals(0, r.exit(), "minted with native access denied?\n" + r.out());
        assertTrue(r.error().contains("--enable-native-access=ALL-UNNAMED"), r.out());
    }

    /**
     * A JDK 24+ (--illegal-native-access): the running one, JAVA_HOME, the property
     * snowfleet.test.jdk or SNOWFLEET_JDK_DENY, else the newest installed beside the running
     * one (/usr/lib/jvm/*).
     */
    static Optional<Path> jdkWithNativeAccessDenial() throws IOException {
        List<Path> candidates = new ArrayList<>();
        candidates.add(runningJdk());
        for (String named : new String[] {System.getenv("JAVA_HOME"), System.getProperty("snowfleet.test.jdk"),
                System.getenv("SNOWFLEET_JDK_DENY")}) {
            if (named != null && !named.isBlank()) {
                candidates.add(Path.of(named));
            }
        }
        Path parent = runningJdk().toRealPath().getParent();
        if (parent != null) {
            try (Stream<Path> beside = Files.list(parent)) {
                beside.sorted(Comparator.comparing(JarLoadingTest::featureVersion).reversed())
                        .forEach(candidates::add);
            }
        }
        return candidates.stream().filter(j -> featureVersion(j) >= 24)
                .filter(j -> Files.isExecutable(j.resolve("bin").resolve("java"))).findFirst();
    }

    /** The feature release a JDK's release file names (JAVA_VERSION="25.0.1": 25), 0 if none. */
    static int featureVersion(Path jdk) {
        Path release = jdk.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        Properties p = new Properties();
        try (var in = Files.newInputStream(release)) {
            p.load(in);
        } catch (IOException e) {
            return 0;
        }
        String v = p.getProperty("JAVA_VERSION", "").replace("\"", "");
        try {
            return Integer.parseInt(v.split("[.+-]")[0]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static int run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            return -1;
        }
        return p.exitValue();
    }
}
