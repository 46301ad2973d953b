package dev.snowfleet.hibernate;

import java.lang.reflect.Member;
import java.util.List;
import org.hibernate.id.factory.spi.CustomIdGeneratorCreationContext;

/** Hibernate's side of {@link SnowflakeId}: the next id of the process's generator. */
public class SnowflakeIdGenerator extends MintBeforeInsert {
    /** Called by Hibernate for each {@code @SnowflakeId} property; checks its type. */
    public SnowflakeIdGenerator(SnowflakeId config, Member member, CustomIdGeneratorCreationContext context) {
        super("SnowflakeId", member, context, List.of(Long.class, long.class));
    }

    @Override
    Object mint() {
        return SnowfleetHibernate.ids().nextId();
    }
}
