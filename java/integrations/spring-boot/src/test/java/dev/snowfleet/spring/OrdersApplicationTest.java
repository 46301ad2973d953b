package dev.snowfleet.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.snowfleet.Generator;
import dev.snowfleet.Snowfleet;
import dev.snowfleet.spring.app.OrdersApplication;
import dev.snowfleet.spring.app.PurchaseOrder;
import dev.snowfleet.spring.app.Receipt;
import dev.snowfleet.spring.app.OrderRepository;
import dev.snowfleet.spring.app.ReceiptRepository;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The Spring Boot test app on the test area's PostgreSQL: ids minted by @SnowflakeId arrive in
 * the table and in the JSON unchanged (a JavaScript client reads the JSON exactly), 2^63 - 1
 * included; the health indicator and the meters come from the generator bean.
 */
@SpringBootTest(classes = OrdersApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrdersApplicationTest {
    static final long MAX_ID = Long.MAX_VALUE;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort int port;
    @Autowired OrderRepository orders;
    @Autowired ReceiptRepository receipts;
    @Autowired JdbcTemplate db;
    @Autowired Generator generator;

    HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json");
        r.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void idsArriveInPostgresqlAndInJsonUnchanged() throws Exception {
        List<Long> minted = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> made = call("POST", "/orders",
                    "{\"customerId\":\"9223372036854775807\",\"note\":\"n" + i + "\"}");
            assertEquals(200, made.statusCode(), made.body());
            JsonNode o = JSON.readTree(made.body());
            assertTrue(o.get("id").isTextual() && o.get("customerId").isTextual(), made.body());
            minted.add(Long.parseLong(o.get("id").asText()));
            assertEquals(MAX_ID, Long.parseLong(o.get("customerId").asText()));
        }
        assertEquals(minted.stream().sorted().toList(), minted);
        for (long id : minted) assertEquals(5, Snowfleet.decode(id).nodeId());

        PurchaseOrder top = new PurchaseOrder();
        top.setId(MAX_ID);  // an assigned id is kept
        top.setCustomerId(minted.get(0));
        top.setNote("max");
        orders.save(top);
        List<String> stored = db.queryForList("SELECT id::text FROM orders ORDER BY id", String.class);
        List<String> expected = new ArrayList<>(minted.stream().map(String::valueOf).toList());
        expected.add(Long.toString(MAX_ID));
        assertEquals(expected, stored);

        HttpResponse<String> read = call("GET", "/orders/" + MAX_ID, null);
        assertEquals("{\"id\":\"9223372036854775807\",\"customerId\":\"" + minted.get(0) + "\",\"note\":\"max\"}",
                read.body());
        String js = jsClientReads(read.body(), "id=" + MAX_ID, "customerId=" + minted.get(0));
        assertTrue(js.contains("id = 9223372036854775807 exactly"), js);
    }

    @Test
    void uuid7KeysArePersisted() {
        Receipt r = new Receipt();
        r.setNote("paid");
        UUID id = receipts.save(r).getId();
        assertEquals(7, id.version());
        assertEquals(id.toString(), db.queryForObject("SELECT id::text FROM receipt", String.class));
    }

    @Test
    void healthAndMetricsComeFromTheGenerator() throws Exception {
        generator.nextId();
        JsonNode health = JSON.readTree(call("GET", "/actuator/health/readiness", null).body());
        assertEquals("UP", health.get("status").asText(), health.toString());
        JsonNode sf = health.get("components").get("snowfleet");
        assertEquals("UP", sf.get("status").asText());
        assertEquals(5, sf.get("details").get("nodeId").asLong());
        assertEquals("none", sf.get("details").get("leaseState").asText());
        JsonNode issued = JSON.readTree(call("GET", "/actuator/metrics/snowfleet.ids.issued", null).body());
        assertTrue(issued.get("measurements").get(0).get("value").asDouble() >= 1, issued.toString());
        assertEquals("5", issued.get("availableTags").get(0).get("values").get(0).asText());
    }

    /** Runs tests/frameworks/js_client.js on a JSON body: each id must read exactly. */
    static String jsClientReads(String body, String... expected) throws Exception {
        File client = new File(System.getProperty("snowfleet.repo"), "tests/frameworks/js_client.js");
        List<String> cmd = new ArrayList<>(List.of("node", client.getPath()));
        cmd.addAll(List.of(expected));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
