package dev.snowfleet.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Loads libsnowfleet_jni once per class loader, before the first native call.
 *
 * <p>Order: the {@value #PROPERTY} system property (an operator's explicit path), then the
 * copy the jar carries under {@code /native/<platform>/} (extracted to a temporary directory
 * and {@link System#load loaded}), then {@link System#loadLibrary System.loadLibrary}
 * ("snowfleet_jni" on {@code java.library.path}) for a library installed on the system. When
 * none loads, the error names the platform found, the platforms the jar carries and how to
 * build the library from source. A JVM that denies native access (JDK 24+,
 * {@code --illegal-native-access=deny}) gets an error naming {@code --enable-native-access}.
 *
 * <p>The platform is {@code <os>-<arch>-<libc>} on Linux ({@code linux-x86_64-gnu},
 * {@code linux-aarch64-musl}) and {@code <os>-<arch>} elsewhere. A released jar
 * (scripts/dist/build.sh) carries the four {@link #TARGETS}; a jar built from source (mvn package)
 * carries its build machine's platform only.
 *
 * <p>The JNI library needs {@value #REGISTRY} (the process's one id-space registry) from its
 * own directory: the jar carries it beside the JNI library and both are extracted together.
 * Every class loader loads its own copy of the JNI library, but the dynamic linker loads the
 * registry once per process, so generators of one id space share one state whichever web
 * application made them. Not part of the public API.
 */
public final class NativeLoader {
    /** System property naming the library file to load instead of the bundled one. */
    public static final String PROPERTY = "snowfleet.library.path";
    /** The base name given to System.loadLibrary. */
    public static final String LIBRARY = "snowfleet_jni";
    /** The id-space registry's file name (its SONAME), carried next to the JNI library. */
    public static final String REGISTRY = "libsnowfleet_registry.so.1";

    /** The platforms a released jar carries, in the order an error lists them. */
    static final List<String> TARGETS = List.of(
            "linux-x86_64-gnu", "linux-x86_64-musl", "linux-aarch64-gnu", "linux-aarch64-musl");

    private static String source;
    private static String platform;

    private NativeLoader() {}

    /** Loads the library if this class loader has not yet done so. */
    public static synchronized void load() {
        if (source != null) {
            return;
        }
        try {
            loadFirstFound();
        } catch (IllegalCallerException e) {
            // JDK 24+ with --illegal-native-access=deny (JEP 472's announced default) refuses
            // System.load to code not granted native access. Left alone, the static
            // initializer that called load() would wrap it in ExceptionInInitializerError,
            // and nothing would name the flag that grants access.
            throw link(nativeAccessDenied(NativeLoader.class.getModule()), e);
        }
    }

    // The property's file, else the bundled library, else java.library.path (class comment).
    private static void loadFirstFound() {
        String override = System.getProperty(PROPERTY);
        if (override != null && !override.isBlank()) {
            Path path = Path.of(override).toAbsolutePath();
            try {
                System.load(path.toString());
            } catch (UnsatisfiedLinkError e) {
                throw link("cannot load " + path + " named by -D" + PROPERTY, e);
            }
            source = "property:" + path;
            return;
        }
        String resource = resourcePath();
        if (NativeLoader.class.getResource(resource) != null) {
            Path dir = tempDirectory(resource);
            try {
                String registry = "/native/" + platform() + "/" + REGISTRY;
                if (NativeLoader.class.getResource(registry) != null) {
                    extract(registry, dir.resolve(REGISTRY));
                }
                Path file = extract(resource, dir.resolve(System.mapLibraryName(LIBRARY)));
                try {
                    System.load(file.toString());
                } catch (UnsatisfiedLinkError e) {
                    throw link("cannot load the bundled " + resource + " extracted to " + dir
                            + " (if java.io.tmpdir is mounted noexec: set -Djava.io.tmpdir to a"
                            + " directory that allows exec, or -D" + PROPERTY + " to a copy of "
                            + System.mapLibraryName(LIBRARY) + " with " + REGISTRY
                            + " beside it)", e);
                }
            } finally {
                deleteQuietly(dir);
            }
            source = "jar:" + resource;
            return;
        }
        try {
            System.loadLibrary(LIBRARY);
        } catch (UnsatisfiedLinkError e) {
            String os = System.getProperty("os.name", "");
            String arch = System.getProperty("os.arch", "");
            throw link(noLibrary(os, arch, hostLibc(os, arch),
                    r -> NativeLoader.class.getResource(r) != null), e);
        }
        source = "java.library.path";
    }

    /**
     * The error when the JVM denies native access to {@code module}: the flag that grants it,
     * for the class path (ALL-UNNAMED) or the module path (the module's name).
     */
    static String nativeAccessDenied(Module module) {
        String target = module.isNamed() ? module.getName() : "ALL-UNNAMED";
        String denied = module.isNamed() ? "module " + target : "code on the class path";
        return "this JVM denies native access (JNI) to " + denied + ", and snowfleet's ids are"
                + " minted by a native library. Allow it: java --enable-native-access=" + target
                + " ... (or, for an executable jar, Enable-Native-Access: ALL-UNNAMED in its"
                + " manifest)";
    }

    /**
     * Refuses a native library from another release than this jar's: both carry the
     * repository's VERSION file (the jar as its manifest's Implementation-Version). Classes
     * run from a directory (no manifest) are not checked.
     *
     * @param nativeVersion the loaded library's snowfleet::version()
     * @throws UnsatisfiedLinkError naming both versions and how to pair them
     */
    public static void checkVersion(String nativeVersion) {
        String message = versionMismatch(
                NativeLoader.class.getPackage().getImplementationVersion(), nativeVersion, source());
        if (message != null) {
            throw new UnsatisfiedLinkError(message);
        }
    }

    /** The mismatch message for a jar and a library version, or null when they agree. */
    static String versionMismatch(String jarVersion, String nativeVersion, String source) {
        if (jarVersion == null || jarVersion.equals(nativeVersion)) {
            return null;
        }
        String fix = source != null && source.startsWith("jar:")
                ? "The jar was packed with another build's library: rebuild it (mvn package)"
                        + " or use a released dev.snowfleet:snowfleet:" + jarVersion
                : "Use the library the jar carries (drop -D" + PROPERTY + ", or point it at a "
                        + jarVersion + " build), or depend on dev.snowfleet:snowfleet:"
                        + nativeVersion;
        return "snowfleet: the snowfleet " + jarVersion + " jar loaded the native library "
                + nativeVersion + " (" + source + "): the two come from different releases. "
                + fix;
    }

    /**
     * Where the loaded library came from: "property:&lt;path&gt;", "jar:&lt;resource&gt;" or
     * "java.library.path"; null before {@link #load}.
     */
    public static synchronized String source() {
        return source;
    }

    /**
     * This JVM's platform: "linux-x86_64-gnu", "linux-aarch64-musl", "macos-aarch64", ...
     * (bindings/java/CMakeLists.txt names the build's library directory the same way).
     */
    public static synchronized String platform() {
        if (platform == null) {
            String os = System.getProperty("os.name", "");
            String arch = System.getProperty("os.arch", "");
            platform = platform(os, arch, hostLibc(os, arch));
        }
        return platform;
    }

    /**
     * The platform for these os.name and os.arch values and C library ("gnu" or "musl", read
     * on Linux only).
     */
    static String platform(String osName, String osArch, String libc) {
        String os = os(osName);
        return os.equals("linux") ? os + "-" + arch(osArch) + "-" + libc : os + "-" + arch(osArch);
    }

    private static String os(String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            return "linux";
        } else if (os.startsWith("mac") || os.startsWith("darwin")) {
            return "macos";
        } else if (os.startsWith("windows")) {
            return "windows";
        }
        return os.replaceAll("[^a-z0-9]+", "");
    }

    private static String arch(String osArch) {
        String arch = osArch.toLowerCase(Locale.ROOT);
        switch (arch) {
            case "amd64":
            case "x86_64":
                return "x86_64";
            case "aarch64":
            case "arm64":
                return "aarch64";
            default:
                return arch.replaceAll("[^a-z0-9_]+", "");
        }
    }

    /** The class-path resource the jar carries for this platform. */
    public static String resourcePath() {
        return resourcePath(platform());
    }

    static String resourcePath(String platform) {
        return "/native/" + platform + "/" + System.mapLibraryName(LIBRARY);
    }

    /**
     * The library to load for these os.name, os.arch and libc values, or null when the class
     * path carries none for them ({@code exists} says whether a resource is there).
     */
    static String select(String osName, String osArch, String libc, Predicate<String> exists) {
        String resource = resourcePath(platform(osName, osArch, libc));
        return exists.test(resource) ? resource : null;
    }

    /** The platforms, of the {@link #TARGETS} and {@code found}, whose library is there. */
    static List<String> carried(String found, Predicate<String> exists) {
        return Stream.concat(TARGETS.stream(), Stream.of(found))
                .distinct()
                .filter(p -> exists.test(resourcePath(p)))
                .collect(Collectors.toList());
    }

    /**
     * The error when no library fits these os.name, os.arch and libc values: the platform
     * found, the platforms the class path carries ({@code exists}), how to build one.
     */
    static String noLibrary(String osName, String osArch, String libc, Predicate<String> exists) {
        String found = platform(osName, osArch, libc);
        List<String> carried = carried(found, exists);
        String lib = System.mapLibraryName(LIBRARY);
        return "this jar carries no native library for " + found + " (os.name=" + osName
                + ", os.arch=" + osArch + (found.startsWith("linux-") ? ", libc=" + libc : "")
                + "); it carries " + (carried.isEmpty() ? "none" : String.join(", ", carried))
                + ", and " + lib + " is not on java.library.path. Build the library from source"
                + " on this machine (JDK 17+, Maven, CMake, SWIG, a C++17 compiler: run mvn -f"
                + " java/pom.xml package in the snowfleet repository, see java/README.md) and use"
                + " that jar, or point -D" + PROPERTY + " at a built " + lib;
    }

    /**
     * "gnu" or "musl" on Linux, "" elsewhere. Read from /proc/self/maps: the C library this
     * very JVM mapped, so a glibc machine that also has musl installed (Debian's musl package
     * puts /lib/ld-musl-x86_64.so.1 there) is not taken for musl, and no process is spawned
     * (ldd --version would be one). Without a readable /proc, the musl loader's presence
     * (/lib/ld-musl-ARCH.so.1, on every musl system) decides.
     */
    static String hostLibc(String osName, String osArch) {
        if (!os(osName).equals("linux")) {
            return "";
        }
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            String libc = libcFromMaps(maps);
            if (libc != null) {
                return libc;
            }
        } catch (IOException | UncheckedIOException | SecurityException e) {
            // no /proc: the loader's presence below
        }
        return Files.exists(Path.of("/lib/ld-musl-" + arch(osArch) + ".so.1")) ? "musl" : "gnu";
    }

    /** "musl" or "gnu" from the lines of a /proc/PID/maps, or null when neither libc is mapped. */
    static String libcFromMaps(Stream<String> lines) {
        String found = null;
        for (String line : (Iterable<String>) lines::iterator) {
            if (line.contains("/ld-musl-") || line.contains("/libc.musl-")) {
                return "musl";
            }
            if (line.contains("/libc.so.6") || line.contains("/libc-2.")) {
                found = "gnu";
            }
        }
        return found;
    }

    // A private directory per load: no other user can swap a file before it is loaded.
    private static Path tempDirectory(String resource) {
        try {
            // absolute: System.load refuses a relative path (a relative java.io.tmpdir)
            Path dir = Files.createTempDirectory("snowfleet-jni-").toAbsolutePath();
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw link("cannot extract " + resource + " to a temporary directory (set -D"
                    + PROPERTY + " to a copy on disk instead)", e);
        }
    }

    private static Path extract(String resource, Path file) {
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("resource " + resource + " vanished");
            }
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw link("cannot extract " + resource + " to " + file.getParent() + " (set -D"
                    + PROPERTY + " to a copy on disk instead)", e);
        }
    }

    // The mappings outlive the files on POSIX systems, so the copies go as soon as they are
    // loaded; elsewhere deleteOnExit (set above) removes them later.
    private static void deleteQuietly(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException | SecurityException ignored) {
            // deleteOnExit is still registered
        }
    }

    private static UnsatisfiedLinkError link(String message, Throwable cause) {
        UnsatisfiedLinkError e = new UnsatisfiedLinkError("snowfleet: " + message);
        e.initCause(cause);
        return e;
    }
}
