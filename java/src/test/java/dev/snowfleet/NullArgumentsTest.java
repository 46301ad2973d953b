package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** A null object argument is Java's NullPointerException naming the parameter, before any native call. */
class NullArgumentsTest {
    private static void named(String parameter, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertEquals(parameter, e.getMessage());
    }

    @Test
    void textFunctionsNameTheirText() {
        named("text", () -> IdText.parseBase32(null));
        named("text", () -> IdText.parseBase62(null));
        named("text", () -> IdText.parse(null));
        named("text", () -> Snowfleet.parseId(null));
        named("text", () -> Snowfleet.parseTime(null));
        named("text", () -> Uuid7.decode((String) null));
        named("uuid", () -> Uuid7.decode((UUID) null));
        named("text", () -> Layout.parse(null));
        named("text", () -> Mode.parse(null));
    }

    @Test
    void layoutsAndTimesAreNamed() {
        Instant t = Instant.ofEpochMilli(1737747358021L);
        named("layout", () -> Snowfleet.decode(1L, null));
        named("id", () -> Snowfleet.decode((String) null, Layout.DEFAULT));
        named("layout", () -> Snowfleet.decode("1", null));
        named("layout", () -> Snowfleet.compose(null, 1737747358021L, 1L, 0L));
        named("node", () -> Snowfleet.compose(Layout.DEFAULT, 1737747358021L, (NodeArgs) null));
        named("layout", () -> IdRange.ofMs(1L, 2L, 0L, null));
        named("layout", () -> IdRange.of(t, t, 0L, null));
        named("start", () -> IdRange.of(null, t));
        named("layout", () -> IdRange.minIdMs(1L, null));
        named("layout", () -> IdRange.maxIdMs(1L, null));
        named("end", () -> IdRange.of(t, null));
        named("time", () -> IdRange.minId(null));
        named("time", () -> IdRange.maxId(null, Layout.DEFAULT));
    }

    @Test
    void theAnyFormReaderFollowsDecodesRule() {
        assertEquals(8000000000000L, IdText.parse("8000000000000"));
        assertEquals(141264821508263936L, IdText.parse("03xezkd8m4m00"));
        assertThrows(InvalidArgumentException.class, () -> IdText.parseBase32("8000000000000"));
    }
}
