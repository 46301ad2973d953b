package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.internal.NativeLoader;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs a probe's main() in a fresh JVM, for tests that need their own heap size, their own
 * process-wide native state, or a private temporary directory. The child gets
 * {@code -Djava.io.tmpdir=<dir>/javatmp}; {@link #run} asserts it is empty when the child
 * exits (every extracted library copy was removed).
 */
public final class ChildJvm {
    /** How long a child may run before it is killed and the test fails (never hangs). */
    static final long TIMEOUT_S = 300;

    private ChildJvm() {}

    /** Exit status and everything the child printed (stdout and stderr). */
    public record Result(int exit, String out) {
        /** The value of the first {@code key=value} line; fails the test when there is none. */
        public String value(String key) {
            String prefix = key + "=";
            return out.lines().filter(l -> l.startsWith(prefix)).findFirst()
                    .map(l -> l.substring(prefix.length()))
                    .orElseThrow(() -> new AssertionError("no " + prefix + " line in:\n" + out));
        }

        public long longValue(String key) {
            return Long.parseLong(value(key));
        }
    }

    /** target/classes: the package's classes and native library. */
    public static Path classesDir() throws Exception {
        return Path.of(NativeLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** target/test-classes: the probes. */
    public static Path testClassesDir() throws Exception {
        return Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * Runs {@code java <jvmArgs> -cp <classPath> <mainClass> <args>} with a private
     * java.io.tmpdir under {@code dir}, and returns once it has exited.
     */
    public static Result run(Path dir, List<Path> classPath, String mainClass, List<String> jvmArgs,
            String... args) throws IOException, InterruptedException {
        Path tmpdir = Files.createDirectories(dir.resolve("javatmp"));
        Path log = dir.resolve("child-" + System.nanoTime() + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Djava.io.tmpdir=" + tmpdir);
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        // Output goes to a file, so a child that stops reading cannot block, and a child that
        // never exits is killed after TIMEOUT_S.
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly().waitFor();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertTrue(exited, "child JVM still running after " + TIMEOUT_S + " s; killed. Output:\n" + out);
        try (Stream<Path> left = Files.list(tmpdir)) {
            assertEquals(List.of(), left.collect(Collectors.toList()),
                    "the child left temporary files behind:\n" + out);
        }
        return new Result(p.exitValue(), out);
    }
}
