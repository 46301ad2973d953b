package dev.snowfleet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.snowfleet.IdRange;
import dev.snowfleet.IdText;
import dev.snowfleet.Layout;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;

/** Runs the cases of text.json (base32 / base62) and range.json (minId / maxId / IdRange). */
final class TextRangeVectors {
    private TextRangeVectors() {}

    static void runText(JsonNode c) throws Throwable {
        JsonNode expect = c.get("expect");
        String what = c.path("id").asText() + " (" + c.path("source").asText() + ")";
        String encoding = c.get("encoding").asText();
        boolean base32 = encoding.equals("base32");
        String op = c.path("op").asText();
        Map<String, Object> actual = new HashMap<>();
        Executable body;
        switch (op) {
            case "parse":
                body = () -> {
                    String text = c.get("text").asText();
                    actual.put("id", encoding.equals("any") ? IdText.parse(text)
                            : base32 ? IdText.parseBase32(text) : IdText.parseBase62(text));
                };
                break;
            case "format":
            case "round_trip":
                body = () -> {
                    long value = Long.parseLong(c.get("value").asText());
                    String text = base32 ? IdText.formatBase32(value) : IdText.formatBase62(value);
                    actual.put("text", text);
                    if (op.equals("round_trip")) {
                        assertEquals(value, base32 ? IdText.parseBase32(text) : IdText.parseBase62(text), what);
                    }
                };
                break;
            default:
                body = () -> fail("unknown text op '" + op + "'");
        }
        finish(what, expect, body, actual);
    }

    static void runRange(JsonNode c) throws Throwable {
        JsonNode expect = c.get("expect");
        String what = c.path("id").asText() + " (" + c.path("source").asText() + ")";
        String op = c.path("op").asText();
        Map<String, Object> actual = new HashMap<>();
        Executable body;
        switch (op) {
            case "min_id":
            case "max_id":
                body = () -> {
                    Layout l = Layout.parse(c.get("layout").asText());
                    long ms = Long.parseLong(c.get("timestamp_ms").asText());
                    actual.put("id", op.equals("min_id") ? IdRange.minIdMs(ms, l) : IdRange.maxIdMs(ms, l));
                };
                break;
            case "id_range":
                body = () -> {
                    long slack = c.has("slack_ms") ? Long.parseLong(c.get("slack_ms").asText()) : 0;
                    IdRange r = IdRange.ofMs(Long.parseLong(c.get("start_ms").asText()),
                            Long.parseLong(c.get("end_ms").asText()), slack, Layout.parse(c.get("layout").asText()));
                    actual.put("first", r.first());
                    actual.put("last", r.last());
                };
                break;
            default:
                body = () -> fail("unknown range op '" + op + "'");
        }
        finish(what, expect, body, actual);
    }

    private static void finish(String what, JsonNode expect, Executable body, Map<String, Object> actual)
            throws Throwable {
        if (ConformanceTest.isError(expect)) {
            ConformanceTest.expectError(what, expect, body);
        } else {
            body.execute();
            ConformanceTest.assertSubset(what, expect, actual);
        }
    }
}
