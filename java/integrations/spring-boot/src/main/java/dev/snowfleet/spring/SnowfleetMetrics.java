package dev.snowfleet.spring;

import dev.snowfleet.Generator;
import dev.snowfleet.Stats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters from {@link Generator#stats()} (counters) and {@link Generator#status()}
 * (gauges), tagged with the node id: {@code snowfleet.ids.issued}, {@code snowfleet.rewinds},
 * {@code snowfleet.waits}, {@code snowfleet.waited} (seconds), {@code snowfleet.refusals},
 * {@code snowfleet.ms.borrowed}, {@code snowfleet.mark.writes},
 * {@code snowfleet.mark.write.failures}, {@code snowfleet.lease.refusals},
 * {@code snowfleet.lease.renewal.failures}, {@code snowfleet.drift} (ms),
 * {@code snowfleet.healthy} (1 or 0).
 */
public class SnowfleetMetrics implements MeterBinder {
    private final Generator ids;

    /** Meters of {@code ids}. */
    public SnowfleetMetrics(Generator ids) {
        this.ids = ids;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String node = Long.toString(ids.nodeId());
        counter(registry, node, "snowfleet.ids.issued", "ids handed out", Stats::idsIssued);
        counter(registry, node, "snowfleet.rewinds", "wall readings behind the highest seen", Stats::rewindsSeen);
        counter(registry, node, "snowfleet.waits", "calls that had to wait", Stats::waits);
        counter(registry, node, "snowfleet.refusals", "calls refused: the clock was unusable", Stats::refusals);
        counter(registry, node, "snowfleet.ms.borrowed", "monotonic: ms borrowed past the wall clock", Stats::msBorrowed);
        counter(registry, node, "snowfleet.mark.writes", "high-water marks persisted", Stats::markWrites);
        counter(registry, node, "snowfleet.mark.write.failures", "mark writes that failed", Stats::markWriteFailures);
        counter(registry, node, "snowfleet.lease.refusals", "calls refused with LeaseLost", Stats::leaseRefusals);
        counter(registry, node, "snowfleet.lease.renewal.failures", "keepalives that failed", Stats::leaseRenewalFailures);
        FunctionCounter.builder("snowfleet.waited", ids, g -> g.stats().waitedNsTotal() / 1e9)
                .description("total time waited").baseUnit("seconds").tag("node", node).register(registry);
        Gauge.builder("snowfleet.drift", ids, g -> g.status().driftMs())
                .description("how far the generator runs ahead of the wall clock").baseUnit("milliseconds")
                .tag("node", node).register(registry);
        Gauge.builder("snowfleet.healthy", ids, g -> g.status().healthy() ? 1 : 0)
                .description("1 while a call would be served").tag("node", node).register(registry);
    }

    private void counter(MeterRegistry registry, String node, String name, String description,
            ToLongFunction<Stats> field) {
        FunctionCounter.builder(name, ids, g -> field.applyAsLong(g.stats()))
                .description(description).tag("node", node).register(registry);
    }
}
