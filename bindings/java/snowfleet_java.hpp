// The narrow, SWIG-friendly facade the Java package is generated from.
//
// Glue only: every function converts types between JNI and snowfleet's public API and
// does nothing else; every rule (which options go together, ranges, defaults) is the
// core's. Layouts cross as their five defining fields (the core validates them); batches,
// stats and decoded ids cross as Java long[] filled in one JNI call, so nothing is copied
// element by element through a SWIG proxy. Strings cross as UTF-8 byte[] (the typemaps in
// snowfleet_java.i encode and decode them with java.nio's UTF-8 charset). Every C++
// exception is turned into a Java exception by the %exception handler in snowfleet_java.i,
// which calls throw_java_exception() below. Test hooks live in a library of their own
// (test_hooks.hpp), never in the one the jar ships.
#pragma once

#include <jni.h>

#include <cstdint>
#include <memory>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_java {

// ---- errors and strings ----------------------------------------------------------------

/// snowfleet::version(): NativeLoader compares it with the jar's Implementation-Version.
std::string core_version();

/// Number of entries in snowfleet::error_kinds().
int error_kind_count();
/// Columns of snowfleet::error_kinds()[index]: stable code, class name, category.
std::string error_kind_code(int index);
std::string error_kind_name(int index);
std::string error_kind_category(int index);
/// The JNI name of the Java class an error kind maps to: "dev/snowfleet/" + name +
/// "Exception". The one place this rule is written down.
std::string exception_class_name(int index);

/// UTF-8 bytes <-> Java byte[]. JNI's own string functions speak *modified* UTF-8 (NUL as
/// C0 80, supplementary characters as two 3-byte surrogates), which is not what the core
/// reads or writes, so strings cross as bytes and Java's UTF-8 charset converts them. On
/// failure both leave a Java exception pending: from_bytes returns false, to_bytes null.
bool from_bytes(JNIEnv* env, jbyteArray in, std::string* out) noexcept;
jbyteArray to_bytes(JNIEnv* env, const std::string& s) noexcept;
/// A java.lang.String of UTF-8 bytes, decoded by Java's charset (malformed bytes become
/// U+FFFD): for strings the glue builds itself (exception messages, Status.reason).
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

// ---- layout and codec ------------------------------------------------------------------

/// The camel names of SNOWFLEET_LAYOUT_FIELDS and SNOWFLEET_GENERATOR_ARGS (lists.h), in
/// order, comma-separated: dev.snowfleet's Layout and Generator check theirs against them.
std::string layout_fields();
std::string generator_args();

/// Every property of a layout, as long[] in SNOWFLEET_LAYOUT_FIELDS's order (layout_fields()).
jlongArray layout_parse(JNIEnv* env, const std::string& text);

/// snowfleet::LayoutArgs, filled one given field at a time: dev.snowfleet.Layout's builder
/// calls a setter only for a field the user set, so Layout::create(LayoutArgs) decides which
/// fields go together and checks every width as given (int64, nothing narrowed here).
class NativeLayoutArgs {
 public:
  void set_epoch_ms(int64_t v) { args_.epoch_ms = v; }
  void set_timestamp_bits(int64_t v) { args_.timestamp_bits = v; }
  void set_node_bits(int64_t v) { args_.node_bits = v; }
  void set_datacenter_bits(int64_t v) { args_.datacenter_bits = v; }
  void set_machine_bits(int64_t v) { args_.machine_bits = v; }
  void set_sequence_bits(int64_t v) { args_.sequence_bits = v; }
#ifndef SWIG
  const snowfleet::LayoutArgs& args() const { return args_; }
#endif

 private:
  snowfleet::LayoutArgs args_;
};

/// Layout::create(args), described as layout_parse() describes a layout.
jlongArray layout_create(JNIEnv* env, const NativeLayoutArgs& args);
std::string layout_text(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                        int sequence_bits);
std::string layout_preset(int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                          int machine_bits, int sequence_bits);

/// snowfleet::compose(layout, timestamp_ms, NodeArgs, sequence): each node field and the
/// sequence count only when their has_ flag is set, so the core sees exactly what the caller
/// gave (and applies its own default to an absent sequence).
int64_t compose(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                int sequence_bits, int64_t timestamp_ms, bool has_node_id, int64_t node_id,
                bool has_datacenter_id, int64_t datacenter_id, bool has_machine_id,
                int64_t machine_id, bool has_sequence, int64_t sequence);
/// long[5]: timestamp_ms, node_id, datacenter_id, machine_id, sequence.
jlongArray decode(JNIEnv* env, int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                  int machine_bits, int sequence_bits, int64_t id);
/// As decode(), of an id given as decimal text (the core's strict parser).
jlongArray decode_text(JNIEnv* env, int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                       int machine_bits, int sequence_bits, const std::string& id);
int64_t parse_id(const std::string& text);
/// Unix ms of an RFC 3339 date-time (snowfleet::parse_iso8601).
int64_t parse_iso8601(const std::string& text);

/// 0 for "strict", 1 for "monotonic"; INVALID_ARGUMENT otherwise.
int parse_mode(const std::string& text);
std::string mode_name(int mode);
/// The core's name of LeaseState `state` ("none", "held", ...); "" past the last one, so
/// dev.snowfleet.LeaseState can check its constants against the core.
std::string lease_state_name(int state);

#ifndef SWIG
/// A Status as Object[] in SNOWFLEET_STATUS_FIELDS order (boxed values; Mode and LeaseState
/// as their names), for Generator and Uuid7Generator alike.
jobjectArray status_array(JNIEnv* env, const snowfleet::Status& s);
#endif

/// The core's Stats / Status field lists (snowfleet::stats_fields(), status_fields()):
/// how many, and each one's snake_case and camelCase name, so Java's tests compare its
/// records with them.
int stats_field_count();
std::string stats_field_name(int index);
std::string stats_field_camel(int index);
int status_field_count();
std::string status_field_name(int index);
std::string status_field_camel(int index);

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
  void set_ticking(bool on) { clock_->set_ticking(on); }
  bool ticking() const { return clock_->ticking(); }
  int64_t wall_ns() { return clock_->wall_ns(); }
  int64_t monotonic_ns() { return clock_->monotonic_ns(); }
  void sleep_ns(int64_t ns) { clock_->sleep_ns(ns); }
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

/// snowfleet::GeneratorArgs, filled one given option at a time: dev.snowfleet.Generator's
/// builder calls a setter only for an option the user set, so an absent option stays
/// absent and resolve_options() applies the defaults and the rules.
class NativeGeneratorArgs {
 public:
  void set_layout(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                  int sequence_bits);
  void set_node_id(int64_t v) { args_.node_id = v; }
  void set_datacenter_id(int64_t v) { args_.datacenter_id = v; }
  void set_machine_id(int64_t v) { args_.machine_id = v; }
  void set_node_source(const std::string& v) { args_.node_source = v; }
  void set_mode(const std::string& v) { args_.mode = v; }
  void set_max_wait_ms(double v) { args_.max_wait_ms = v; }
  void set_max_drift_ms(int64_t v) { args_.max_drift_ms = v; }
  void set_clock(NativeScriptedClock* clock);
#ifndef SWIG
  const snowfleet::GeneratorArgs& args() const { return args_; }
#endif

 private:
  snowfleet::GeneratorArgs args_;
};

/// A snowfleet::Generator. Java keeps it alive for as long as any proxy call may run
/// (see dev.snowfleet.Generator), so close() only stops it and frees nothing.
class NativeGenerator {
 public:
  /// Generator(resolve_options(args)).
  explicit NativeGenerator(const NativeGeneratorArgs& args);
  NativeGenerator(const NativeGenerator&) = delete;
  NativeGenerator& operator=(const NativeGenerator&) = delete;

  int64_t next_id() { return gen_.next_id(); }
  /// A new long[n] filled by one core call. The core's batch_size(n) answers first (a
  /// closed generator, then n outside [0, 2^24]). The array and the buffer are allocated
  /// before any id is reserved, so when either cannot be (OutOfMemoryError) the
  /// generator's state and counters are unchanged.
  jlongArray next_ids(JNIEnv* env, int64_t n);
  /// The Stats fields as long[], in SNOWFLEET_STATS_FIELDS order.
  jlongArray stats(JNIEnv* env) const;
  /// The Status fields as Object[], in SNOWFLEET_STATUS_FIELDS order: Boolean, String,
  /// Long, and Mode / LeaseState as their core names. One clock reading, as in the core.
  jobjectArray status(JNIEnv* env);
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
