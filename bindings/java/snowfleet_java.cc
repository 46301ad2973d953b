// The Java facade: type conversion only (see snowfleet_java.hpp); strings and error mapping
// are in jni_support.cc.
#include "snowfleet_java.hpp"

#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

namespace snowfleet_java {
namespace {

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
#define SNOWFLEET_JAVA_FIELD(name, camel, kind, doc) l.name(),
  const jlong v[] = {SNOWFLEET_LAYOUT_FIELDS(SNOWFLEET_JAVA_FIELD)};
#undef SNOWFLEET_JAVA_FIELD
  return new_long_array(env, v, static_cast<jsize>(sizeof v / sizeof v[0]));
}

std::string camel_names(const std::vector<snowfleet::FieldInfo>& fields) {
  std::string out;
  for (const auto& f : fields) out += (out.empty() ? "" : ",") + std::string(f.camel);
  return out;
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

jlongArray decoded(JNIEnv* env, const snowfleet::Decoded& r) {
  const jlong v[5] = {r.timestamp_ms, r.node_id, r.datacenter_id, r.machine_id, r.sequence};
  return new_long_array(env, v, 5);
}

const snowfleet::FieldInfo& field_at(const std::vector<snowfleet::FieldInfo>& fields, int i) {
  if (i < 0 || static_cast<size_t>(i) >= fields.size())
    throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                           "field index must be in [0, " + std::to_string(fields.size() - 1) +
                               "], got " + std::to_string(i));
  return fields[static_cast<size_t>(i)];
}

// A Status field as a Java object (SNOWFLEET_STATUS_FIELDS' types); enums by their names.
jobject boxed(JNIEnv* env, bool v) {
  jclass c = env->FindClass("java/lang/Boolean");
  if (c == nullptr) throw std::bad_alloc();  // the pending error propagates
  jmethodID of = env->GetStaticMethodID(c, "valueOf", "(Z)Ljava/lang/Boolean;");
  jobject o =
      of == nullptr ? nullptr : env->CallStaticObjectMethod(c, of, static_cast<jboolean>(v));
  env->DeleteLocalRef(c);
  if (o == nullptr) throw std::bad_alloc();
  return o;
}
jobject boxed(JNIEnv* env, int64_t v) {
  jclass c = env->FindClass("java/lang/Long");
  if (c == nullptr) throw std::bad_alloc();
  jmethodID of = env->GetStaticMethodID(c, "valueOf", "(J)Ljava/lang/Long;");
  jobject o = of == nullptr ? nullptr : env->CallStaticObjectMethod(c, of, static_cast<jlong>(v));
  env->DeleteLocalRef(c);
  if (o == nullptr) throw std::bad_alloc();
  return o;
}
jobject boxed(JNIEnv* env, const std::string& v) {
  jstring o = to_jstring(env, v);
  if (o == nullptr) throw std::bad_alloc();
  return o;
}
jobject boxed(JNIEnv* env, snowfleet::Mode v) {
  return boxed(env, std::string(snowfleet::mode_name(v)));
}
jobject boxed(JNIEnv* env, snowfleet::LeaseState v) {
  return boxed(env, std::string(snowfleet::lease_state_name(v)));
}

}  // namespace

// ---- layout and codec ------------------------------------------------------------------

std::string layout_fields() { return camel_names(snowfleet::layout_fields()); }
std::string generator_args() { return camel_names(snowfleet::generator_arg_fields()); }

jlongArray layout_parse(JNIEnv* env, const std::string& text) {
  return describe(env, snowfleet::Layout::parse(text));
}
jlongArray layout_create(JNIEnv* env, const NativeLayoutArgs& args) {
  return describe(env, snowfleet::Layout::create(args.args()));
}
std::string layout_text(int64_t e, int t, int d, int m, int s) {
  return make_layout(e, t, d, m, s).to_string();
}
std::string layout_preset(int64_t e, int t, int d, int m, int s) {
  return make_layout(e, t, d, m, s).preset_name();
}

int64_t compose(int64_t e, int t, int d, int m, int s, int64_t timestamp_ms, bool has_node_id,
                int64_t node_id, bool has_datacenter_id, int64_t datacenter_id, bool has_machine_id,
                int64_t machine_id, bool has_sequence, int64_t sequence) {
  snowfleet::NodeArgs node;
  if (has_node_id) node.node_id = node_id;
  if (has_datacenter_id) node.datacenter_id = datacenter_id;
  if (has_machine_id) node.machine_id = machine_id;
  std::optional<int64_t> seq;
  if (has_sequence) seq = sequence;
  return snowfleet::compose(make_layout(e, t, d, m, s), timestamp_ms, node, seq);
}
jlongArray decode(JNIEnv* env, int64_t e, int t, int d, int m, int s, int64_t id) {
  return decoded(env, snowfleet::decode(make_layout(e, t, d, m, s), id));
}
jlongArray decode_text(JNIEnv* env, int64_t e, int t, int d, int m, int s, const std::string& id) {
  return decoded(env, snowfleet::decode(make_layout(e, t, d, m, s), std::string_view(id)));
}
int64_t parse_id(const std::string& text) { return snowfleet::parse_id(text); }
int64_t parse_iso8601(const std::string& text) { return snowfleet::parse_iso8601(text); }

int parse_mode(const std::string& text) { return static_cast<int>(snowfleet::parse_mode(text)); }
std::string mode_name(int mode) { return snowfleet::mode_name(static_cast<snowfleet::Mode>(mode)); }
std::string lease_state_name(int state) {
  if (state < 0 || state > static_cast<int>(snowfleet::LeaseState::kReleased)) return "";
  return snowfleet::lease_state_name(static_cast<snowfleet::LeaseState>(state));
}

int stats_field_count() { return static_cast<int>(snowfleet::stats_fields().size()); }
std::string stats_field_name(int i) { return field_at(snowfleet::stats_fields(), i).name; }
std::string stats_field_camel(int i) { return field_at(snowfleet::stats_fields(), i).camel; }
int status_field_count() { return static_cast<int>(snowfleet::status_fields().size()); }
std::string status_field_name(int i) { return field_at(snowfleet::status_fields(), i).name; }
std::string status_field_camel(int i) { return field_at(snowfleet::status_fields(), i).camel; }

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

void NativeGeneratorArgs::set_layout(int64_t e, int t, int d, int m, int s) {
  args_.layout = make_layout(e, t, d, m, s);
}
void NativeGeneratorArgs::set_clock(NativeScriptedClock* clock) {
  args_.clock = clock == nullptr ? nullptr : clock->clock();
}

NativeGenerator::NativeGenerator(const NativeGeneratorArgs& args)
    : gen_(snowfleet::resolve_options(args.args())) {}

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
#define SNOWFLEET_X_VALUE(name, camel, kind, init, doc) static_cast<jlong>(s.name),
  const jlong v[] = {SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_VALUE)};
#undef SNOWFLEET_X_VALUE
  return new_long_array(env, v, static_cast<jsize>(sizeof v / sizeof v[0]));
}

jobjectArray status_array(JNIEnv* env, const snowfleet::Status& s) {
#define SNOWFLEET_X_COUNT(name, camel, kind, init, doc) +1
  constexpr jsize kFields = 0 SNOWFLEET_STATUS_FIELDS(SNOWFLEET_X_COUNT);
#undef SNOWFLEET_X_COUNT
  jclass object = env->FindClass("java/lang/Object");
  if (object == nullptr) throw std::bad_alloc();  // the pending error propagates
  jobjectArray out = env->NewObjectArray(kFields, object, nullptr);
  env->DeleteLocalRef(object);
  if (out == nullptr) throw std::bad_alloc();
  jsize i = 0;
  auto put = [&](jobject value) {
    env->SetObjectArrayElement(out, i++, value);
    env->DeleteLocalRef(value);
  };
#define SNOWFLEET_X_PUT(name, camel, kind, init, doc) put(boxed(env, s.name));
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_X_PUT)
#undef SNOWFLEET_X_PUT
  return out;
}

jobjectArray NativeGenerator::status(JNIEnv* env) { return status_array(env, gen_.status()); }

jlongArray NativeGenerator::layout(JNIEnv* env) const { return describe(env, gen_.layout()); }

int64_t generator_next_id(int64_t handle) {
  // SWIG stores the object pointer in the jlong's bits; undo exactly that.
  NativeGenerator* g;
  static_assert(sizeof g <= sizeof handle, "pointer must fit a jlong");
  std::memcpy(&g, &handle, sizeof g);
  return g->next_id();
}

}  // namespace snowfleet_java
