package dev.snowfleet;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Builds {@link Stats} and {@link Status} from the values the core hands over in the order of
 * its field lists (SNOWFLEET_STATS_FIELDS, SNOWFLEET_STATUS_FIELDS): value i goes to record
 * component i, converted to the component's type. The records' declarations are the only
 * Java copy of the lists, and FieldsTest checks their names and order against the core's.
 */
final class FieldRecords<R extends Record> {
    static final FieldRecords<Stats> STATS = new FieldRecords<>(Stats.class);
    static final FieldRecords<Status> STATUS = new FieldRecords<>(Status.class);

    private final Class<R> type;
    private final Class<?>[] types;
    private final MethodHandle constructor;

    private FieldRecords(Class<R> type) {
        this.type = type;
        types = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getType)
                .toArray(Class<?>[]::new);
        try {
            constructor = MethodHandles.lookup()
                    .findConstructor(type, MethodType.methodType(void.class, types))
                    .asSpreader(Object[].class, types.length);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The record of `values`, the core's fields in its order. */
    R of(Object[] values) {
        if (values.length != types.length) {
            throw new InternalErrorException(type.getSimpleName() + " has " + types.length
                    + " components but the core gave " + values.length + " fields");
        }
        Object[] args = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            args[i] = convert(types[i], values[i]);
        }
        try {
            return type.cast(constructor.invoke(args));
        } catch (Throwable e) {
            throw new InternalErrorException(type.getSimpleName() + ": " + e);
        }
    }

    /** As {@link #of(Object[])}, for a record of longs. */
    R of(long[] values) {
        return of(Arrays.stream(values).boxed().toArray());
    }

    private static Object convert(Class<?> to, Object value) {
        if (to == Mode.class) {
            return Mode.parse((String) value);
        }
        if (to == LeaseState.class) {
            return LeaseState.fromText((String) value);
        }
        return value;  // Boolean, Long, String: the types the facade crosses with
    }
}
