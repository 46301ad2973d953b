package dev.snowfleet.hibernate;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.List;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.id.factory.spi.CustomIdGeneratorCreationContext;

/**
 * What both generators share: the property's type is checked when the session factory
 * starts, the generator is the one in the session factory's settings (else the process's,
 * {@link SnowfleetHibernate#use}), the id is minted before the insert, and an id the
 * application assigned is kept (a primitive key's 0 is "not assigned", as Hibernate reads it).
 */
abstract class MintBeforeInsert<G> implements BeforeExecutionGenerator {
    /** The session factory's generator, or null for the process's. */
    private final G configured;
    private final boolean primitive;

    MintBeforeInsert(String annotation, Member member, CustomIdGeneratorCreationContext context,
            List<Class<?>> types, String setting, Class<G> generatorType) {
        String where = "@" + annotation + " on " + member.getDeclaringClass().getName() + "." + member.getName();
        Class<?> type = context.getProperty().getType().getReturnedClass();
        if (!types.contains(type)) {
            throw new IllegalArgumentException(where + " needs a property of type "
                    + types.stream().map(Class::getName).toList() + ", not " + type.getName());
        }
        primitive = member instanceof Field f ? f.getType().isPrimitive()
                : member instanceof Method m && m.getReturnType().isPrimitive();
        Object given = context.getServiceRegistry().requireService(ConfigurationService.class).getSettings().get(setting);
        if (given != null && !generatorType.isInstance(given)) {
            throw new IllegalArgumentException(where + ": the setting " + setting + " must be a "
                    + generatorType.getName() + ", not " + given.getClass().getName());
        }
        configured = generatorType.cast(given);
    }

    /** The generator of this session factory. */
    final G generator() {
        return configured != null ? configured : processGenerator();
    }

    /** The process's generator, given to {@link SnowfleetHibernate#use}. */
    abstract G processGenerator();

    /** The next id. */
    abstract Object mint();

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
            EventType eventType) {
        boolean assigned = currentValue != null && !(primitive && ((Number) currentValue).longValue() == 0L);
        return assigned ? currentValue : mint();
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
