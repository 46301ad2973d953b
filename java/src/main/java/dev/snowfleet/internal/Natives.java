package dev.snowfleet.internal;

import dev.snowfleet.internal.jni.NativeScriptedClock;
import dev.snowfleet.internal.jni.NativeScriptedRandom;
import dev.snowfleet.internal.jni.SnowfleetNativeJNI;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Plumbing shared by dev.snowfleet and dev.snowfleet.testing. Not part of the public API.
 *
 * <p>Native objects are freed by a {@link Cleaner} registered on their SWIG proxy, never by
 * {@code finalize()} and never by {@code close()}: every proxy method passes the proxy to
 * its native call, so the proxy (and therefore the C++ object) stays reachable for as long
 * as any call on it runs, even when {@code close()} races with it on another thread.
 */
public final class Natives {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final AtomicLong LIVE_GENERATORS = new AtomicLong();
    private static volatile Function<Object, NativeScriptedClock> clockHandles;
    private static volatile Function<Object, NativeScriptedRandom> randomHandles;

    private Natives() {}

    /** Frees the C++ NativeGenerator behind {@code proxy} once the proxy is unreachable. */
    public static void freeGeneratorWhenUnreachable(Object proxy, long pointer) {
        LIVE_GENERATORS.incrementAndGet();
        CLEANER.register(proxy, () -> {
            SnowfleetNativeJNI.delete_NativeGenerator(pointer);
            LIVE_GENERATORS.decrementAndGet();
        });
    }

    /** Frees the C++ NativeUuid7Generator behind {@code proxy} once the proxy is unreachable. */
    public static void freeUuid7GeneratorWhenUnreachable(Object proxy, long pointer) {
        LIVE_GENERATORS.incrementAndGet();
        CLEANER.register(proxy, () -> {
            SnowfleetNativeJNI.delete_NativeUuid7Generator(pointer);
            LIVE_GENERATORS.decrementAndGet();
        });
    }

    /** Native generators whose C++ object the Cleaner has not yet deleted. */
    public static long liveGenerators() {
        return LIVE_GENERATORS.get();
    }

    /** Frees the C++ NativeScriptedClock behind {@code proxy} once the proxy is unreachable. */
    public static void freeClockWhenUnreachable(Object proxy, long pointer) {
        CLEANER.register(proxy, () -> SnowfleetNativeJNI.delete_NativeScriptedClock(pointer));
    }

    /** Set once by dev.snowfleet.testing.ScriptedClock's static initializer. */
    public static synchronized void setClockHandles(Function<Object, NativeScriptedClock> handles) {
        if (clockHandles != null) {
            throw new IllegalStateException("clock accessor already set");
        }
        clockHandles = handles;
    }

    /**
     * The native clock of a dev.snowfleet.testing.ScriptedClock. The class is initialized
     * (and so has registered its accessor) before any instance exists.
     */
    public static NativeScriptedClock clockHandle(Object scriptedClock) {
        return clockHandles.apply(scriptedClock);
    }

    /** Frees the C++ NativeScriptedRandom behind {@code proxy} once the proxy is unreachable. */
    public static void freeRandomWhenUnreachable(Object proxy, long pointer) {
        CLEANER.register(proxy, () -> SnowfleetNativeJNI.delete_NativeScriptedRandom(pointer));
    }

    /** Set once by dev.snowfleet.testing.ScriptedRandom's static initializer. */
    public static synchronized void setRandomHandles(Function<Object, NativeScriptedRandom> handles) {
        if (randomHandles != null) {
            throw new IllegalStateException("random accessor already set");
        }
        randomHandles = handles;
    }

    /** The native source of a dev.snowfleet.testing.ScriptedRandom (initialized, as clockHandle). */
    public static NativeScriptedRandom randomHandle(Object scriptedRandom) {
        return randomHandles.apply(scriptedRandom);
    }
}
