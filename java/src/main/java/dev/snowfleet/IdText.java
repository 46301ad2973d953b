package dev.snowfleet;

import dev.snowfleet.internal.jni.SnowfleetNative;
import java.util.Objects;

/**
 * An id's sortable text forms: Crockford base32 (13 characters, TSID's form: upper case out,
 * either case and the aliases I, L for 1 and O for 0 in) and base62 (11 characters of
 * {@code 0-9A-Za-z}). Both are fixed width, so byte order (a "C" collation) is numeric order.
 * A wrong length, a character outside the alphabet or a value above 2^63 - 1 throws
 * {@link InvalidArgumentException} quoting the text.
 */
public final class IdText {
    private IdText() {}

    /** The 13-character base32 form; a negative id throws InvalidArgumentException. */
    public static String formatBase32(long id) {
        return SnowfleetNative.formatIdAs(id, "base32");
    }

    /** Parses a base32 id (13 characters, at most 7ZZZZZZZZZZZZ). */
    public static long parseBase32(String text) {
        return SnowfleetNative.parseIdAs(Objects.requireNonNull(text, "text"), "base32");
    }

    /** The 11-character base62 form; a negative id throws InvalidArgumentException. */
    public static String formatBase62(long id) {
        return SnowfleetNative.formatIdAs(id, "base62");
    }

    /** Parses a base62 id (11 characters, at most AzL8n0Y58m7). */
    public static long parseBase62(String text) {
        return SnowfleetNative.parseIdAs(Objects.requireNonNull(text, "text"), "base62");
    }

    /**
     * Parses an id in whichever text form it is, as the CLI's {@code decode} does: digits only
     * are decimal whatever the length ({@code "8000000000000"} is 8 x 10^12), else 13
     * characters are base32 and 11 base62; anything else throws InvalidArgumentException.
     */
    public static long parse(String text) {
        return SnowfleetNative.parseIdAs(Objects.requireNonNull(text, "text"), "any");
    }
}
