package dev.snowfleet.hibernate;

import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.UUID;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.id.factory.spi.CustomIdGeneratorCreationContext;

/** Hibernate's side of {@link Uuid7Id}: the next UUIDv7 of the process's generator. */
public class Uuid7IdGenerator implements BeforeExecutionGenerator {
    /** Called by Hibernate for each {@code @Uuid7Id} property; checks its type. */
    public Uuid7IdGenerator(Uuid7Id config, Member member, CustomIdGeneratorCreationContext context) {
        Class<?> type = context.getProperty().getType().getReturnedClass();
        if (type != UUID.class) {
            throw new IllegalArgumentException("@Uuid7Id on " + member.getDeclaringClass().getName()
                    + "." + member.getName() + " needs a java.util.UUID property, not " + type.getName());
        }
    }

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
            EventType eventType) {
        return currentValue != null ? currentValue : SnowfleetHibernate.uuids().nextUuid7();
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
