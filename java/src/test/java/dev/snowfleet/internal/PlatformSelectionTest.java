package dev.snowfleet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Which library the loader picks for an os.name, os.arch and libc, given what the jar holds. */
class PlatformSelectionTest {
    /** The class path of a released jar: the library of every target. */
    static final Predicate<String> RELEASED = holding(NativeLoader.TARGETS.toArray(new String[0]));

    static Predicate<String> holding(String... platforms) {
        Set<String> resources =
                Stream.of(platforms).map(NativeLoader::resourcePath).collect(Collectors.toSet());
        return resources::contains;
    }

    /** What a Linux JVM with this os.arch and libc loads from {@code jar}. */
    static String linux(String arch, String libc, Predicate<String> jar) {
        return NativeLoader.select("Linux", arch, libc, jar);
    }

    static String lib(String platform) {
        return "/native/" + platform + "/libsnowfleet_jni.so";
    }

    @Test
    void everyTargetIsPickedByOsArchAndLibc() {
        // os.arch as HotSpot reports it on each (amd64, aarch64) and as other JVMs spell it
        assertEquals(lib("linux-x86_64-gnu"), linux("amd64", "gnu", RELEASED));
        assertEquals(lib("linux-x86_64-gnu"), linux("x86_64", "gnu", RELEASED));
        assertEquals(lib("linux-x86_64-musl"), linux("amd64", "musl", RELEASED));
        assertEquals(lib("linux-aarch64-gnu"), linux("aarch64", "gnu", RELEASED));
        assertEquals(lib("linux-aarch64-gnu"), linux("arm64", "gnu", RELEASED));
        assertEquals(lib("linux-aarch64-musl"), linux("aarch64", "musl", RELEASED));
    }

    @Test
    void aLibraryForTheOtherLibcIsNotPicked() {
        // a glibc library on Alpine would fail in the dynamic linker, far from the cause
        assertNull(linux("amd64", "musl", holding("linux-x86_64-gnu")));
        assertNull(linux("aarch64", "gnu", holding("linux-aarch64-musl")));
        assertNull(linux("aarch64", "gnu", holding("linux-x86_64-gnu")));
    }

    @Test
    void anUnsupportedPlatformGetsNoneAndAnErrorNamingItTheJarsAndTheBuild() {
        assertNull(linux("ppc64le", "gnu", RELEASED));
        String m = NativeLoader.noLibrary("Linux", "ppc64le", "gnu", RELEASED);
        assertTrue(m.contains("no native library for linux-ppc64le-gnu"), m);
        assertTrue(m.contains("os.name=Linux, os.arch=ppc64le, libc=gnu"), m);
        assertTrue(m.contains("it carries linux-x86_64-gnu, linux-x86_64-musl, linux-aarch64-gnu,"
                + " linux-aarch64-musl,"), m);
        assertTrue(m.contains("mvn -f java/pom.xml package"), m);
        assertTrue(m.contains("-D" + NativeLoader.PROPERTY), m);

        assertNull(NativeLoader.select("Mac OS X", "aarch64", "", RELEASED));
        m = NativeLoader.noLibrary("Mac OS X", "aarch64", "", RELEASED);
        assertTrue(m.contains("for macos-aarch64 (os.name=Mac OS X, os.arch=aarch64)"), m);
    }

    @Test
    void theErrorListsOnlyWhatTheJarHolds() {
        // a jar built from source on one machine carries that machine's platform only
        String m = NativeLoader.noLibrary("Linux", "amd64", "musl", holding("linux-x86_64-gnu"));
        assertTrue(m.contains("; it carries linux-x86_64-gnu, and"), m);
        m = NativeLoader.noLibrary("Linux", "amd64", "musl", r -> false);
        assertTrue(m.contains("; it carries none, and"), m);
    }

    @Test
    void theLibcIsReadFromTheLibrariesTheJvmMapped() {
        String musl = "7f1c2a000000-7f1c2a014000 r--p 00000000 08:01 1234"
                + " /lib/ld-musl-x86_64.so.1\n"
                + "7f1c2b000000-7f1c2b200000 r-xp 00000000 08:01 99"
                + " /usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so";
        String glibc = "7f3e5c000000-7f3e5c028000 r--p 00000000 08:01 5678"
                + " /usr/lib/x86_64-linux-gnu/libc.so.6\n"
                + "7f3e5d000000-7f3e5d02b000 r--p 00000000 08:01 5679"
                + " /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
        String centos7 = "7f3e5c000000-7f3e5c1c4000 r-xp 00000000 fd:00 1 /usr/lib64/libc-2.17.so";
        assertEquals("musl", NativeLoader.libcFromMaps(musl.lines()));
        assertEquals("gnu", NativeLoader.libcFromMaps(glibc.lines()));
        assertEquals("gnu", NativeLoader.libcFromMaps(centos7.lines()));
        String none = "00400000-0040b000 r-xp 00000000 08:01 1 /app/static";
        assertNull(NativeLoader.libcFromMaps(Stream.of(none)));
        assertEquals("", NativeLoader.hostLibc("Mac OS X", "aarch64"));
    }

    @Test
    void thisJvmsPlatformIsOneTheBuildNamesItsLibraryFor() {
        // CMake names the build's directory from the compiler's macros, the loader from the
        // running JVM: the library this build made must be where the loader looks.
        List<String> carried = NativeLoader.carried(NativeLoader.platform(),
                r -> NativeLoader.class.getResource(r) != null);
        assertEquals(List.of(NativeLoader.platform()), carried);
    }
}
