// The narrow, SWIG-friendly facade the Java package is generated from.
//
// Glue only: every function converts types between JNI and snowfleet's public API and
// does nothing else. Layouts cross as their five defining fields (the core validates
// them); batches, stats and decoded ids cross as Java long[] filled in one JNI call, so
// nothing is copied element by element through a SWIG proxy. Every C++ exception is
// turned into a Java exception by the %exception handler in snowfleet_java.i, which calls
// throw_java_exception() below.
#pragma once

#include <jni.h>

#include <cstdint>
#include <memory>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_java {

// ---- errors ----------------------------------------------------------------------------

/// Number of entries in snowfleet::error_kinds().
int error_kind_count();
/// Columns of snowfleet::error_kinds()[index]: stable code, class name, category.
std::string error_kind_code(int index);
std::string error_kind_name(int index);
std::string error_kind_category(int index);
/// The JNI name of the Java class an error kind maps to: "dev/snowfleet/" + name +
/// "Exception". The one place this rule is written down.
std::string exception_class_name(int index);

/// Java String <-> UTF-8 std::string (the core's encoding). Modified UTF-8 (what
/// GetStringUTFChars gives) would hand the core CESU surrogates and C0 80 for NUL. On
/// failure both leave a Java exception pending: from_jstring returns false, to_jstring null.
bool from_jstring(JNIEnv* env, jstring in, std::string* out) noexcept;
jstring to_jstring(JNIEnv* env, const std::string& s) noexcept;

/// Throws the Java exception for a core error (class from exception_class_name, message
/// and drift from the error). Falls back to InternalErrorException, then
/// RuntimeException, if a class cannot be found or constructed.
void throw_java_exception(JNIEnv* env, const snowfleet::Error& error) noexcept;
/// Throws dev.snowfleet.InternalErrorException for any other C++ exception.
void throw_java_internal(JNIEnv* env, const char* what) noexcept;
/// Throws java.lang.OutOfMemoryError for a std::bad_alloc: the JVM's own answer to memory
/// running out, which callers already handle, rather than an internal error.
void throw_java_out_of_memory(JNIEnv* env) noexcept;

/// Test hooks: throw a snowfleet::Error of kind `index`, a std::runtime_error, a
/// std::bad_alloc, or a non-std exception, so the tests can prove none of them crosses JNI
/// uncaught.
void throw_error_for_test(int index, const std::string& message, int64_t drift_ms);
void throw_std_exception_for_test(const std::string& message);
void throw_bad_alloc_for_test();
void throw_unknown_for_test();
/// Returns its argument: the cost of one bare JNI call, and the int64 <-> long check.
int64_t echo(int64_t value);
/// NativeGenerator objects not yet freed (the tests watch the Cleaner free them).
int64_t live_generators();

// ---- layout and codec ------------------------------------------------------------------

/// Every property of a layout, as long[14]: epoch_ms, timestamp_bits, datacenter_bits,
/// machine_bits, sequence_bits, node_bits, node_shift, timestamp_shift, max_node_id,
/// max_datacenter_id, max_machine_id, max_sequence, max_elapsed_ms, max_timestamp_ms.
jlongArray layout_parse(JNIEnv* env, const std::string& text);
jlongArray layout_create(JNIEnv* env, int64_t epoch_ms, int timestamp_bits, int node_bits,
                         int sequence_bits);
jlongArray layout_create_split(JNIEnv* env, int64_t epoch_ms, int timestamp_bits,
                               int datacenter_bits, int machine_bits, int sequence_bits);
std::string layout_text(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                        int sequence_bits);
std::string layout_preset(int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                          int machine_bits, int sequence_bits);

int64_t compose(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                int sequence_bits, int64_t timestamp_ms, int64_t node_id, int64_t sequence);
int64_t compose_split(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                      int sequence_bits, int64_t timestamp_ms, int64_t datacenter_id,
                      int64_t machine_id, int64_t sequence);
/// long[5]: timestamp_ms, node_id, datacenter_id, machine_id, sequence.
jlongArray decode(JNIEnv* env, int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                  int machine_bits, int sequence_bits, int64_t id);
int64_t parse_id(const std::string& text);
/// Unix ms of an RFC 3339 date-time (snowfleet::parse_iso8601).
int64_t parse_iso8601(const std::string& text);

/// The core's GeneratorOptions defaults, so the Java builder starts from the same values.
double default_max_wait_ms();
int64_t default_max_drift_ms();

/// 0 for "strict", 1 for "monotonic"; INVALID_ARGUMENT otherwise.
int parse_mode(const std::string& text);
std::string mode_name(int mode);
/// The core's name of LeaseState `state` ("none", "held", ...); "" past the last one, so
/// dev.snowfleet.LeaseState can check its constants against the core.
std::string lease_state_name(int state);

// ---- clock -----------------------------------------------------------------------------

/// The core's ScriptedClock. Segments cross as long[4 * k]: ms, count, step_ms, every.
class NativeScriptedClock {
 public:
  explicit NativeScriptedClock(int64_t ms);
  NativeScriptedClock(JNIEnv* env, jlongArray segments);
  void set_script(JNIEnv* env, jlongArray segments);
  void append(int64_t ms, int64_t count, int64_t step_ms, int64_t every);
  void set_wall_ms(int64_t ms) { clock_->set_wall_ms(ms); }
  void advance_wall_ms(int64_t delta_ms) { clock_->advance_wall_ms(delta_ms); }
  int64_t peek_wall_ms() const { return clock_->peek_wall_ms(); }
  int64_t wall_ns() { return clock_->wall_ns(); }
  int64_t monotonic_ns() { return clock_->monotonic_ns(); }
  int64_t reads() const { return clock_->reads(); }
  int64_t sleep_count() const { return clock_->sleep_count(); }
  int64_t slept_ns() const { return clock_->slept_ns(); }
  int64_t max_sleep_ns() const { return clock_->max_sleep_ns(); }
  int64_t min_sleep_ns() const { return clock_->min_sleep_ns(); }
#ifndef SWIG
  const std::shared_ptr<snowfleet::ScriptedClock>& clock() const { return clock_; }
#endif

 private:
  std::shared_ptr<snowfleet::ScriptedClock> clock_;
};

// ---- generator -------------------------------------------------------------------------

/// A snowfleet::Generator. Java keeps it alive for as long as any proxy call may run
/// (see dev.snowfleet.Generator), so close() only stops it and frees nothing.
class NativeGenerator {
 public:
  /// `clock` may be null (the system clock); `mode` is the core's text form.
  NativeGenerator(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                  int sequence_bits, int64_t node_id, const std::string& node_source,
                  const std::string& mode, double max_wait_ms, int64_t max_drift_ms,
                  NativeScriptedClock* clock);
  ~NativeGenerator();
  NativeGenerator(const NativeGenerator&) = delete;
  NativeGenerator& operator=(const NativeGenerator&) = delete;

  int64_t next_id() { return gen_.next_id(); }
  /// A new long[n] filled by one core call. n outside [0, kMaxBatch] is INVALID_ARGUMENT.
  /// The array and the buffer are allocated before any id is reserved, so when either
  /// cannot be (OutOfMemoryError) the generator's state and counters are unchanged.
  jlongArray next_ids(JNIEnv* env, int64_t n);
  /// long[9]: ids_issued, rewinds_seen, waits, waited_ns_total, waited_ns_max, refusals,
  /// ms_borrowed, mark_writes, lease_refusals.
  jlongArray stats(JNIEnv* env) const;
  /// Fills out[0..9): healthy (0/1), wall_ms, last_ms, drift_ms, node_id, mode,
  /// lease_state, mark_ms, lease_expires_in_ms; returns the reason. One clock reading, as
  /// in the core.
  std::string status(JNIEnv* env, jlongArray out);
  int64_t drift_ms() { return gen_.drift_ms(); }
  int64_t node_id() const { return gen_.node_id(); }
  int mode() const { return static_cast<int>(gen_.mode()); }
  double max_wait_ms() const { return gen_.max_wait_ms(); }
  int64_t max_drift_ms() const { return gen_.max_drift_ms(); }
  /// The generator's layout, as layout_parse() describes it.
  jlongArray layout(JNIEnv* env) const;
  void close() { gen_.close(); }
  bool closed() const { return gen_.closed(); }

 private:
  snowfleet::Generator gen_;
};

/// The hot path as a plain static call: `handle` is NativeGenerator.getCPtr(proxy). A proxy
/// method would also pass the proxy object, which HotSpot must wrap in a JNI handle on every
/// call (~5 ns here); dev.snowfleet.Generator keeps the proxy reachable with
/// Reference.reachabilityFence instead.
int64_t generator_next_id(int64_t handle);

}  // namespace snowfleet_java
