// SWIG interface of the tests' hook library, libsnowfleet_jni_test.so: generates
// dev.snowfleet.internal.jnitest.SnowfleetTestNative into the test sources, never into the
// jar. It loads the shipped library first (the registry and the exception classes' glue
// are the same), then its own.
%module SnowfleetTestNative

%{
#include "snowfleet_java.hpp"
#include "test_hooks.hpp"
%}

%include "snowfleet_common.i"

// The bare-call reference cannot throw; keep its wrapper minimal.
%noexception snowfleet_java::echo;

%pragma(java) jniclasscode=%{
  static {
    dev.snowfleet.internal.NativeLoader.load();
    dev.snowfleet.internal.jnitest.TestLibrary.load();
  }
%}

%include "test_hooks.hpp"
