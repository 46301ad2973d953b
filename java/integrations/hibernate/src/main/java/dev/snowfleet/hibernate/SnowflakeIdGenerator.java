package dev.snowfleet.hibernate;

import java.lang.reflect.Member;
import java.util.EnumSet;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.id.factory.spi.CustomIdGeneratorCreationContext;

/** Hibernate's side of {@link SnowflakeId}: the next id of the process's generator. */
public class SnowflakeIdGenerator implements BeforeExecutionGenerator {
    /** Called by Hibernate for each {@code @SnowflakeId} property; checks its type. */
    public SnowflakeIdGenerator(SnowflakeId config, Member member, CustomIdGeneratorCreationContext context) {
        Class<?> type = context.getProperty().getType().getReturnedClass();
        if (type != Long.class && type != long.class) {
            throw new IllegalArgumentException("@SnowflakeId on " + member.getDeclaringClass().getName()
                    + "." + member.getName() + " needs a long or Long property, not " + type.getName());
        }
    }

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
            EventType eventType) {
        return currentValue != null ? currentValue : SnowfleetHibernate.ids().nextId();
    }

    @Override
    public boolean allowAssignedIdentifiers() {
        return true;
    }

    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }
}
