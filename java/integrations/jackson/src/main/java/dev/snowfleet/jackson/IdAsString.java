package dev.snowfleet.jackson;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Asks {@link SnowfleetModule} to write this {@code long}/{@code Long} (or {@code long[]},
 * {@code List<Long>}) property as decimal strings, and to read strings or numbers into it. A
 * property annotated with {@code dev.snowfleet.hibernate.SnowflakeId} is treated the same.
 */
@Retention(RUNTIME)
@Target({FIELD, METHOD, PARAMETER})
public @interface IdAsString {}
