// The UUIDv7 generator for Java: type conversion only (see uuid7.hpp).
#include "uuid7.hpp"

#include <cstring>
#include <new>
#include <vector>

namespace snowfleet_java {
namespace {

jlongArray new_long_array(JNIEnv* env, const jlong* values, jsize n) {
  jlongArray out = env->NewLongArray(n);
  if (out == nullptr) throw std::bad_alloc();  // OutOfMemoryError stays pending
  env->SetLongArrayRegion(out, 0, n, values);
  return out;
}

jlongArray fields(JNIEnv* env, const snowfleet::Uuid& u) {
  const snowfleet::Uuid7Fields f = snowfleet::decode_uuid7(u);
  const jlong v[5] = {f.timestamp_ms, f.counter, f.random, static_cast<jlong>(u.hi),
                      static_cast<jlong>(u.lo)};
  return new_long_array(env, v, 5);
}

}  // namespace

void NativeUuid7Args::set_clock(NativeScriptedClock* clock) {
  options_.clock = clock == nullptr ? nullptr : clock->clock();
}
void NativeUuid7Args::set_random(NativeScriptedRandom* random) {
  options_.random = random == nullptr ? nullptr : random->random();
}

jlongArray NativeUuid7Generator::next_uuid7s(JNIEnv* env, int64_t n) {
  const size_t count = gen_.batch_size(n);  // closed first, then n's range
  // 2n longs: n <= 2^24, so the size fits a jsize.
  const jsize size = static_cast<jsize>(2 * count);
  jlongArray out = env->NewLongArray(size);
  if (out == nullptr) throw std::bad_alloc();  // OutOfMemoryError stays pending
  std::vector<snowfleet::Uuid> buf(count);     // before any UUID is reserved
  gen_.next(buf.data(), count);
  // Uuid is {hi, lo} of uint64_t: the layout of the long[] (static_assert below).
  static_assert(sizeof(snowfleet::Uuid) == 2 * sizeof(jlong), "Uuid must be two longs");
  env->SetLongArrayRegion(out, 0, size, reinterpret_cast<const jlong*>(buf.data()));
  return out;
}

jlongArray NativeUuid7Generator::stats(JNIEnv* env) const {
  const snowfleet::Stats s = gen_.stats();
#define SNOWFLEET_X_VALUE(name, camel, kind, init, doc) static_cast<jlong>(s.name),
  const jlong v[] = {SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_VALUE)};
#undef SNOWFLEET_X_VALUE
  return new_long_array(env, v, static_cast<jsize>(sizeof v / sizeof v[0]));
}

jobjectArray NativeUuid7Generator::status(JNIEnv* env) {
  return status_array(env, gen_.status());
}

void uuid7_next_into(int64_t handle, JNIEnv* env, jlongArray out) {
  // SWIG stores the object pointer in the jlong's bits; undo exactly that.
  NativeUuid7Generator* g;
  static_assert(sizeof g <= sizeof handle, "pointer must fit a jlong");
  std::memcpy(&g, &handle, sizeof g);
  const snowfleet::Uuid u = g->next();
  const jlong v[2] = {static_cast<jlong>(u.hi), static_cast<jlong>(u.lo)};
  env->SetLongArrayRegion(out, 0, 2, v);
}

jlongArray uuid7_decode_text(JNIEnv* env, const std::string& text) {
  return fields(env, snowfleet::parse_uuid(text));
}

jlongArray uuid7_decode_bits(JNIEnv* env, int64_t hi, int64_t lo) {
  return fields(env, {static_cast<uint64_t>(hi), static_cast<uint64_t>(lo)});
}

}  // namespace snowfleet_java
