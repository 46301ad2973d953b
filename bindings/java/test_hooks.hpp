// Test and benchmark hooks for the Java package, built into libsnowfleet_jni_test.so (the
// snowfleet_jni_test target), which only the tests and the benchmark load: the jar's
// libsnowfleet_jni.so carries none of them.
#pragma once

#include <cstdint>
#include <string>

namespace snowfleet_java {

/// Throws a snowfleet::Error of kind `index` (INVALID_ARGUMENT for an index past the list),
/// so the tests can prove every kind reaches Java as its class with its message and drift.
void throw_error_for_test(int index, const std::string& message, int64_t drift_ms);
/// Throws a std::runtime_error, a std::bad_alloc, or a non-std exception: none may cross
/// JNI uncaught.
void throw_std_exception_for_test(const std::string& message);
void throw_bad_alloc_for_test();
void throw_unknown_for_test();
/// Throws an INVALID_ARGUMENT whose message is not valid UTF-8 ("cut \xc3 here"): a
/// message may carry bytes the core did not check, and the glue must not pass them on raw.
void throw_invalid_utf8_for_test();
/// Returns its argument: the cost of one bare JNI call, and the int64 <-> long check.
int64_t echo(int64_t value);
/// Returns its argument: a string's round trip through the glue's typemaps (Java String ->
/// UTF-8 bytes -> std::string -> bytes -> String).
std::string echo_text(const std::string& text);
/// The UTF-8 bytes the core receives for a Java String, as lowercase hex.
std::string utf8_hex_for_test(const std::string& text);

}  // namespace snowfleet_java
