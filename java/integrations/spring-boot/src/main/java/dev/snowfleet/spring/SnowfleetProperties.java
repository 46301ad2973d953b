package dev.snowfleet.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code snowfleet.*}: the process's generator. Give the node one way: {@code node-id} or
 * {@code node-source} ({@code static:37}, {@code env:VAR}, {@code k8s[:OFFSET]},
 * {@code local[:DIR]}, {@code etcd://host:port/prefix?ttl=10}). Unset options take the
 * core's defaults (default layout, strict, max-wait-ms 5, max-drift-ms 1000).
 */
@ConfigurationProperties("snowfleet")
public class SnowfleetProperties {
    /** A static node id. */
    private Long nodeId;
    /** A node-id source string, e.g. local or k8s:100. */
    private String nodeSource;
    /** The layout: a preset name (default, twitter, discord) or its text, 41.10.12@1704067200000. */
    private String layout;
    /** strict or monotonic. */
    private String mode;
    /** How long a call may wait out a rewind or a spent millisecond, ms. */
    private Double maxWaitMs;
    /** Monotonic mode: how far ahead of the wall clock the generator may run, ms. */
    private Long maxDriftMs;

    public Long getNodeId() { return nodeId; }
    public void setNodeId(Long nodeId) { this.nodeId = nodeId; }
    public String getNodeSource() { return nodeSource; }
    public void setNodeSource(String nodeSource) { this.nodeSource = nodeSource; }
    public String getLayout() { return layout; }
    public void setLayout(String layout) { this.layout = layout; }
    public String getMode() { return mode; }
    public void setMode(String mode) { this.mode = mode; }
    public Double getMaxWaitMs() { return maxWaitMs; }
    public void setMaxWaitMs(Double maxWaitMs) { this.maxWaitMs = maxWaitMs; }
    public Long getMaxDriftMs() { return maxDriftMs; }
    public void setMaxDriftMs(Long maxDriftMs) { this.maxDriftMs = maxDriftMs; }

    /** The properties set, as {@code [snowfleet.node-id=5, ...]}, for messages. */
    String given() {
        List<String> set = new ArrayList<>();
        Object[][] all = {{"node-id", nodeId}, {"node-source", nodeSource}, {"layout", layout}, {"mode", mode},
            {"max-wait-ms", maxWaitMs}, {"max-drift-ms", maxDriftMs}};
        for (Object[] p : all) {
            if (p[1] != null) set.add("snowfleet." + p[0] + "=" + p[1]);
        }
        return set.toString();
    }
}
