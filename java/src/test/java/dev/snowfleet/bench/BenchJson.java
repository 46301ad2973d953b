package dev.snowfleet.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * PairedBench's medians in the bench JSON form that bench/chart.py reads (its docstring
 * describes the form): one row per contender, ns per id over all its threads.
 */
final class BenchJson {
    private BenchJson() {}

    /** Chart label, group (snowfleet, peer, reference) and family (snowflake, uuid7) per contender. */
    private static final Map<String, String[]> ROWS = Map.ofEntries(
            Map.entry("strictNextId", new String[] {"strict nextId() (4,096 ids/ms cap)", "snowfleet", "snowflake"}),
            Map.entry("monotonicNextId", new String[] {"monotonic nextId()", "snowfleet", "snowflake"}),
            Map.entry("monotonicNextIds10000", new String[] {"monotonic nextIds(10000), per id", "snowfleet", "snowflake"}),
            Map.entry("monotonicNextId2Threads", new String[] {"monotonic nextId(), 2 threads", "snowfleet", "snowflake"}),
            Map.entry("tsidCreator", new String[] {"tsid-creator getTsid().toLong()", "peer", "snowflake"}),
            Map.entry("tsidCreator2Threads", new String[] {"tsid-creator, 2 threads", "peer", "snowflake"}),
            Map.entry("twitterIdWorkerJava", new String[] {"Twitter IdWorker (Java copy)", "peer", "snowflake"}),
            Map.entry("uuid7NextUuid7", new String[] {"nextUuid7()", "snowfleet", "uuid7"}),
            Map.entry("uuid7NextUuid7s10000", new String[] {"nextUuid7s(10000), per UUID", "snowfleet", "uuid7"}),
            Map.entry("uuid7NextUuid72Threads", new String[] {"nextUuid7(), 2 threads", "snowfleet", "uuid7"}),
            Map.entry("uuidCreatorV7", new String[] {"uuid-creator getTimeOrderedEpoch()", "peer", "uuid7"}),
            Map.entry("uuidCreatorV7Fast", new String[] {"uuid-creator getTimeOrderedEpochFast()", "peer", "uuid7"}),
            Map.entry("uuidCreatorV72Threads", new String[] {"uuid-creator, 2 threads", "peer", "uuid7"}),
            Map.entry("bareJniCall", new String[] {"bare JNI call", "reference", "snowflake"}),
            Map.entry("currentTimeMillis", new String[] {"System.currentTimeMillis()", "reference", "snowflake"}),
            Map.entry("instantNow", new String[] {"Instant.now()", "reference", "snowflake"}));

    /** Writes the medians (ns per id, all threads) and each row's chart label, group and family. */
    static void write(Path file, Map<String, List<Double>> perId, Map<String, Integer> threads, String command)
            throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode doc = mapper.createObjectNode();
        doc.put("schema", "snowfleet-bench/1");
        doc.put("language", "Java");
        doc.put("runtime", "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
        doc.put("command", command);
        ArrayNode rows = doc.putArray("rows");
        for (String name : threads.keySet()) {  // contenders() order, not the first round's shuffle
            List<Double> samples = perId.get(name);
            if (samples == null) {
                continue;
            }
            String[] meta = ROWS.getOrDefault(name, new String[] {name, "reference", "snowflake"});
            ObjectNode row = rows.addObject();
            row.put("key", name);
            row.put("label", meta[0]);
            row.put("group", meta[1]);
            row.put("family", meta[2]);
            row.put("threads", threads.get(name));
            row.put("ns_per_id", PairedBench.median(samples));
            row.put("samples", samples.size());
        }
        mapper.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), doc);
    }
}
