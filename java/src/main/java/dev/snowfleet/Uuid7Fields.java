package dev.snowfleet;

import java.time.Instant;
import java.util.UUID;

/**
 * What a UUIDv7 carries (see {@link Uuid7#decode(String)}).
 *
 * @param timestampMs unix_ts_ms: Unix milliseconds, 48 bits
 * @param counter the 26-bit counter (rand_a and the top 14 bits of rand_b)
 * @param random the 48 random bits below it
 * @param uuid the decoded UUID ({@code toString()} is its canonical lowercase text)
 */
public record Uuid7Fields(long timestampMs, long counter, long random, UUID uuid) {
    /** The timestamp as an {@link Instant}. */
    public Instant instant() {
        return Instant.ofEpochMilli(timestampMs);
    }
}
