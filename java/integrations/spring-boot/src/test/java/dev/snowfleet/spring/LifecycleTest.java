package dev.snowfleet.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.Generator;
import dev.snowfleet.GeneratorClosedException;
import dev.snowfleet.LeaseState;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Generator bean: made from snowfleet.* properties at start, closed at shutdown. */
class LifecycleTest {
    final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowfleetAutoConfiguration.class));

    @Test
    void aLeasedGeneratorIsClosedAndItsSlotReleasedAtShutdown() throws Exception {
        Path registry = Files.createTempDirectory("snowfleet-registry");
        Generator[] seen = new Generator[1];
        runner.withPropertyValues("snowfleet.node-source=local:" + registry, "snowfleet.mode=monotonic")
                .run(context -> {
                    Generator g = context.getBean(Generator.class);
                    seen[0] = g;
                    assertEquals(LeaseState.HELD, g.status().leaseState());
                    assertEquals("monotonic", g.mode().text());
                    g.nextId();
                });
        assertTrue(seen[0].isClosed());
        assertThrows(GeneratorClosedException.class, seen[0]::nextId);
        try (Generator again = Generator.builder().nodeSource("local:" + registry + "?node=" + seen[0].nodeId()).build()) {
            assertEquals(seen[0].nodeId(), again.nodeId());  // the slot was released
        }
    }

    @Test
    void aMissingNodeIsAStartupFailureNamingIt() {
        runner.run(context -> {
            assertTrue(context.getStartupFailure() != null);
            assertTrue(String.valueOf(context.getStartupFailure().getCause()).contains("node"),
                    String.valueOf(context.getStartupFailure()));
        });
    }

    /** Each bad value fails the start with a message naming the property, its value and the rule. */
    @Test
    void aBadPropertyIsAStartupFailureNamingItAndItsValue() {
        String[][] cases = {
            {"snowfleet.mode=sloppy", "snowfleet.mode", "sloppy"},
            {"snowfleet.layout=41.10.13", "snowfleet.layout", "41.10.13"},
            {"snowfleet.node-id=5000", "snowfleet.node-id", "5000"},
            {"snowfleet.max-wait-ms=-1", "snowfleet.max-wait-ms", "-1"},
            {"snowfleet.node-source=stattic:3", "snowfleet.node-source", "stattic:3"},
        };
        for (String[] c : cases) {
            runner.withPropertyValues(c[0], c[0].startsWith("snowfleet.node") ? "snowfleet.mode=strict" : "snowfleet.node-id=1")
                    .run(context -> {
                        Throwable failure = context.getStartupFailure();
                        assertTrue(failure != null, c[0]);
                        String all = "";
                        for (Throwable t = failure; t != null; t = t.getCause()) all += t.getMessage() + "\n";
                        assertTrue(all.contains(c[1] + "=" + c[2]) || all.contains(c[1] + " with value '" + c[2] + "'"),
                                c[0] + " -> " + all);
                    });
        }
    }
}
