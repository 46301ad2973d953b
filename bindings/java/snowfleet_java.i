// SWIG interface for the Java package: generates dev.snowfleet.internal.jni.* (proxies and
// the JNI class) and the C++ JNI wrapper from the facade in snowfleet_java.hpp. Users never
// see these classes; the hand-written API in java/src/main/java/dev/snowfleet wraps them.
%module SnowfleetNative

%{
#include "snowfleet_java.hpp"
#include "text_range.hpp"
#include "uuid7.hpp"
%}

%include "snowfleet_common.i"

// Proxies are internal: dev.snowfleet needs getCPtr() to free them through a Cleaner.
SWIG_JAVABODY_PROXY(protected, public, SWIGTYPE)

// Exception plumbing and the core's shared_ptr stay on the C++ side.
%ignore snowfleet_java::throw_java_exception;
%ignore snowfleet_java::throw_java_internal;
%ignore snowfleet_java::throw_java_out_of_memory;
%ignore snowfleet_java::from_bytes;
%ignore snowfleet_java::to_bytes;
%ignore snowfleet_java::to_jstring;
%ignore snowfleet_java::NativeScriptedClock::clock;
%ignore snowfleet_java::NativeScriptedRandom::random;
%ignore snowfleet_java::NativeUuid7Args::options;
%ignore snowfleet_java::NativeUuid7Generator::next;

// No finalize() on any proxy: dev.snowfleet frees native objects through a Cleaner.
%typemap(javafinalize) SWIGTYPE ""

// Load the native library before the first native method is linked, and refuse one from
// another release than the jar's.
%pragma(java) jniclasscode=%{
  static {
    dev.snowfleet.internal.NativeLoader.load();
    dev.snowfleet.internal.NativeLoader.checkVersion(
        new String(coreVersion(), java.nio.charset.StandardCharsets.UTF_8));
  }
%}

%include "snowfleet_java.hpp"
%include "text_range.hpp"
%include "uuid7.hpp"
