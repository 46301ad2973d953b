package dev.snowfleet.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
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

    /** A mapper with default typing, as a Redis or Hazelcast cache of entities configures it. */
    static ObjectMapper typed(ObjectMapper.DefaultTyping typing) {
        return new ObjectMapper().registerModule(new SnowfleetModule()).activateDefaultTyping(
                BasicPolymorphicTypeValidator.builder().allowIfBaseType(Object.class).build(),
                typing, JsonTypeInfo.As.PROPERTY);
    }

    public static class Cached {
        @IdAsString public Long id;
        @IdAsString public List<Long> lines;
        public Object payload;
    }

    @Test
    void idsSurviveDefaultTyping() throws Exception {
        Cached c = new Cached();
        c.id = Long.MAX_VALUE;
        c.lines = new java.util.ArrayList<>(List.of(1L, Long.MAX_VALUE));
        c.payload = "x";
        for (ObjectMapper.DefaultTyping typing : new ObjectMapper.DefaultTyping[] {
                ObjectMapper.DefaultTyping.NON_FINAL, ObjectMapper.DefaultTyping.EVERYTHING}) {
            ObjectMapper m = typed(typing);
            String text = m.writeValueAsString(c);
            assertEquals(true, text.contains("\"9223372036854775807\""), typing + ": " + text);
            Cached back = m.readValue(text, Cached.class);
            assertEquals(c.id, back.id, typing + ": " + text);
            assertEquals(c.lines, back.lines, typing + ": " + text);
        }
    }
}
