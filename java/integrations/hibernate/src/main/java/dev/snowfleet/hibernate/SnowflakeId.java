package dev.snowfleet.hibernate;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;

/**
 * A {@code long}/{@code Long} identifier minted by the process's snowfleet {@code Generator}
 * ({@link SnowfleetHibernate#use}) before the insert, so the entity has its id before the
 * SQL runs and no sequence or identity column is involved:
 *
 * <pre>{@code
 * @Entity
 * class Order {
 *     @Id @SnowflakeId Long id;
 * }
 * }</pre>
 *
 * An id set by the application before {@code persist} is kept.
 */
@IdGeneratorType(SnowflakeIdGenerator.class)
@Retention(RUNTIME)
@Target({FIELD, METHOD})
public @interface SnowflakeId {}
