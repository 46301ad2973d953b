// JNI facade of the UUIDv7 generator (wrapped by SWIG through snowfleet_java.i;
// dev.snowfleet.Uuid7Generator, Uuid7 and testing.ScriptedRandom call it). A UUID crosses as
// its two big-endian halves in a long[] (java.util.UUID's most/least significant bits), so
// nothing is formatted or parsed on the hot path; every rule is the core's.
#pragma once

#include <jni.h>

#include <cstdint>
#include <memory>
#include <string>

#include "snowfleet/snowfleet.hpp"
#include "snowfleet_java.hpp"

namespace snowfleet_java {

/// The core's ScriptedRandom (splitmix64 from a seed), for tests: shared by every generator
/// built with it, as in the core.
class NativeScriptedRandom {
 public:
  explicit NativeScriptedRandom(int64_t seed)
      : random_(std::make_shared<snowfleet::ScriptedRandom>(static_cast<uint64_t>(seed))) {}
  int64_t draws() const { return random_->draws(); }
#ifndef SWIG
  const std::shared_ptr<snowfleet::ScriptedRandom>& random() const { return random_; }
#endif

 private:
  std::shared_ptr<snowfleet::ScriptedRandom> random_;
};

/// snowfleet::Uuid7Options, filled one given option at a time by dev.snowfleet's builder:
/// an option left unset keeps the core's default.
class NativeUuid7Args {
 public:
  void set_mode(const std::string& v) { options_.mode = snowfleet::parse_mode(v); }
  void set_max_wait_ms(double v) { options_.max_wait_ms = v; }
  void set_max_drift_ms(int64_t v) { options_.max_drift_ms = v; }
  void set_clock(NativeScriptedClock* clock);
  void set_random(NativeScriptedRandom* random);
#ifndef SWIG
  const snowfleet::Uuid7Options& options() const { return options_; }
#endif

 private:
  snowfleet::Uuid7Options options_;
};

/// A snowfleet::Uuid7Generator. As NativeGenerator, Java keeps it alive while any call may
/// run, so close() only stops it.
class NativeUuid7Generator {
 public:
  explicit NativeUuid7Generator(const NativeUuid7Args& args) : gen_(args.options()) {}
  NativeUuid7Generator(const NativeUuid7Generator&) = delete;
  NativeUuid7Generator& operator=(const NativeUuid7Generator&) = delete;

  /// A new long[2 * n]: the halves (hi, lo) of n ascending UUIDs, from one core call. The
  /// core's batch_size(n) answers first, and everything is allocated before a UUID is
  /// reserved, as in NativeGenerator::next_ids.
  jlongArray next_uuid7s(JNIEnv* env, int64_t n);
  /// The Stats fields as long[], in SNOWFLEET_STATS_FIELDS order.
  jlongArray stats(JNIEnv* env) const;
  /// The Status fields as Object[], as NativeGenerator::status.
  jobjectArray status(JNIEnv* env);
  int mode() const { return static_cast<int>(gen_.mode()); }
  double max_wait_ms() const { return gen_.max_wait_ms(); }
  int64_t max_drift_ms() const { return gen_.max_drift_ms(); }
  void close() { gen_.close(); }
  bool closed() const { return gen_.closed(); }
#ifndef SWIG
  snowfleet::Uuid next() { return gen_.next(); }
#endif

 private:
  snowfleet::Uuid7Generator gen_;
};

/// The hot path as a plain static call (see generator_next_id): `handle` is
/// NativeUuid7Generator.getCPtr(proxy); writes the next UUID's hi, lo into out[0..2).
void uuid7_next_into(int64_t handle, JNIEnv* env, jlongArray out);

/// long[5] of decode_uuid7(parse_uuid(text)): timestamp_ms, counter, random, hi, lo (the
/// parsed UUID, whose text Java prints canonically).
jlongArray uuid7_decode_text(JNIEnv* env, const std::string& text);
/// As uuid7_decode_text, of a UUID given as its halves.
jlongArray uuid7_decode_bits(JNIEnv* env, int64_t hi, int64_t lo);

}  // namespace snowfleet_java
