package dev.snowfleet;

import dev.snowfleet.internal.jni.SnowfleetNative;
import java.util.Objects;
import java.util.UUID;

/** Decoding RFC 9562 UUIDv7s (any generator's, not only {@link Uuid7Generator}'s). */
public final class Uuid7 {
    private Uuid7() {}

    /**
     * The fields of a UUIDv7 given as text: the canonical form in either case, or 32 hex
     * digits without hyphens.
     *
     * @throws InvalidArgumentException for malformed text (quoting it and naming what is
     *     wrong), or a UUID of another version or variant (naming it and its version)
     */
    public static Uuid7Fields decode(String text) {
        return fields(SnowfleetNative.uuid7DecodeText(Objects.requireNonNull(text, "text")));
    }

    /**
     * The fields of a UUIDv7.
     *
     * @throws InvalidArgumentException for a UUID of another version or variant, naming it
     */
    public static Uuid7Fields decode(UUID uuid) {
        Objects.requireNonNull(uuid, "uuid");
        return fields(SnowfleetNative.uuid7DecodeBits(uuid.getMostSignificantBits(),
                uuid.getLeastSignificantBits()));
    }

    private static Uuid7Fields fields(long[] f) {
        return new Uuid7Fields(f[0], f[1], f[2], new UUID(f[3], f[4]));
    }
}
