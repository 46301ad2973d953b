package dev.snowfleet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.snowfleet.ClockMovedBackwardsException;
import dev.snowfleet.Decoded;
import dev.snowfleet.Generator;
import dev.snowfleet.Layout;
import dev.snowfleet.Mode;
import dev.snowfleet.Snowfleet;
import dev.snowfleet.SnowfleetFailure;
import dev.snowfleet.Stats;
import dev.snowfleet.Status;
import dev.snowfleet.internal.jni.SnowfleetNative;
import dev.snowfleet.testing.ScriptedClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * Runs every case of ../conformance/vectors/*.json (format: conformance/README.md) through
 * the Java API, one dynamic test per case, named by the case id. Nothing is skipped: an
 * unknown kind, op or expected key fails its case.
 */
class ConformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Path vectorsDir() {
        String dir = System.getProperty("snowfleet.conformance.dir", "../conformance/vectors");
        return Path.of(dir).toAbsolutePath().normalize();
    }

    static List<Path> vectorFiles() throws IOException {
        try (Stream<Path> files = Files.list(vectorsDir())) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void theVectorsAreThere() throws IOException {
        List<Path> files = vectorFiles();
        Set<String> kinds = new HashSet<>();
        for (Path f : files) {
            JsonNode doc = JSON.readTree(f.toFile());
            assertEquals(1, doc.path("schema_version").asInt(), f + ": schema_version");
            assertTrue(doc.path("cases").size() > 0, f + " has no cases");
            kinds.add(doc.path("kind").asText());
        }
        assertEquals(Set.of("arguments", "layout", "codec", "scenario", "time", "text", "range", "uuid7"), kinds, "vector kinds in " + vectorsDir());
    }

    @TestFactory
    Stream<DynamicNode> vectors() throws IOException {
        List<DynamicNode> containers = new ArrayList<>();
        for (Path f : vectorFiles()) {
            JsonNode doc = JSON.readTree(f.toFile());
            String kind = doc.path("kind").asText();
            List<DynamicNode> cases = new ArrayList<>();
            Set<String> ids = new HashSet<>();
            for (JsonNode c : doc.path("cases")) {
                String id = c.path("id").asText();
                assertTrue(ids.add(id), f + ": duplicate case id " + id);
                Executable run;
                switch (kind) {
                    case "layout":
                        run = () -> runLayout(c);
                        break;
                    case "codec":
                        run = () -> runCodec(c);
                        break;
                    case "scenario":
                        run = () -> runScenario(c);
                        break;
                    case "time":
                        run = () -> runTime(c);
                        break;
                    case "arguments":
                        run = () -> ArgumentVectors.run(c);
                        break;
                    case "text":
                        run = () -> TextRangeVectors.runText(c);
                        break;
                    case "range":
                        run = () -> TextRangeVectors.runRange(c);
                        break;
                    case "uuid7":
                        run = () -> Uuid7Vectors.run(c);
                        break;
                    default:
                        run = () -> fail("unknown vector kind '" + kind + "' in " + f);
                }
                cases.add(DynamicTest.dynamicTest(id, run));
            }
            containers.add(DynamicContainer.dynamicContainer(f.getFileName().toString(), cases));
        }
        assertFalse(containers.isEmpty(), "no conformance vectors in " + vectorsDir());
        return containers.stream();
    }

    // ---- errors ----------------------------------------------------------------------

    /** The class the binding maps a core code to, from the core's own list. */
    static Class<?> classForCode(String code) throws ClassNotFoundException {
        for (int i = 0; i < SnowfleetNative.errorKindCount(); i++) {
            if (SnowfleetNative.errorKindCode(i).equals(code)) {
                return Class.forName(SnowfleetNative.exceptionClassName(i).replace('/', '.'));
            }
        }
        throw new AssertionError("unknown error code " + code);
    }

    /** Runs {@code body}, which must fail exactly as {@code expect} ({"error": CODE, ...}) says. */
    static void expectError(String what, JsonNode expect, Executable body) throws Throwable {
        String code = expect.path("error").asText();
        Class<?> cls = classForCode(code);
        try {
            body.execute();
        } catch (Throwable e) {
            assertSame(cls, e.getClass(), what + ": expected " + cls.getSimpleName() + " (" + code + "), got " + e);
            assertEquals(code, ((SnowfleetFailure) e).code(), what + ": code()");
            if (expect.has("drift_ms")) {
                assertEquals(expect.get("drift_ms").asLong(), ((ClockMovedBackwardsException) e).driftMs(),
                        what + ": driftMs()");
            }
            for (JsonNode part : expect.path("message_contains")) {
                assertTrue(e.getMessage().contains(part.asText()),
                        what + ": message '" + e.getMessage() + "' lacks '" + part.asText() + "'");
            }
            for (Iterator<String> it = expect.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                assertTrue(Set.of("error", "drift_ms", "message_contains").contains(k), what + ": unknown error key " + k);
            }
            return;
        }
        fail(what + ": expected " + code + ", nothing was thrown");
    }

    static boolean isError(JsonNode expect) {
        return expect.has("error");
    }

    /** Compares every key of {@code expect} with {@code actual}, by the JSON value's type. */
    static void assertSubset(String what, JsonNode expect, Map<String, Object> actual) {
        for (Iterator<Map.Entry<String, JsonNode>> it = expect.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode want = e.getValue();
            assertTrue(actual.containsKey(key), what + ": no value for expected key '" + key + "'");
            Object got = actual.get(key);
            String ctx = what + ": " + key;
            if (want.isTextual()) {
                assertEquals(want.asText(), String.valueOf(got), ctx);
            } else if (want.isBoolean()) {
                assertEquals(want.asBoolean(), got, ctx);
            } else if (want.isIntegralNumber()) {
                assertInstanceOf(Number.class, got, ctx);
                assertEquals(want.asLong(), ((Number) got).longValue(), ctx);
            } else {
                fail(ctx + ": unsupported expected value " + want);
            }
        }
    }

    // ---- layout ------------------------------------------------------------------------

    static Map<String, Object> describe(Layout l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", l.toString());
        m.put("preset", l.presetName());
        m.put("epoch_ms", l.epochMs());
        m.put("timestamp_bits", l.timestampBits());
        m.put("node_bits", l.nodeBits());
        m.put("datacenter_bits", l.datacenterBits());
        m.put("machine_bits", l.machineBits());
        m.put("sequence_bits", l.sequenceBits());
        m.put("timestamp_shift", l.timestampShift());
        m.put("node_shift", l.nodeShift());
        m.put("max_node_id", l.maxNodeId());
        m.put("max_datacenter_id", l.maxDatacenterId());
        m.put("max_machine_id", l.maxMachineId());
        m.put("max_sequence", l.maxSequence());
        m.put("max_elapsed_ms", l.maxElapsedMs());
        m.put("max_timestamp_ms", l.maxTimestampMs());
        return m;
    }

    static Layout layoutOf(JsonNode c) {
        String op = c.path("op").asText();
        switch (op) {
            case "parse":
                return Layout.parse(c.get("text").asText());
            case "create":
                long epoch = Long.parseLong(c.get("epoch_ms").asText());
                if (c.has("datacenter_bits")) {
                    return Layout.createSplit(epoch, c.get("timestamp_bits").asLong(), c.get("datacenter_bits").asLong(),
                            c.get("machine_bits").asLong(), c.get("sequence_bits").asLong());
                }
                return Layout.create(epoch, c.get("timestamp_bits").asLong(), c.get("node_bits").asLong(),
                        c.get("sequence_bits").asLong());
            default:
                throw new AssertionError("unknown layout op '" + op + "'");
        }
    }

    static void runLayout(JsonNode c) throws Throwable {
        JsonNode expect = c.get("expect");
        String what = c.path("id").asText();
        if (isError(expect)) {
            expectError(what, expect, () -> layoutOf(c));
            return;
        }
        Layout l = layoutOf(c);
        assertSubset(what, expect, describe(l));
        Layout again = Layout.parse(l.toString());
        assertEquals(l, again, what + ": parse(toString()) round trip");
        assertEquals(l.hashCode(), again.hashCode(), what + ": hashCode");
    }

    // ---- time --------------------------------------------------------------------------

    static void runTime(JsonNode c) throws Throwable {
        JsonNode expect = c.get("expect");
        String what = c.path("id").asText() + " (" + c.path("source").asText() + ")";
        String op = c.path("op").asText();
        assertEquals("parse_time", op, what + ": unknown time op");
        Map<String, Object> actual = new HashMap<>();
        Executable body = () -> actual.put("timestamp_ms", Snowfleet.parseTime(c.get("text").asText()));
        if (isError(expect)) {
            expectError(what, expect, body);
        } else {
            body.execute();
            assertSubset(what, expect, actual);
        }
    }

    // ---- codec -------------------------------------------------------------------------

    /** An id as a Java user would convert the text: Long.parseLong, else Snowfleet.parseId. */
    static long idFromText(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return Snowfleet.parseId(text);
        }
    }

    static void runCodec(JsonNode c) throws Throwable {
        JsonNode expect = c.get("expect");
        String what = c.path("id").asText() + " (" + c.path("source").asText() + ")";
        String op = c.path("op").asText();
        Executable body;
        Map<String, Object> actual = new HashMap<>();
        switch (op) {
            case "compose":
                body = () -> {
                    Layout l = Layout.parse(c.get("layout").asText());
                    long ts = Long.parseLong(c.get("timestamp_ms").asText());
                    long id = c.has("datacenter_id")
                            ? Snowfleet.compose(ts, c.get("datacenter_id").asLong(), c.get("machine_id").asLong(),
                                    c.get("sequence").asLong(), l)
                            : Snowfleet.compose(ts, c.get("node_id").asLong(), c.get("sequence").asLong(), l);
                    actual.put("id", id);
                };
                break;
            case "decode":
                body = () -> {
                    Layout l = Layout.parse(c.get("layout").asText());
                    Decoded d = Snowfleet.decode(idFromText(c.get("value").asText()), l);
                    actual.put("timestamp_ms", d.timestampMs());
                    actual.put("node_id", d.nodeId());
                    actual.put("datacenter_id", d.datacenterId());
                    actual.put("machine_id", d.machineId());
                    actual.put("sequence", d.sequence());
                };
                break;
            case "parse_id":
                body = () -> actual.put("id", Snowfleet.parseId(c.get("text").asText()));
                break;
            default:
                body = () -> fail("unknown codec op '" + op + "'");
        }
        if (isError(expect)) {
            expectError(what, expect, body);
        } else {
            body.execute();
            assertSubset(what, expect, actual);
        }
    }

    // ---- scenario ----------------------------------------------------------------------

    static ScriptedClock clockOf(JsonNode script) {
        List<ScriptedClock.Segment> segments = new ArrayList<>();
        for (JsonNode s : script) {
            segments.add(new ScriptedClock.Segment(Long.parseLong(s.get("ms").asText()),
                    s.has("count") ? s.get("count").asLong() : 1, s.has("step_ms") ? s.get("step_ms").asLong() : 0,
                    s.has("every") ? s.get("every").asLong() : 1));
        }
        return new ScriptedClock(segments);
    }

    static Generator generatorOf(JsonNode g, ScriptedClock clock) {
        return Generator.builder()
                .layout(Layout.parse(g.get("layout").asText()))
                .nodeId(g.get("node_id").asLong())
                .mode(Mode.parse(g.get("mode").asText()))
                .maxWaitMs(g.get("max_wait_ms").asDouble())
                .maxDriftMs(g.get("max_drift_ms").asLong())
                .clock(clock)
                .build();
    }

    /** Summary of a run of ids, as the README's RUN object. */
    static Map<String, Object> run(long[] ids, Layout layout) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", ids.length);
        if (ids.length > 0) {
            m.put("first", ids[0]);
            m.put("last", ids[ids.length - 1]);
        }
        boolean increasing = true;
        long sum = 0;
        long maxSeq = -1;
        for (int i = 0; i < ids.length; i++) {
            if (i > 0 && ids[i] <= ids[i - 1]) {
                increasing = false;
            }
            sum += ids[i];  // wraps: the sum is taken mod 2^64
            maxSeq = Math.max(maxSeq, Snowfleet.decode(ids[i], layout).sequence());
        }
        m.put("strictly_increasing", increasing);
        m.put("sum", Long.toUnsignedString(sum));
        m.put("max_sequence", maxSeq);
        return m;
    }

    /**
     * Constructs the generator {@code g} describes on its own scripted clock, or on the clock
     * object of the generator its {@code clock_of} names (one clock object: one time), and
     * records it. The clock is made here, so a script the core refuses is the construction
     * error the case expects.
     */
    static void construct(JsonNode g, Map<String, Generator> gens, Map<String, ScriptedClock> clocks,
            List<Generator> made) {
        String name = g.get("name").asText();
        ScriptedClock clock;
        if (g.has("clock_of")) {
            clock = clocks.get(g.get("clock_of").asText());
            assertTrue(clock != null, name + ": clock_of names no open generator: " + g.get("clock_of"));
        } else {
            clock = clockOf(g.get("clock"));
        }
        Generator gen = generatorOf(g, clock);
        made.add(gen);
        gens.put(name, gen);
        clocks.put(name, clock);
    }

    static void runScenario(JsonNode c) throws Throwable {
        String caseId = c.path("id").asText();
        Map<String, Generator> gens = new LinkedHashMap<>();
        Map<String, ScriptedClock> clocks = new HashMap<>();
        Map<String, JsonNode> deferred = new HashMap<>();  // opened by an "open" step
        // Every generator constructed, closed at the end: one left to the GC stays open, and
        // the next scenario would share its state.
        List<Generator> made = new ArrayList<>();
        try {
            for (JsonNode g : c.get("generators")) {
                String name = g.get("name").asText();
                if (g.has("expect_construct_error")) {
                    expectError(caseId + ": constructing " + name, g.get("expect_construct_error"),
                            () -> construct(g, gens, clocks, made));
                    continue;
                }
                if (g.path("deferred").asBoolean(false)) {
                    deferred.put(name, g);
                } else {
                    construct(g, gens, clocks, made);
                }
            }
            String first = c.get("generators").get(0).get("name").asText();
            int stepNo = 0;
            for (JsonNode step : c.get("steps")) {
                stepNo++;
                String name = step.has("gen") ? step.get("gen").asText() : first;
                String what = caseId + " step " + stepNo + " (" + step.get("op").asText() + " " + name + ")";
                if (step.get("op").asText().equals("open")) {
                    JsonNode g = deferred.get(name);
                    assertTrue(g != null, what + ": no deferred generator " + name);
                    JsonNode expect = step.get("expect");
                    if (isError(expect)) {
                        expectError(what, expect, () -> construct(g, gens, clocks, made));
                    } else {
                        construct(g, gens, clocks, made);
                        assertSubset(what, expect, Map.of());  // {}: nothing else to check
                    }
                    continue;
                }
                Generator gen = gens.get(name);
                assertTrue(gen != null, caseId + ": step " + stepNo + " uses unknown generator " + name);
                runStep(what, step, gen, clocks.get(name));
            }
        } finally {
            made.forEach(Generator::close);
        }
    }

    static void runStep(String what, JsonNode step, Generator gen, ScriptedClock clock) throws Throwable {
        JsonNode expect = step.get("expect");
        String op = step.get("op").asText();
        Map<String, Object> actual = new LinkedHashMap<>();
        Executable body;
        switch (op) {
            case "next_id": {
                int repeat = step.has("repeat") ? step.get("repeat").asInt() : 1;
                body = () -> {
                    if (repeat == 1) {
                        actual.put("id", gen.nextId());
                        return;
                    }
                    long[] ids = new long[repeat];
                    for (int i = 0; i < repeat; i++) {
                        ids[i] = gen.nextId();
                    }
                    actual.putAll(run(ids, gen.layout()));
                };
                break;
            }
            case "next_ids": {
                int n = Math.toIntExact(step.get("n").asLong());
                body = () -> actual.putAll(run(gen.nextIds(n), gen.layout()));
                break;
            }
            case "stats":
                body = () -> {
                    Stats s = gen.stats();
                    actual.put("ids_issued", s.idsIssued());
                    actual.put("rewinds_seen", s.rewindsSeen());
                    actual.put("waits", s.waits());
                    actual.put("waited_ns_total", s.waitedNsTotal());
                    actual.put("waited_ns_max", s.waitedNsMax());
                    actual.put("refusals", s.refusals());
                    actual.put("ms_borrowed", s.msBorrowed());
                    actual.put("mark_writes", s.markWrites());
                    actual.put("lease_refusals", s.leaseRefusals());
                    actual.put("mark_write_failures", s.markWriteFailures());
                    actual.put("lease_renewal_failures", s.leaseRenewalFailures());
                };
                break;
            case "status":
                body = () -> {
                    Status s = gen.status();
                    actual.put("healthy", s.healthy());
                    actual.put("wall_ms", s.wallMs());
                    actual.put("last_ms", s.lastMs());
                    actual.put("drift_ms", s.driftMs());
                    actual.put("node_id", s.nodeId());
                    actual.put("lease_state", s.leaseState().text());
                    actual.put("mark_ms", s.markMs());
                    actual.put("lease_expires_in_ms", s.leaseExpiresInMs());
                    actual.put("mark_headroom_ms", s.markHeadroomMs());
                    assertEquals(s.healthy(), s.reason().isEmpty(), what + ": reason '" + s.reason() + "'");
                };
                break;
            case "drift":
                body = () -> actual.put("drift_ms", gen.driftMs());
                break;
            case "close":
                body = gen::close;  // expect is {}: nothing to compare
                break;
            case "clock":
                body = () -> {
                    actual.put("reads", clock.reads());
                    actual.put("sleep_count", clock.sleepCount());
                    actual.put("slept_ns", clock.sleptNs());
                    actual.put("max_sleep_ns", clock.maxSleepNs());
                    actual.put("min_sleep_ns", clock.minSleepNs());
                };
                break;
            default:
                body = () -> fail("unknown step op '" + op + "'");
        }
        if (isError(expect)) {
            expectError(what, expect, body);
        } else {
            body.execute();
            assertSubset(what, expect, actual);
        }
    }
}
