package dev.snowfleet.spring;

import dev.snowfleet.Generator;
import dev.snowfleet.Status;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * UP while {@link Generator#status()} is healthy, DOWN (HTTP 503 from the health endpoint)
 * with the core's reason otherwise: a clock behind the last id by more than the wait budget,
 * a lease unconfirmed or lost, a closed generator.
 */
public class SnowfleetHealthIndicator extends AbstractHealthIndicator {
    private final Generator ids;

    /** Reports on {@code ids}. */
    public SnowfleetHealthIndicator(Generator ids) {
        super("snowfleet health check failed");
        this.ids = ids;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Status s = ids.status();
        (s.healthy() ? builder.up() : builder.down())
                .withDetail("nodeId", s.nodeId())
                .withDetail("mode", s.mode().text())
                .withDetail("leaseState", s.leaseState().name().toLowerCase(java.util.Locale.ROOT))
                .withDetail("driftMs", s.driftMs())
                .withDetail("markHeadroomMs", s.markHeadroomMs());
        if (!s.healthy()) builder.withDetail("reason", s.reason());
    }
}
