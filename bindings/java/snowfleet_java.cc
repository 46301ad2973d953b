// The Java facade: type conversion only (see snowfleet_java.hpp); strings and error mapping
// are in jni_support.cc.
#include "snowfleet_java.hpp"

#include <atomic>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace snowfleet_java {
namespace {

constexpr int kLayoutFields = 14;
std::atomic<int64_t> g_live_generators{0};

snowfleet::Layout make_layout(int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                              int machine_bits, int sequence_bits) {
  // The Java Layout always came from the core, so this only rebuilds a valid value; the
  // core validates again anyway.
  if (datacenter_bits == 0)
    return snowfleet::Layout::create(epoch_ms, timestamp_bits, machine_bits, sequence_bits);
  return snowfleet::Layout::create_split(epoch_ms, timestamp_bits, datacenter_bits, machine_bits,
                                         sequence_bits);
}

jlongArray new_long_array(JNIEnv* env, const jlong* values, jsize n) {
  jlongArray out = env->NewLongArray(n);
  if (out == nullptr) throw std::bad_alloc();  // OutOfMemoryError stays pending
  env->SetLongArrayRegion(out, 0, n, values);
  return out;
}

jlongArray describe(JNIEnv* env, const snowfleet::Layout& l) {
  const jlong v[kLayoutFields] = {l.epoch_ms(),          l.timestamp_bits(),  l.datacenter_bits(),
                                  l.machine_bits(),      l.sequence_bits(),   l.node_bits(),
                                  l.node_shift(),        l.timestamp_shift(), l.max_node_id(),
                                  l.max_datacenter_id(), l.max_machine_id(),  l.max_sequence(),
                                  l.max_elapsed_ms(),    l.max_timestamp_ms()};
  return new_long_array(env, v, kLayoutFields);
}

std::vector<snowfleet::ScriptedClock::Segment> segments_of(JNIEnv* env, jlongArray flat) {
  if (flat == nullptr)
    throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument, "clock script is null");
  const jsize n = env->GetArrayLength(flat);
  if (n % 4 != 0)
    throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                           "clock script must hold 4 values per segment, got " + std::to_string(n));
  std::vector<jlong> v(static_cast<size_t>(n));
  env->GetLongArrayRegion(flat, 0, n, v.data());
  std::vector<snowfleet::ScriptedClock::Segment> script;
  for (jsize i = 0; i < n; i += 4) script.push_back({v[i], v[i + 1], v[i + 2], v[i + 3]});
  return script;
}

}  // namespace

int64_t echo(int64_t value) { return value; }
int64_t live_generators() { return g_live_generators.load(); }

// ---- layout and codec ------------------------------------------------------------------

jlongArray layout_parse(JNIEnv* env, const std::string& text) {
  return describe(env, snowfleet::Layout::parse(text));
}
jlongArray layout_create(JNIEnv* env, int64_t epoch_ms, int timestamp_bits, int node_bits,
                         int sequence_bits) {
  return describe(env,
                  snowfleet::Layout::create(epoch_ms, timestamp_bits, node_bits, sequence_bits));
}
jlongArray layout_create_split(JNIEnv* env, int64_t epoch_ms, int timestamp_bits,
                               int datacenter_bits, int machine_bits, int sequence_bits) {
  return describe(env, snowfleet::Layout::create_split(epoch_ms, timestamp_bits, datacenter_bits,
                                                       machine_bits, sequence_bits));
}
std::string layout_text(int64_t e, int t, int d, int m, int s) {
  return make_layout(e, t, d, m, s).to_string();
}
std::string layout_preset(int64_t e, int t, int d, int m, int s) {
  return make_layout(e, t, d, m, s).preset_name();
}

int64_t compose(int64_t e, int t, int d, int m, int s, int64_t timestamp_ms, int64_t node_id,
                int64_t sequence) {
  return snowfleet::compose(make_layout(e, t, d, m, s), timestamp_ms, node_id, sequence);
}
int64_t compose_split(int64_t e, int t, int d, int m, int s, int64_t timestamp_ms,
                      int64_t datacenter_id, int64_t machine_id, int64_t sequence) {
  return snowfleet::compose_split(make_layout(e, t, d, m, s), timestamp_ms, datacenter_id,
                                  machine_id, sequence);
}
jlongArray decode(JNIEnv* env, int64_t e, int t, int d, int m, int s, int64_t id) {
  const snowfleet::Decoded r = snowfleet::decode(make_layout(e, t, d, m, s), id);
  const jlong v[5] = {r.timestamp_ms, r.node_id, r.datacenter_id, r.machine_id, r.sequence};
  return new_long_array(env, v, 5);
}
int64_t parse_id(const std::string& text) { return snowfleet::parse_id(text); }
int64_t parse_iso8601(const std::string& text) { return snowfleet::parse_iso8601(text); }

double default_max_wait_ms() { return snowfleet::GeneratorOptions{}.max_wait_ms; }
int64_t default_max_drift_ms() { return snowfleet::GeneratorOptions{}.max_drift_ms; }

int parse_mode(const std::string& text) { return static_cast<int>(snowfleet::parse_mode(text)); }
std::string mode_name(int mode) { return snowfleet::mode_name(static_cast<snowfleet::Mode>(mode)); }
std::string lease_state_name(int state) {
  if (state < 0 || state > static_cast<int>(snowfleet::LeaseState::kReleased)) return "";
  return snowfleet::lease_state_name(static_cast<snowfleet::LeaseState>(state));
}

// ---- clock -----------------------------------------------------------------------------

NativeScriptedClock::NativeScriptedClock(int64_t ms)
    : clock_(std::make_shared<snowfleet::ScriptedClock>(ms)) {}
NativeScriptedClock::NativeScriptedClock(JNIEnv* env, jlongArray segments)
    : clock_(std::make_shared<snowfleet::ScriptedClock>(segments_of(env, segments))) {}
void NativeScriptedClock::set_script(JNIEnv* env, jlongArray segments) {
  clock_->set_script(segments_of(env, segments));
}
void NativeScriptedClock::append(int64_t ms, int64_t count, int64_t step_ms, int64_t every) {
  clock_->append(ms, count, step_ms, every);
}

// ---- generator -------------------------------------------------------------------------

namespace {
snowfleet::GeneratorOptions options(int64_t e, int t, int d, int m, int s, int64_t node_id,
                                    const std::string& node_source, const std::string& mode,
                                    double max_wait_ms, int64_t max_drift_ms,
                                    NativeScriptedClock* clock) {
  snowfleet::GeneratorOptions o;
  o.layout = make_layout(e, t, d, m, s);
  o.node_id = node_id;
  o.node_source = node_source;
  o.mode = snowfleet::parse_mode(mode);
  o.max_wait_ms = max_wait_ms;
  o.max_drift_ms = max_drift_ms;
  if (clock != nullptr) o.clock = clock->clock();
  return o;
}
}  // namespace

NativeGenerator::NativeGenerator(int64_t e, int t, int d, int m, int s, int64_t node_id,
                                 const std::string& node_source, const std::string& mode,
                                 double max_wait_ms, int64_t max_drift_ms,
                                 NativeScriptedClock* clock)
    : gen_(options(e, t, d, m, s, node_id, node_source, mode, max_wait_ms, max_drift_ms, clock)) {
  g_live_generators.fetch_add(1);
}

NativeGenerator::~NativeGenerator() { g_live_generators.fetch_sub(1); }

jlongArray NativeGenerator::next_ids(JNIEnv* env, int64_t n) {
  const size_t count = gen_.batch_size(n);  // before a Java array exists
  // Everything is allocated before the core reserves an id: a batch that cannot be
  // returned (OutOfMemoryError for the Java array, bad_alloc for the buffer) spends nothing.
  const jsize size = static_cast<jsize>(count);
  jlongArray out = env->NewLongArray(size);
  if (out == nullptr) throw std::bad_alloc();  // OutOfMemoryError stays pending
  // One core call fills a native buffer, one SetLongArrayRegion copies it out. A pinned
  // array (GetPrimitiveArrayCritical) would save the copy but would hold off the garbage
  // collector for as long as the core waits for the clock, which a strict-mode batch may.
  thread_local std::vector<int64_t> scratch;
  constexpr size_t kKeep = size_t{1} << 16;  // keep up to 512 KiB per thread between calls
  std::vector<int64_t> big;
  std::vector<int64_t>& buf = count <= kKeep ? scratch : big;
  if (buf.size() < count) buf.resize(count);
  gen_.next_ids(buf.data(), count);
  env->SetLongArrayRegion(out, 0, size, reinterpret_cast<const jlong*>(buf.data()));
  return out;
}

jlongArray NativeGenerator::stats(JNIEnv* env) const {
  const snowfleet::Stats s = gen_.stats();
  const jlong v[9] = {static_cast<jlong>(s.ids_issued),    static_cast<jlong>(s.rewinds_seen),
                      static_cast<jlong>(s.waits),         static_cast<jlong>(s.waited_ns_total),
                      static_cast<jlong>(s.waited_ns_max), static_cast<jlong>(s.refusals),
                      static_cast<jlong>(s.ms_borrowed),   static_cast<jlong>(s.mark_writes),
                      static_cast<jlong>(s.lease_refusals)};
  return new_long_array(env, v, 9);
}

std::string NativeGenerator::status(JNIEnv* env, jlongArray out) {
  const snowfleet::Status s = gen_.status();
  constexpr jsize kFields = 9;
  if (out == nullptr || env->GetArrayLength(out) < kFields)
    throw snowfleet::Error(snowfleet::ErrorKind::kInternal, "status needs a long[9]");
  const jlong v[kFields] = {s.healthy ? 1 : 0,
                            s.wall_ms,
                            s.last_ms,
                            s.drift_ms,
                            s.node_id,
                            static_cast<jlong>(s.mode),
                            static_cast<jlong>(s.lease_state),
                            s.mark_ms,
                            s.lease_expires_in_ms};
  env->SetLongArrayRegion(out, 0, kFields, v);
  return s.reason;
}

jlongArray NativeGenerator::layout(JNIEnv* env) const { return describe(env, gen_.layout()); }

int64_t generator_next_id(int64_t handle) {
  // SWIG stores the object pointer in the jlong's bits; undo exactly that.
  NativeGenerator* g;
  static_assert(sizeof g <= sizeof handle, "pointer must fit a jlong");
  std::memcpy(&g, &handle, sizeof g);
  return g->next_id();
}

}  // namespace snowfleet_java
