package dev.snowfleet.hibernate;

import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.List;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.id.factory.spi.CustomIdGeneratorCreationContext;

/**
 * What both generators share: the property's type is checked when the session factory
 * starts, the id is minted before the insert, and an id the application assigned is kept.
 */
abstract class MintBeforeInsert implements BeforeExecutionGenerator {
    MintBeforeInsert(String annotation, Member member, CustomIdGeneratorCreationContext context,
            List<Class<?>> types) {
        Class<?> type = context.getProperty().getType().getReturnedClass();
        if (!types.contains(type)) {
            throw new IllegalArgumentException("@" + annotation + " on " + member.getDeclaringClass().getName()
                    + "." + member.getName() + " needs a property of type "
                    + types.stream().map(Class::getName).toList() + ", not " + type.getName());
        }
    }

    /** The next id. */
    abstract Object mint();

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
            EventType eventType) {
        return currentValue != null ? currentValue : mint();
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
