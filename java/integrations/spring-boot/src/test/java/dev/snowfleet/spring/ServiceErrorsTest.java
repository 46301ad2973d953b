package dev.snowfleet.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.snowfleet.ClockMovedBackwardsException;
import dev.snowfleet.Generator;
import dev.snowfleet.spring.app.ServiceErrors;
import dev.snowfleet.testing.ScriptedClock;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

/** docs/web-services.md's ServiceErrors: a clock rewind is a 503 with Retry-After. */
class ServiceErrorsTest {
    @Test
    void aRewindIsA503WithRetryAfterTheDrift() {
        ScriptedClock clock = ScriptedClock.of(ScriptedClock.Segment.of(1737747359000L),
                ScriptedClock.Segment.of(1737747356600L));  // then 2.4 s back, frozen
        try (Generator ids = Generator.builder().nodeId(3).clock(clock).maxWaitMs(0).build()) {
            ids.nextId();
            ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextId);
            ResponseEntity<String> answer = new ServiceErrors().clockBehind(e);
            assertEquals(503, answer.getStatusCode().value());
            assertEquals("3", answer.getHeaders().getFirst("Retry-After"));
        }
    }
}
