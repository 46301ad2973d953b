package dev.snowfleet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.snowfleet.Mode;
import dev.snowfleet.Uuid7;
import dev.snowfleet.Uuid7Fields;
import dev.snowfleet.Uuid7Generator;
import dev.snowfleet.testing.ScriptedRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.function.ThrowingSupplier;

/**
 * Runs the cases of uuid7.json: generators on a scripted clock and a scripted random source
 * (exact UUIDs), and decoding of UUID text.
 */
final class Uuid7Vectors {
    private Uuid7Vectors() {}

    static void run(JsonNode c) throws Throwable {
        String what = c.path("id").asText() + " (" + c.path("source").asText() + ")";
        switch (c.path("op").asText()) {
            case "decode":
                decode(what, c);
                break;
            case "generate":
                generate(what, c);
                break;
            default:
                fail(what + ": unknown uuid7 op '" + c.path("op").asText() + "'");
        }
    }

    private static void decode(String what, JsonNode c) throws Throwable {
        JsonNode expect = c.get("expect");
        String text = c.get("text").asText();
        if (ConformanceTest.isError(expect)) {
            ConformanceTest.expectError(what, expect, () -> Uuid7.decode(text));
            return;
        }
        Uuid7Fields f = Uuid7.decode(text);
        Map<String, Object> actual = new HashMap<>();
        actual.put("timestamp_ms", f.timestampMs());
        actual.put("counter", f.counter());
        actual.put("random", f.random());
        actual.put("canonical", f.uuid().toString());
        ConformanceTest.assertSubset(what, expect, actual);
    }

    private static void generate(String what, JsonNode c) throws Throwable {
        try (Uuid7Generator gen = Uuid7Generator.builder()
                .mode(Mode.parse(c.get("mode").asText()))
                .maxWaitMs(c.get("max_wait_ms").asDouble())
                .clock(ConformanceTest.clockOf(c.get("clock")))
                .random(new ScriptedRandom(Long.parseUnsignedLong(c.get("seed").asText())))
                .build()) {
            int i = 0;
            for (JsonNode step : c.get("steps")) {
                String where = what + " step " + i++;
                JsonNode expect = step.get("expect");
                ThrowingSupplier<UUID[]> call;
                switch (step.path("op").asText()) {
                    case "next":
                        call = () -> new UUID[] {gen.nextUuid7()};
                        break;
                    case "next_batch":
                        call = () -> gen.nextUuid7s(step.get("n").asInt());
                        break;
                    default:
                        fail(where + ": unknown step op '" + step.path("op").asText() + "'");
                        return;
                }
                if (ConformanceTest.isError(expect)) {
                    ConformanceTest.expectError(where, expect, call::get);
                    continue;
                }
                List<String> got = new ArrayList<>();
                for (UUID u : call.get()) {
                    got.add(u.toString());
                }
                if (expect.has("uuids")) {
                    List<String> want = new ArrayList<>();
                    expect.get("uuids").forEach(u -> want.add(u.asText()));
                    assertEquals(want, got, where);
                } else {
                    assertEquals(Arrays.asList(expect.get("count").asInt(), expect.get("first").asText(),
                                    expect.get("last").asText()),
                            Arrays.asList(got.size(), got.get(0), got.get(got.size() - 1)), where);
                }
            }
        }
    }
}
