package dev.snowfleet.hibernate;

import dev.snowfleet.Generator;
import java.lang.reflect.Member;
import java.util.List;
import org.hibernate.id.factory.spi.CustomIdGeneratorCreationContext;

/** Hibernate's side of {@link SnowflakeId}: the next id of the process's generator. */
public class SnowflakeIdGenerator extends MintBeforeInsert<Generator> {
    /** Called by Hibernate for each {@code @SnowflakeId} property; checks its type. */
    public SnowflakeIdGenerator(SnowflakeId config, Member member, CustomIdGeneratorCreationContext context) {
        super("SnowflakeId", member, context, List.of(Long.class, long.class), SnowfleetHibernate.GENERATOR,
                Generator.class);
    }

    @Override
    Generator processGenerator() {
        return SnowfleetHibernate.ids();
    }

    @Override
    Object mint() {
        return generator().nextId();
    }
}
