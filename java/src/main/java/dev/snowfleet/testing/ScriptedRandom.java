package dev.snowfleet.testing;

import dev.snowfleet.internal.Natives;
import dev.snowfleet.internal.jni.NativeScriptedRandom;

/**
 * The core's scripted random source, for deterministic tests: splitmix64's sequence from a
 * seed (the key is its first two words, then one word per UUID), so with a
 * {@link ScriptedClock} every UUID is known in advance. Thread-safe; generators built with
 * the same instance draw from one sequence. Not random: never use it outside tests. Pass it
 * to {@code Uuid7Generator.builder().random(...)}.
 */
public final class ScriptedRandom {
    static {
        Natives.setRandomHandles(r -> ((ScriptedRandom) r).handle);
    }

    private final NativeScriptedRandom handle;

    /** The sequence from {@code seed} (read as unsigned 64 bits). */
    public ScriptedRandom(long seed) {
        handle = new NativeScriptedRandom(seed);
        Natives.freeRandomWhenUnreachable(handle, NativeScriptedRandom.getCPtr(handle));
    }

    /** 64-bit words handed out so far. */
    public long draws() {
        return handle.draws();
    }
}
