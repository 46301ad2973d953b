package dev.snowfleet.hibernate;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.junit.jupiter.api.Test;

/** A generator on a property of the wrong type fails the session factory, naming it. */
class PropertyTypeTest {
    @Entity
    static class TextKeyed {
        @Id @SnowflakeId String id;
    }

    @Entity
    static class LongKeyedUuid {
        @Id @Uuid7Id Long id;
    }

    static void refused(Class<?> entity, String expected) {
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting("hibernate.dialect", "org.hibernate.dialect.PostgreSQLDialect")
                .applySetting("hibernate.boot.allow_jdbc_metadata_access", "false")
                .build();
        try {
            Throwable e = assertThrows(RuntimeException.class,
                    () -> new MetadataSources(registry).addAnnotatedClass(entity).buildMetadata().buildSessionFactory());
            String all = "";
            for (Throwable t = e; t != null; t = t.getCause()) all += t.getMessage() + "\n";
            assertTrue(all.contains(expected), all);
        } finally {
            StandardServiceRegistryBuilder.destroy(registry);
        }
    }

    @Test
    void snowflakeIdNeedsALong() {
        refused(TextKeyed.class, "@SnowflakeId on dev.snowfleet.hibernate.PropertyTypeTest$TextKeyed.id needs a property of type [java.lang.Long, long], not java.lang.String");
    }

    @Test
    void uuid7IdNeedsAUuid() {
        refused(LongKeyedUuid.class, "@Uuid7Id on dev.snowfleet.hibernate.PropertyTypeTest$LongKeyedUuid.id needs a property of type [java.util.UUID], not java.lang.Long");
    }
}
