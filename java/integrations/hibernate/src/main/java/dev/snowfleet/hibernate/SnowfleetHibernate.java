package dev.snowfleet.hibernate;

import dev.snowfleet.Generator;
import dev.snowfleet.Uuid7Generator;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The generators behind {@link SnowflakeId} and {@link Uuid7Id}: one per process, given at
 * start (the Spring Boot auto-configuration does it with its bean) and cleared at shutdown.
 *
 * <pre>{@code
 * Generator ids = Generator.builder().nodeSource("local").build();
 * SnowfleetHibernate.use(ids);      // before the first insert
 * ...
 * SnowfleetHibernate.clear(ids);    // at shutdown, then ids.close()
 * }</pre>
 */
public final class SnowfleetHibernate {
    private static final AtomicReference<Generator> IDS = new AtomicReference<>();
    private static final AtomicReference<Uuid7Generator> UUIDS = new AtomicReference<>();

    private SnowfleetHibernate() {}

    /** Makes {@code generator} the one {@link SnowflakeId} fields draw from. */
    public static void use(Generator generator) {
        IDS.set(generator);
    }

    /** Makes {@code generator} the one {@link Uuid7Id} fields draw from. */
    public static void use(Uuid7Generator generator) {
        UUIDS.set(generator);
    }

    /** Forgets {@code generator} if it is the current one (an application closing it). */
    public static void clear(Generator generator) {
        IDS.compareAndSet(generator, null);
    }

    /** Forgets {@code generator} if it is the current one. */
    public static void clear(Uuid7Generator generator) {
        UUIDS.compareAndSet(generator, null);
    }

    static Generator ids() {
        Generator g = IDS.get();
        if (g == null) {
            throw new IllegalStateException("no snowfleet Generator for @SnowflakeId: call "
                    + "SnowfleetHibernate.use(generator) at start (the Spring Boot starter does)");
        }
        return g;
    }

    static Uuid7Generator uuids() {
        Uuid7Generator g = UUIDS.get();
        if (g == null) {
            throw new IllegalStateException("no snowfleet Uuid7Generator for @Uuid7Id: call "
                    + "SnowfleetHibernate.use(uuid7Generator) at start (the Spring Boot starter does)");
        }
        return g;
    }
}
