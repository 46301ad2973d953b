package dev.snowfleet.hibernate;

import dev.snowfleet.Uuid7Generator;
import java.lang.reflect.Member;
import java.util.List;
import java.util.UUID;
import org.hibernate.id.factory.spi.CustomIdGeneratorCreationContext;

/** Hibernate's side of {@link Uuid7Id}: the next UUIDv7 of the process's generator. */
public class Uuid7IdGenerator extends MintBeforeInsert<Uuid7Generator> {
    /** Called by Hibernate for each {@code @Uuid7Id} property; checks its type. */
    public Uuid7IdGenerator(Uuid7Id config, Member member, CustomIdGeneratorCreationContext context) {
        super("Uuid7Id", member, context, List.of(UUID.class), SnowfleetHibernate.UUID7_GENERATOR,
                Uuid7Generator.class);
    }

    @Override
    Uuid7Generator processGenerator() {
        return SnowfleetHibernate.uuids();
    }

    @Override
    Object mint() {
        return generator().nextUuid7();
    }
}
