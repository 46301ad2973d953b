package dev.snowfleet.internal;

import dev.snowfleet.Generator;

/** Run in a child JVM by NativeLoaderTest: mints one id and prints where the library came from. */
public final class LoaderProbe {
    private LoaderProbe() {}

    public static void main(String[] args) {
        try (Generator g = Generator.builder().nodeId(11).build()) {
            long id = g.nextId();
            System.out.println("source=" + NativeLoader.source());
            System.out.println("id=" + id);
        } catch (UnsatisfiedLinkError e) {
            System.out.println("error=" + e.getMessage());
            System.exit(3);
        }
    }
}
