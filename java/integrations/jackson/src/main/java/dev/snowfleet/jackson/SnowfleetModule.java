package dev.snowfleet.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.core.type.WritableTypeId;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.NopAnnotationIntrospector;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.snowfleet.InvalidArgumentException;
import dev.snowfleet.Snowfleet;
import java.io.IOException;
import java.lang.annotation.Annotation;

/**
 * Writes snowfleet ids as JSON strings where a property asks ({@link IdAsString}, or
 * Hibernate's {@code @SnowflakeId}), because a JavaScript client reads a JSON number above
 * 2^53 rounded; reads either a string (the core's rule: digits only, at most 2^63 - 1) or a
 * number back. Other {@code long}s stay numbers.
 *
 * <pre>{@code
 * ObjectMapper json = new ObjectMapper().registerModule(new SnowfleetModule());
 * record Order(@IdAsString long id, String note) {}
 * json.writeValueAsString(new Order(Long.MAX_VALUE, "x"));  // {"id":"9223372036854775807","note":"x"}
 * }</pre>
 *
 * Spring Boot registers it in its {@code ObjectMapper} when the snowfleet starter's
 * auto-configuration sees this jar.
 */
public final class SnowfleetModule extends SimpleModule {
    private static final long serialVersionUID = 1L;
    /** snowfleet-hibernate's @SnowflakeId, when that jar is on the class path. */
    private static final Class<? extends Annotation> HIBERNATE_ID = optionalAnnotation(
            "dev.snowfleet.hibernate.SnowflakeId");

    /** The module. */
    public SnowfleetModule() {
        super("snowfleet", Version.unknownVersion());
    }

    @Override
    public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.insertAnnotationIntrospector(new Introspector());
    }

    static boolean asksForText(Annotated a) {
        return a.hasAnnotation(IdAsString.class) || (HIBERNATE_ID != null && a.hasAnnotation(HIBERNATE_ID));
    }

    private static Class<? extends Annotation> optionalAnnotation(String name) {
        try {
            return Class.forName(name, false, SnowfleetModule.class.getClassLoader()).asSubclass(Annotation.class);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static final class Introspector extends NopAnnotationIntrospector {
        private static final long serialVersionUID = 1L;

        @Override
        public Object findSerializer(Annotated a) {
            return asksForText(a) && isLong(a.getRawType()) ? IdWriter.class : null;
        }

        @Override
        public Object findContentSerializer(Annotated a) {
            return asksForText(a) && !isLong(a.getRawType()) ? IdWriter.class : null;
        }

        @Override
        public Object findDeserializer(Annotated a) {
            return asksForText(a) && isLong(a.getRawType()) ? IdReader.class : null;
        }

        @Override
        public Object findContentDeserializer(Annotated a) {
            return asksForText(a) && !isLong(a.getRawType()) ? IdReader.class : null;
        }

        private static boolean isLong(Class<?> type) {
            return type == long.class || type == Long.class;
        }
    }

    /** Writes a long as its decimal string. */
    public static final class IdWriter extends JsonSerializer<Long> {
        @Override
        public void serialize(Long value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(Long.toString(value));
        }

        /** Under default typing: the string with the type id Long's own serializer would write. */
        @Override
        public void serializeWithType(Long value, JsonGenerator gen, SerializerProvider serializers,
                TypeSerializer typeSer) throws IOException {
            WritableTypeId typeId = typeSer.writeTypePrefix(gen, typeSer.typeId(value, JsonToken.VALUE_STRING));
            serialize(value, gen, serializers);
            typeSer.writeTypeSuffix(gen, typeId);
        }
    }

    /** Reads an id from a decimal string (the core's rule) or an integer number. */
    public static final class IdReader extends JsonDeserializer<Long> {
        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken t = p.currentToken();
            if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_STRING) {
                String text = p.getText();
                try {
                    return Snowfleet.parseId(text);
                } catch (InvalidArgumentException e) {
                    return (Long) ctxt.handleWeirdStringValue(Long.class, text, e.getMessage());
                }
            }
            return (Long) ctxt.handleUnexpectedToken(Long.class, p);
        }
    }
}
