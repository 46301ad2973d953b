package dev.snowfleet.hibernate;

import dev.snowfleet.Generator;
import dev.snowfleet.Uuid7Generator;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The generators behind {@link SnowflakeId} and {@link Uuid7Id}: a session factory's own,
 * given in its settings ({@link #GENERATOR}, {@link #UUID7_GENERATOR}: the Spring Boot
 * auto-configuration puts its beans there, so each application context mints with its own),
 * else the process's, given at start and cleared at shutdown:
 *
 * <pre>{@code
 * Generator ids = Generator.builder().nodeSource("local").build();
 * settings.put(SnowfleetHibernate.GENERATOR, ids);   // this session factory's, or
 * SnowfleetHibernate.use(ids);                       // the process's, before the first insert
 * ...
 * SnowfleetHibernate.clear(ids);                     // at shutdown, then ids.close()
 * }</pre>
 */
public final class SnowfleetHibernate {
    /** The session factory setting holding its {@code Generator} (an object, not text). */
    public static final String GENERATOR = "dev.snowfleet.hibernate.generator";
    /** The session factory setting holding its {@code Uuid7Generator}. */
    public static final String UUID7_GENERATOR = "dev.snowfleet.hibernate.uuid7_generator";

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
