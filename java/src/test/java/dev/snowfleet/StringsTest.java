package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.internal.jnitest.SnowfleetTestNative;
import org.junit.jupiter.api.Test;

/**
 * Strings cross JNI as UTF-8 bytes encoded and decoded by Java's charset. JNI's own
 * GetStringUTFChars / NewStringUTF speak modified UTF-8, where NUL is C0 80 and a
 * supplementary character is two 3-byte surrogates (CESU-8): the core would see other bytes
 * than the user's text, and quote them back wrongly. These tests pin the real UTF-8.
 */
class StringsTest {
    static final String NUL_AND_EMOJI = "a\u0000b\uD83D\uDE00\u00e9";

    @Test
    void theCoreReceivesRealUtf8() {
        // NUL is 00 (modified UTF-8: c0 80); U+1F600 is f0 9f 98 80 (modified: ed a0 bd ed b8 80).
        assertEquals("6100" + "62" + "f09f9880" + "c3a9", SnowfleetTestNative.utf8HexForTest(NUL_AND_EMOJI));
    }

    @Test
    void aStringRoundTripsUnchanged() {
        assertEquals(NUL_AND_EMOJI, SnowfleetTestNative.echoText(NUL_AND_EMOJI));
        assertEquals("", SnowfleetTestNative.echoText(""));
    }

    @Test
    void messagesQuoteTheUsersTextExactly() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> Layout.parse("41.10.12@\uD83D\uDE00"));
        assertTrue(e.getMessage().contains("'41.10.12@\uD83D\uDE00'"), e.getMessage());
        InvalidArgumentException nul = assertThrows(InvalidArgumentException.class,
                () -> Snowfleet.decode("12\u00003"));
        assertTrue(nul.getMessage().contains("'12\\x003'"), nul.getMessage());
    }

    @Test
    void aNullStringIsJavasNullPointerException() {
        assertThrows(NullPointerException.class, () -> Layout.parse(null));
        assertThrows(NullPointerException.class, () -> Snowfleet.decode((String) null));
    }
}
