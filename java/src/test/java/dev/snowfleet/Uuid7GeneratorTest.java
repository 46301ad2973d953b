package dev.snowfleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.testing.ScriptedClock;
import dev.snowfleet.testing.ScriptedRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Uuid7Generator and Uuid7 with Java's types, beyond the conformance vectors (uuid7.json). */
class Uuid7GeneratorTest {
    @Test
    void aScriptedClockAndRandomSourceGiveKnownUuids() {
        // uuid7.json's uuid7.frozen; the key is the source's first two words, then one per UUID
        ScriptedRandom random = new ScriptedRandom(1);
        try (Uuid7Generator gen = Uuid7Generator.builder().clock(new ScriptedClock(1764720000000L))
                .random(random).build()) {
            assertEquals(2, random.draws());
            assertEquals(UUID.fromString("019ae182-3c00-7486-9fd0-a2eefb32555e"), gen.nextUuid7());
            assertEquals(3, random.draws());
            Uuid7Fields f = Uuid7.decode(gen.nextUuid7());
            assertEquals(1764720000000L, f.timestampMs());
            assertEquals(18980817, f.counter());
            assertEquals("019ae182-3c00-7486-9fd1-8690ee42c90b", f.uuid().toString());
            assertEquals(1764720000000L, f.instant().toEpochMilli());
        }
    }

    @Test
    void anotherVersionIsRefusedNamingIt() {
        String v4 = "550e8400-e29b-41d4-a716-446655440000";
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Uuid7.decode(v4));
        assertTrue(e.getMessage().contains(v4) && e.getMessage().contains("version 4"), e.getMessage());
        e = assertThrows(InvalidArgumentException.class, () -> Uuid7.decode(UUID.fromString(v4)));
        assertTrue(e.getMessage().contains(v4), e.getMessage());
        e = assertThrows(InvalidArgumentException.class, () -> Uuid7.decode("not-a-uuid"));
        assertTrue(e.getMessage().contains("not-a-uuid"), e.getMessage());
    }

    @Test
    void optionsAreCheckedByTheCoreAndClosingStops() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> Uuid7Generator.builder().maxWaitMs(-1).build());
        assertTrue(e.getMessage().contains("max_wait_ms"), e.getMessage());
        Uuid7Generator gen = Uuid7Generator.builder().mode(Mode.MONOTONIC).maxDriftMs(50).build();
        assertEquals(Mode.MONOTONIC, gen.mode());
        assertEquals(50, gen.maxDriftMs());
        assertThrows(InvalidArgumentException.class, () -> gen.nextUuid7s(-1));
        assertEquals(0, gen.nextUuid7s(0).length);
        gen.close();
        assertTrue(gen.isClosed());
        assertThrows(GeneratorClosedException.class, gen::nextUuid7);
        assertThrows(GeneratorClosedException.class, () -> gen.nextUuid7s(-1));
    }
}
