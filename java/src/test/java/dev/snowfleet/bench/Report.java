package dev.snowfleet.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the medians of a JMH JSON result (every measurement iteration of every fork) as
 * ns/id and ids/s, with the ratios the README quotes. Usage: Report result.json
 */
public final class Report {
    private Report() {}

    public static void main(String[] args) throws Exception {
        JsonNode results = new ObjectMapper().readTree(new File(args[0]));
        Map<String, double[]> rows = new LinkedHashMap<>();  // name -> {median ns/id, threads, samples}
        for (JsonNode r : results) {
            String name = r.get("benchmark").asText().replaceAll(".*\\.", "");
            int threads = r.get("threads").asInt();
            List<Double> samples = new ArrayList<>();
            for (JsonNode fork : r.get("primaryMetric").get("rawData")) {
                for (JsonNode v : fork) {
                    samples.add(v.asDouble());
                }
            }
            Collections.sort(samples);
            int n = samples.size();
            double median = n % 2 == 1 ? samples.get(n / 2) : (samples.get(n / 2 - 1) + samples.get(n / 2)) / 2;
            rows.put(name, new double[] {median, threads, n});
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "%-30s %7s %12s %16s %8s%n", "benchmark", "threads", "ns/id", "ids/s (total)", "samples");
        for (Map.Entry<String, double[]> e : rows.entrySet()) {
            double ns = e.getValue()[0];
            int threads = (int) e.getValue()[1];
            System.out.printf(Locale.ROOT, "%-30s %7d %12.2f %16s %8d%n", e.getKey(), threads, ns,
                    String.format(Locale.ROOT, "%,.0f", threads * 1e9 / ns), (int) e.getValue()[2]);
        }
        System.out.println();
        ratio(rows, "monotonicNextId", "tsidCreator", "monotonic nextId() vs tsid-creator (ns/id, < 1 is faster)");
        ratio(rows, "monotonicNextId2Threads", "tsidCreator2Threads", "2 threads: monotonic vs tsid-creator (ns/id)");
        ratio(rows, "strictNextId", "twitterIdWorkerJava", "strict nextId() vs Java IdWorker (ns/id)");
        ratio(rows, "monotonicNextId", "bareJniCall", "monotonic nextId() / bare JNI call");
    }

    private static void ratio(Map<String, double[]> rows, String a, String b, String label) {
        if (rows.containsKey(a) && rows.containsKey(b)) {
            System.out.printf(Locale.ROOT, "%-60s %.2f%n", label, rows.get(a)[0] / rows.get(b)[0]);
        }
    }
}
