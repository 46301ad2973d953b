package dev.snowfleet;

import dev.snowfleet.internal.jni.SnowfleetNative;
import java.util.Objects;

/** How a {@link Generator} treats the clock. The constants mirror the core's enum, in order. */
public enum Mode {
    /**
     * Reads the wall clock for every id; waits out a rewind of up to maxWaitMs and refuses a
     * larger one; waits (bounded) for the next millisecond when one's sequence is spent.
     */
    STRICT,
    /**
     * A logical clock max(last, now) that borrows the next millisecond when a sequence runs
     * out; never waits unless it would run more than maxDriftMs ahead of the wall clock.
     */
    MONOTONIC;

    /** The core's name: "strict" or "monotonic". */
    public String text() {
        return SnowfleetNative.modeName(ordinal());
    }

    /**
     * Parses the core's name ("strict" / "monotonic").
     *
     * @throws InvalidArgumentException for anything else
     */
    public static Mode parse(String text) {
        return values()[SnowfleetNative.parseMode(Objects.requireNonNull(text, "text"))];
    }
}
