package dev.snowfleet.conformance;

import static dev.snowfleet.conformance.ConformanceTest.expectError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.snowfleet.Decoded;
import dev.snowfleet.Generator;
import dev.snowfleet.Layout;
import dev.snowfleet.Mode;
import dev.snowfleet.NodeArgs;
import dev.snowfleet.Snowfleet;
import dev.snowfleet.Stats;
import dev.snowfleet.Status;
import dev.snowfleet.Uuid7Generator;
import dev.snowfleet.testing.ScriptedClock;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.function.Executable;

/**
 * The Java runner of conformance/vectors/arguments.json (kind "arguments", format in
 * conformance/README.md): every case through the public API, as a Java user would write the
 * call. Java is statically typed, so it skips exactly what the README allows: a case
 * expecting the host's type error ("TYPE": such a call does not compile) and an integer no
 * {@code long} holds. Skipped cases are reported as skipped (JUnit assumptions), never passed.
 * Names are camelCase in Java (node_id -> nodeId).
 */
final class ArgumentVectors {
    static final long FROZEN_MS = 1737747358021L;
    private static final Set<String> GENERATOR_ARGS = Set.of("layout", "node_id", "datacenter_id",
            "machine_id", "node_source", "mode", "max_wait_ms", "max_drift_ms");
    private static final Set<String> LAYOUT_ARGS = Set.of("epoch_ms", "timestamp_bits", "node_bits",
            "datacenter_bits", "machine_bits", "sequence_bits");

    private ArgumentVectors() {}

    /** An argument value Java cannot pass: the case is skipped (only for the README's reasons). */
    private static final class Inexpressible extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Inexpressible(String why) {
            super(why, null, false, false);
        }
    }

    static long asLong(JsonNode v) {
        if (!v.has("int")) {
            throw new AssertionError("a long argument needs {\"int\": ...} outside TYPE cases, got " + v);
        }
        try {
            return Long.parseLong(v.get("int").asText());
        } catch (NumberFormatException e) {
            throw new Inexpressible("integer " + v.get("int").asText() + " does not fit a long");
        }
    }

    static double asDouble(JsonNode v) {
        return v.has("float") ? v.get("float").asDouble() : asLong(v);
    }

    static String asText(JsonNode v) {
        if (!v.has("text")) {
            throw new AssertionError("a String argument needs {\"text\": ...} outside TYPE cases, got " + v);
        }
        return v.get("text").asText();
    }

    static void run(JsonNode c) throws Throwable {
        JsonNode expect = c.get("expect");
        Assumptions.assumeFalse("TYPE".equals(expect.path("error").asText()),
                "a value of the wrong host type does not compile in Java");
        try {
            dispatch(c);
        } catch (Inexpressible e) {
            Assumptions.abort(e.getMessage());
        }
    }

    private static void dispatch(JsonNode c) throws Throwable {
        switch (c.path("op").asText()) {
            case "generator" -> generator(c);
            case "next_ids", "next_id", "status", "close" -> onBatchGenerator(c);
            case "decode" -> decode(c);
            case "compose" -> compose(c);
            case "layout_create" -> layoutCreate(c);
            case "fields" -> fields(c);
            default -> fail("unknown arguments op '" + c.path("op").asText() + "'");
        }
    }

    /** Runs body against expect: an error, or (on success) check(result). */
    private static <T> void outcome(JsonNode c, ThrowingSupplier<T> body, ThrowingConsumer<T> check)
            throws Throwable {
        String what = c.path("id").asText();
        JsonNode expect = c.get("expect");
        if (expect.has("error")) {
            // Callers convert values before: an inexpressible one skips rather than fails.
            Executable call = body::get;
            expectError(what, expect, call);
            return;
        }
        check.accept(body.get());
    }

    interface ThrowingSupplier<T> {
        T get() throws Throwable;
    }

    interface ThrowingConsumer<T> {
        void accept(T t) throws Throwable;
    }

    // ---- generator options -------------------------------------------------------------

    /** A generator case's arguments as Java values (converted before the checked call). */
    private record GeneratorArgs(Long nodeId, Long dc, Long machine, Long drift, Double maxWait,
            String layout, String mode, String source) {
        static GeneratorArgs of(JsonNode args) {
            for (var it = args.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                assertTrue(GENERATOR_ARGS.contains(k), "unknown generator argument " + k);
            }
            return new GeneratorArgs(
                    args.has("node_id") ? asLong(args.get("node_id")) : null,
                    args.has("datacenter_id") ? asLong(args.get("datacenter_id")) : null,
                    args.has("machine_id") ? asLong(args.get("machine_id")) : null,
                    args.has("max_drift_ms") ? asLong(args.get("max_drift_ms")) : null,
                    args.has("max_wait_ms") ? asDouble(args.get("max_wait_ms")) : null,
                    args.has("layout") ? asText(args.get("layout")) : null,
                    args.has("mode") ? asText(args.get("mode")) : null,
                    args.has("node_source") ? asText(args.get("node_source")) : null);
        }

        /** The builder a user would write; layout text and mode name are parsed here. */
        Generator.Builder builder(ScriptedClock clock) {
            Generator.Builder b = Generator.builder().clock(clock);
            if (layout != null) {
                b.layout(Layout.parse(layout));
            }
            if (nodeId != null) {
                b.nodeId(nodeId);
            }
            if (dc != null) {
                b.datacenterId(dc);
            }
            if (machine != null) {
                b.machineId(machine);
            }
            if (source != null) {
                b.nodeSource(source);
            }
            if (mode != null) {
                b.mode(Mode.parse(mode));
            }
            if (maxWait != null) {
                b.maxWaitMs(maxWait);
            }
            if (drift != null) {
                b.maxDriftMs(drift);
            }
            return b;
        }
    }

    static void generator(JsonNode c) throws Throwable {
        GeneratorArgs args = GeneratorArgs.of(c.get("args"));
        ScriptedClock clock = new ScriptedClock(FROZEN_MS);
        List<Generator> made = new ArrayList<>();
        try {
            // The layout text and the mode name are parsed inside the checked call, as the
            // C++ runner does: a bad one is this case's error.
            outcome(c, () -> {
                Generator g = args.builder(clock).build();
                made.add(g);
                return g;
            }, g -> {
                JsonNode e = c.get("expect");
                String what = c.path("id").asText();
                assertEquals(e.get("node_id").asLong(), g.nodeId(), what + ": nodeId");
                assertEquals(e.get("layout").asText(), g.layout().toString(), what + ": layout");
                assertEquals(e.get("mode").asText(), g.mode().text(), what + ": mode");
                assertEquals(e.get("max_wait_ms").asDouble(), g.maxWaitMs(), what + ": maxWaitMs");
                assertEquals(e.get("max_drift_ms").asLong(), g.maxDriftMs(), what + ": maxDriftMs");
            });
        } finally {
            made.forEach(Generator::close);
        }
    }

    // ---- calls on a generator ------------------------------------------------------------

    static void onBatchGenerator(JsonNode c) throws Throwable {
        String op = c.path("op").asText();
        String what = c.path("id").asText();
        JsonNode expect = c.get("expect");
        Integer n = null;
        if (op.equals("next_ids")) {
            // nextIds takes an int (a Java array's length); no vector asks for more.
            n = Math.toIntExact(asLong(c.get("args").get("n")));
        }
        try (Generator g = Generator.builder().nodeId(9).clock(new ScriptedClock(FROZEN_MS)).build()) {
            long before = g.nextId();
            if (c.path("closed").asBoolean(false)) {
                g.close();
            }
            long issued = g.stats().idsIssued();
            switch (op) {
                case "status" -> {
                    Status s = g.status();
                    assertEquals(expect.get("healthy").asBoolean(), s.healthy(), what + ": healthy");
                    assertEquals(expect.get("reason").asText(), s.reason(), what + ": reason");
                    return;
                }
                case "close" -> {
                    g.close();
                    assertTrue(g.isClosed(), what + ": isClosed");
                    return;
                }
                default -> { }
            }
            final int count = n == null ? 0 : n;
            if (expect.has("error")) {
                expectError(what, expect, () -> {
                    if (op.equals("next_id")) {
                        g.nextId();
                    } else {
                        g.nextIds(count);
                    }
                });
                assertEquals(issued, g.stats().idsIssued(), what + ": nothing was issued");
                if (!g.isClosed()) {
                    assertTrue(g.nextId() > before, what + ": the next id still follows the first");
                }
                return;
            }
            if (op.equals("next_id")) {
                assertTrue(g.nextId() > before, what);
                return;
            }
            long[] ids = g.nextIds(count);
            assertEquals(expect.get("count").asLong(), ids.length, what + ": count");
            for (long id : ids) {
                assertTrue(id > before, what + ": ids follow the first");
            }
        }
    }

    // ---- codec ---------------------------------------------------------------------------

    static void decode(JsonNode c) throws Throwable {
        JsonNode args = c.get("args");
        Layout layout = Layout.parse(asText(args.get("layout")));
        JsonNode id = args.get("id");
        ThrowingSupplier<Decoded> call;
        if (id.has("int")) {
            long v = asLong(id);
            call = () -> Snowfleet.decode(v, layout);
        } else {
            String text = asText(id);
            call = () -> Snowfleet.decode(text, layout);
        }
        outcome(c, call, d -> {
            JsonNode e = c.get("expect");
            String what = c.path("id").asText();
            assertEquals(e.get("timestamp_ms").asText(), Long.toString(d.timestampMs()), what + ": timestampMs");
            assertEquals(e.get("node_id").asLong(), d.nodeId(), what + ": nodeId");
            assertEquals(e.get("datacenter_id").asLong(), d.datacenterId(), what + ": datacenterId");
            assertEquals(e.get("machine_id").asLong(), d.machineId(), what + ": machineId");
            assertEquals(e.get("sequence").asLong(), d.sequence(), what + ": sequence");
        });
    }

    static void compose(JsonNode c) throws Throwable {
        JsonNode args = c.get("args");
        Layout layout = Layout.parse(asText(args.get("layout")));
        long ts = asLong(args.get("timestamp_ms"));
        Long seq = args.has("sequence") ? asLong(args.get("sequence")) : null;
        NodeArgs node = new NodeArgs(args.has("node_id") ? asLong(args.get("node_id")) : null,
                args.has("datacenter_id") ? asLong(args.get("datacenter_id")) : null,
                args.has("machine_id") ? asLong(args.get("machine_id")) : null);
        // No sequence: the overload without one (the core's default).
        outcome(c, () -> seq == null ? Snowfleet.compose(ts, node, layout) : Snowfleet.compose(ts, node, seq, layout),
                id -> assertEquals(c.get("expect").get("id").asText(), Long.toString(id), c.path("id").asText()));
    }

    /** The builder a user would write, with exactly the fields the case gives. */
    static void layoutCreate(JsonNode c) throws Throwable {
        JsonNode args = c.get("args");
        for (var it = args.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            assertTrue(LAYOUT_ARGS.contains(k), "unknown layout_create argument " + k);
        }
        Layout.Builder b = Layout.builder();
        if (args.has("epoch_ms")) {
            b.epochMs(asLong(args.get("epoch_ms")));
        }
        if (args.has("timestamp_bits")) {
            b.timestampBits(asLong(args.get("timestamp_bits")));
        }
        if (args.has("node_bits")) {
            b.nodeBits(asLong(args.get("node_bits")));
        }
        if (args.has("datacenter_bits")) {
            b.datacenterBits(asLong(args.get("datacenter_bits")));
        }
        if (args.has("machine_bits")) {
            b.machineBits(asLong(args.get("machine_bits")));
        }
        if (args.has("sequence_bits")) {
            b.sequenceBits(asLong(args.get("sequence_bits")));
        }
        outcome(c, b::build,
                l -> assertEquals(c.get("expect").get("text").asText(), l.toString(), c.path("id").asText()));
    }

    // ---- Stats / Status field names ------------------------------------------------------

    static String camel(String snake) {
        StringBuilder out = new StringBuilder();
        boolean up = false;
        for (char ch : snake.toCharArray()) {
            if (ch == '_') {
                up = true;
            } else {
                out.append(up ? Character.toUpperCase(ch) : ch);
                up = false;
            }
        }
        return out.toString();
    }

    static List<String> componentNames(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
    }

    // Layout getters that are not fields of the list, and Object's own methods.
    private static final Set<String> LAYOUT_EXTRAS = Set.of("split", "presetName", "toString", "hashCode");

    /** Public instance methods of type taking params parameters, by name (no order in Java). */
    static Set<String> methodNames(Class<?> type, int params) {
        Set<String> out = new TreeSet<>();
        for (Method m : type.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == params
                    && m.getDeclaringClass() == type) {
                out.add(m.getName());
            }
        }
        return out;
    }

    /** The record type a UUIDv7 generator's stats() / status() really returns. */
    static Class<? extends Record> uuid7RecordType(String record) {
        try (Uuid7Generator g = Uuid7Generator.builder().clock(new ScriptedClock(FROZEN_MS)).build()) {
            return record.equals("uuid7_stats") ? g.stats().getClass() : g.status().getClass();
        }
    }

    static void fields(JsonNode c) {
        String record = asText(c.get("args").get("record"));
        List<String> want = new ArrayList<>();
        c.get("expect").get("names").forEach(n -> want.add(camel(n.asText())));
        assertFalse(want.isEmpty());
        String what = c.path("id").asText();
        switch (record) {
            case "layout" -> {
                Set<String> got = methodNames(Layout.class, 0);
                got.removeAll(LAYOUT_EXTRAS);
                assertEquals(new TreeSet<>(want), got, what + ": Layout getters");
                return;
            }
            case "generator_args" -> {
                Set<String> got = new TreeSet<>();
                for (Method m : Generator.Builder.class.getMethods()) {
                    if (m.getParameterCount() == 1 && m.getReturnType() == Generator.Builder.class) {
                        got.add(m.getName());
                    }
                }
                assertEquals(new TreeSet<>(want), got, what + ": Generator.Builder setters");
                return;
            }
            default -> { }
        }
        Class<? extends Record> type = switch (record) {
            case "stats" -> Stats.class;
            case "status" -> Status.class;
            case "uuid7_stats", "uuid7_status" -> uuid7RecordType(record);
            default -> throw new AssertionError("unknown record " + record);
        };
        assertEquals(want, componentNames(type), what + ": " + type.getSimpleName() + " components");
    }
}
