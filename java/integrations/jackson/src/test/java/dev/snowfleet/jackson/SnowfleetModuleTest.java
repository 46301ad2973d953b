package dev.snowfleet.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnowfleetModuleTest {
    final ObjectMapper json = new ObjectMapper().registerModule(new SnowfleetModule());

    public record Order(@IdAsString long id, @IdAsString Long customerId, @IdAsString List<Long> lines, long count) {}

    public static class Bean {
        @IdAsString private Long id;
        public Long getId() { return id; }
        public void setId(Long id) { this.id = id; }
    }

    @Test
    void idsThatAskAreWrittenAsStringsAndReadFromEither() throws Exception {
        Order o = new Order(Long.MAX_VALUE, 7L, List.of(1L, Long.MAX_VALUE), 3);
        String text = json.writeValueAsString(o);
        assertEquals("{\"id\":\"9223372036854775807\",\"customerId\":\"7\",\"lines\":[\"1\",\"9223372036854775807\"],\"count\":3}", text);
        assertEquals(o, json.readValue(text, Order.class));
        assertEquals(o, json.readValue("{\"id\":9223372036854775807,\"customerId\":7,\"lines\":[1,\"9223372036854775807\"],\"count\":3}", Order.class));
        Bean b = new Bean();
        b.setId(Long.MAX_VALUE);
        assertEquals("{\"id\":\"9223372036854775807\"}", json.writeValueAsString(b));
        assertEquals(Long.MAX_VALUE, json.readValue("{\"id\":\"9223372036854775807\"}", Bean.class).getId());
    }

    @Test
    void badIdsAreRefusedNamingTheText() {
        for (String bad : new String[] {"\"9223372036854775808\"", "\"-1\"", "\"12ab\"", "-1"}) {
            JsonMappingException e = assertThrows(JsonMappingException.class,
                    () -> json.readValue("{\"id\":" + bad + ",\"customerId\":null,\"lines\":[],\"count\":0}", Order.class));
            assertEquals(true, e.getMessage().contains(bad.replace("\"", "")), e.getMessage());
        }
    }
}
