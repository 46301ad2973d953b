package dev.snowfleet.spring;

import dev.snowfleet.Generator;
import dev.snowfleet.Layout;
import dev.snowfleet.Mode;
import dev.snowfleet.Uuid7Generator;
import dev.snowfleet.hibernate.SnowfleetHibernate;
import dev.snowfleet.jackson.SnowfleetModule;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One {@link Generator} (and one {@link Uuid7Generator}) per application context, made from
 * {@link SnowfleetProperties} at start and closed at shutdown (a leased node id is released);
 * with the actuator, a {@code snowfleet} health indicator (DOWN, so 503, whenever
 * {@code status()} is not healthy) and {@code snowfleet.*} meters from {@code stats()};
 * with snowfleet-hibernate, the generators behind {@code @SnowflakeId} and {@code @Uuid7Id};
 * with snowfleet-jackson, {@link SnowfleetModule} in Spring's {@code ObjectMapper}.
 */
@AutoConfiguration(beforeName = {
    "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
    "org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration"})
@EnableConfigurationProperties(SnowfleetProperties.class)
public class SnowfleetAutoConfiguration {

    /** The process's generator, from {@code snowfleet.*}. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Generator snowfleetGenerator(SnowfleetProperties p) {
        Generator.Builder b = Generator.builder();
        if (p.getNodeId() != null) b.nodeId(p.getNodeId());
        if (p.getNodeSource() != null) b.nodeSource(p.getNodeSource());
        if (p.getLayout() != null) b.layout(Layout.parse(p.getLayout()));
        if (p.getMode() != null) b.mode(Mode.parse(p.getMode()));
        if (p.getMaxWaitMs() != null) b.maxWaitMs(p.getMaxWaitMs());
        if (p.getMaxDriftMs() != null) b.maxDriftMs(p.getMaxDriftMs());
        return b.build();
    }

    /** The process's UUIDv7 generator, with the same mode and budgets. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Uuid7Generator snowfleetUuid7Generator(SnowfleetProperties p) {
        Uuid7Generator.Builder b = Uuid7Generator.builder();
        if (p.getMode() != null) b.mode(Mode.parse(p.getMode()));
        if (p.getMaxWaitMs() != null) b.maxWaitMs(p.getMaxWaitMs());
        if (p.getMaxDriftMs() != null) b.maxDriftMs(p.getMaxDriftMs());
        return b.build();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.snowfleet.hibernate.SnowfleetHibernate")
    static class HibernateIds {
        /** Hands the beans to Hibernate's generators; takes them back before they close. */
        @Bean
        HibernateBinding snowfleetHibernateBinding(Generator ids, Uuid7Generator uuids) {
            return new HibernateBinding(ids, uuids);
        }
    }

    static final class HibernateBinding implements DisposableBean {
        private final Generator ids;
        private final Uuid7Generator uuids;

        HibernateBinding(Generator ids, Uuid7Generator uuids) {
            this.ids = ids;
            this.uuids = uuids;
            SnowfleetHibernate.use(ids);
            SnowfleetHibernate.use(uuids);
        }

        @Override
        public void destroy() {
            SnowfleetHibernate.clear(ids);
            SnowfleetHibernate.clear(uuids);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.snowfleet.jackson.SnowfleetModule")
    static class JacksonIds {
        /** Registered in Spring Boot's ObjectMapper like every Module bean. */
        @Bean
        @ConditionalOnMissingBean
        SnowfleetModule snowfleetJacksonModule() {
            return new SnowfleetModule();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("snowfleet")
    static class Health {
        /** {@code snowfleet} in /actuator/health: add it to the readiness group. */
        @Bean
        @ConditionalOnMissingBean(name = "snowfleetHealthIndicator")
        HealthIndicator snowfleetHealthIndicator(Generator ids) {
            return new SnowfleetHealthIndicator(ids);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Metrics {
        /** {@code snowfleet.*} meters, read from stats() and status() at each scrape. */
        @Bean
        @ConditionalOnMissingBean(SnowfleetMetrics.class)
        MeterBinder snowfleetMetrics(Generator ids) {
            return new SnowfleetMetrics(ids);
        }
    }
}
