package dev.snowfleet.spring;

import dev.snowfleet.Generator;
import dev.snowfleet.InvalidArgumentException;
import dev.snowfleet.Layout;
import dev.snowfleet.Mode;
import dev.snowfleet.SnowfleetFailure;
import dev.snowfleet.Uuid7Generator;
import dev.snowfleet.hibernate.SnowfleetHibernate;
import dev.snowfleet.jackson.SnowfleetModule;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.orm.jpa.HibernatePropertiesCustomizer;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
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
        return built(p, () -> {
            Generator.Builder b = Generator.builder();
            if (p.getNodeId() != null) b.nodeId(p.getNodeId());
            if (p.getNodeSource() != null) b.nodeSource(p.getNodeSource());
            if (p.getLayout() != null) b.layout(property("snowfleet.layout", p.getLayout(), Layout::parse));
            if (p.getMode() != null) b.mode(property("snowfleet.mode", p.getMode(), Mode::parse));
            if (p.getMaxWaitMs() != null) b.maxWaitMs(p.getMaxWaitMs());
            if (p.getMaxDriftMs() != null) b.maxDriftMs(p.getMaxDriftMs());
            return b.build();
        });
    }

    /** The process's UUIDv7 generator, with the same mode and budgets. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Uuid7Generator snowfleetUuid7Generator(SnowfleetProperties p) {
        return built(p, () -> {
            Uuid7Generator.Builder b = Uuid7Generator.builder();
            if (p.getMode() != null) b.mode(property("snowfleet.mode", p.getMode(), Mode::parse));
            if (p.getMaxWaitMs() != null) b.maxWaitMs(p.getMaxWaitMs());
            if (p.getMaxDriftMs() != null) b.maxDriftMs(p.getMaxDriftMs());
            return b.build();
        });
    }

    /** One property's text read by the core, or a startup failure naming it, its value and the rule. */
    private static <T> T property(String name, String value, Function<String, T> parse) {
        try {
            return parse.apply(value);
        } catch (InvalidArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(name, value, e.getMessage());
        }
    }

    /** The generator built, or a startup failure naming the snowfleet.* properties given. */
    private static <T> T built(SnowfleetProperties p, Supplier<T> build) {
        try {
            return build.get();
        } catch (InvalidConfigurationPropertyValueException e) {
            throw e;
        } catch (RuntimeException e) {
            if (!(e instanceof SnowfleetFailure)) throw e;
            throw new IllegalStateException("snowfleet.* properties " + p.given() + " refused: " + e.getMessage(), e);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.snowfleet.hibernate.SnowfleetHibernate")
    static class HibernateIds {
        /**
         * The beans in the session factory's settings: each application context's entities
         * mint with its own generators, however many contexts a JVM holds (tests).
         */
        @Bean
        HibernatePropertiesCustomizer snowfleetHibernateProperties(Generator ids, Uuid7Generator uuids) {
            return settings -> {
                settings.put(SnowfleetHibernate.GENERATOR, ids);
                settings.put(SnowfleetHibernate.UUID7_GENERATOR, uuids);
            };
        }

        /** The beans as the process's too, for session factories built without Spring Boot's JPA. */
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
