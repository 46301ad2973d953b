package dev.snowfleet.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowfleet.Snowfleet;
import dev.snowfleet.spring.app.OrderRepository;
import dev.snowfleet.spring.app.OrdersApplication;
import dev.snowfleet.spring.app.Parcel;
import dev.snowfleet.spring.app.ParcelRepository;
import dev.snowfleet.spring.app.PurchaseOrder;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * @SnowflakeId keys as Spring Data saves them: a primitive long key (0 until persisted), a
 * batch through saveAll, and the generator of this context even while another context of
 * the same application (Spring's test context cache holds several) starts and closes.
 */
@SpringBootTest(classes = OrdersApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HibernateKeysTest {
    @Autowired ParcelRepository parcels;
    @Autowired OrderRepository orders;

    static void mintedBy(int node, List<Long> ids) {
        assertEquals(ids.size(), ids.stream().distinct().count(), ids.toString());
        for (long id : ids) assertEquals(node, Snowfleet.decode(id).nodeId(), ids.toString());
    }

    @Test
    void primitiveLongKeysAreMintedInABatch() {
        List<Parcel> made = parcels.saveAll(IntStream.range(0, 20).mapToObj(i -> {
            Parcel p = new Parcel();
            p.setNote("p" + i);
            return p;
        }).toList());
        mintedBy(5, made.stream().map(Parcel::getId).toList());
        assertEquals(20, parcels.count());
    }

    @Test
    void anotherContextOfTheAppDoesNotTakeOverTheKeys() {
        ConfigurableApplicationContext other = new SpringApplicationBuilder(OrdersApplication.class)
                .web(WebApplicationType.NONE)
                .run("--snowfleet.node-id=6", "--spring.jpa.hibernate.ddl-auto=none");
        try {
            assertEquals(6, Snowfleet.decode(other.getBean(OrderRepository.class).save(new PurchaseOrder()).getId()).nodeId());
            assertEquals(5, Snowfleet.decode(orders.save(new PurchaseOrder()).getId()).nodeId());
        } finally {
            other.close();
        }
        PurchaseOrder after = orders.save(new PurchaseOrder());
        assertTrue(after.getId() != null);
        assertEquals(5, Snowfleet.decode(after.getId()).nodeId());
    }
}
