// SWIG interface for the Java package: generates dev.snowfleet.internal.jni.* (proxies and
// the JNI class) and the C++ JNI wrapper from the facade in snowfleet_java.hpp. Users never
// see these classes; the hand-written API in java/src/main/java/dev/snowfleet wraps them.
%module SnowfleetNative

%{
#include "snowfleet_java.hpp"
%}

// int64_t -> long and int -> int. stdint.i without SWIGWORDSIZE64 maps int64_t to
// long long, hence to jlong; SWIGWORDSIZE64 would map it to `long` and so to Java int.
%include <stdint.i>
%include <std_string.i>

// Strings cross as real UTF-8 (see from_jstring/to_jstring), not modified UTF-8.
%typemap(in) const std::string& (std::string temp) %{
  if (!snowfleet_java::from_jstring(jenv, $input, &temp)) return $null;
  $1 = &temp;
%}
%typemap(out) std::string %{
  $result = snowfleet_java::to_jstring(jenv, $1);
%}
%ignore snowfleet_java::from_jstring;
%ignore snowfleet_java::to_jstring;

// The wrapper supplies the JNIEnv; Java never passes it.
%typemap(in, numinputs=0) JNIEnv* env "$1 = jenv;"

// Proxies are internal: dev.snowfleet needs getCPtr() to free them through a Cleaner.
SWIG_JAVABODY_PROXY(protected, public, SWIGTYPE)

// Exception plumbing and the core's shared_ptr stay on the C++ side.
%ignore snowfleet_java::throw_java_exception;
%ignore snowfleet_java::throw_java_internal;
%ignore snowfleet_java::throw_java_out_of_memory;
%ignore snowfleet_java::NativeScriptedClock::clock;

// Java names in lowerCamelCase; classes keep theirs.
%rename("%(lowercamelcase)s", %$isfunction) "";

// No finalize() on any proxy: dev.snowfleet frees native objects through a Cleaner.
%typemap(javafinalize) SWIGTYPE ""

// Every wrapped call: a C++ exception becomes a Java exception and never crosses JNI.
// If a Java exception is already pending (an OutOfMemoryError from NewLongArray), keep it.
%exception {
  try {
    $action
  } catch (const snowfleet::Error& e) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_exception(jenv, e);
    return $null;
  } catch (const std::bad_alloc&) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_out_of_memory(jenv);
    return $null;
  } catch (const std::exception& e) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_internal(jenv, e.what());
    return $null;
  } catch (...) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_internal(jenv, "unknown C++ exception");
    return $null;
  }
}
// The bare-call reference cannot throw; keep its wrapper minimal.
%noexception snowfleet_java::echo;

// Load the native library before the first native method is linked.
%pragma(java) jniclasscode=%{
  static {
    dev.snowfleet.internal.NativeLoader.load();
  }
%}

%include "snowfleet_java.hpp"
