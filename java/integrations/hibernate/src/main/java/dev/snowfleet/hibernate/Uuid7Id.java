package dev.snowfleet.hibernate;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;

/**
 * A {@link java.util.UUID} identifier: an RFC 9562 version 7 UUID from the process's
 * snowfleet {@code Uuid7Generator} ({@link SnowfleetHibernate#use}), minted before the
 * insert. An id set by the application before {@code persist} is kept.
 */
@IdGeneratorType(Uuid7IdGenerator.class)
@Retention(RUNTIME)
@Target({FIELD, METHOD})
public @interface Uuid7Id {}
