// newClock(flatSegments): the core's ScriptedClock, its methods bound to it, and a handle
// that generators take. node/index.js's testing.ScriptedClock flattens the script the user
// wrote (a ms value, a segment object, or a list of them); the core's Segment supplies the
// defaults and checks the values.
#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::ScriptedClock;
using Clock = std::shared_ptr<ScriptedClock>;

/// Marks the handles this addon made, so no other External passes for one.
constexpr napi_type_tag kClockTag = {0x736e6f77666c6565, 0x7453637269707465};

/// A ms value: an integer, or signed decimal text (the core's parse_int).
int64_t ToMs(Napi::Value v, const char* name) {
  if (v.IsString()) return snowfleet::parse_int(v.As<Napi::String>().Utf8Value(), name);
  return ToInt64(v, name);
}
/// Flat segments [ms, count, stepMs, every, ...], undefined where a field is not given.
std::vector<ScriptedClock::Segment> ToScript(Napi::Value flat) {
  const Napi::Array a = flat.As<Napi::Array>();
  std::vector<ScriptedClock::Segment> script;
  for (uint32_t i = 0; i + 3 < a.Length(); i += 4) {
    ScriptedClock::Segment s;
    s.ms = ToMs(a.Get(i), "ms");
    s.count = Optional(a.Get(i + 1), "count", ToInt64).value_or(s.count);
    s.step_ms = Optional(a.Get(i + 2), "stepMs", ToMs).value_or(s.step_ms);
    s.every = Optional(a.Get(i + 3), "every", ToInt64).value_or(s.every);
    script.push_back(s);
  }
  return script;
}
// The one-argument methods' conversions, each naming its argument.
int64_t Ms(Napi::Value v) { return ToMs(v, "ms"); }
int64_t Ns(Napi::Value v) { return ToInt64(v, "ns"); }
bool Ticking(Napi::Value v) {
  if (!v.IsBoolean()) ThrowType(v, "ticking", "a boolean");
  return v.As<Napi::Boolean>();
}
/// A method taking one argument: (*c.*F)(Conv(arg)).
template <auto F, auto Conv>
Napi::Value Call(Napi::Env env, const Clock& c, const napi_value* args) {
  ((*c).*F)(Conv(Napi::Value(env, args[0])));
  return env.Undefined();
}
Napi::Value Append(Napi::Env env, const Clock& c, const napi_value* args) {
  for (const auto& s : ToScript(Napi::Value(env, args[0])))
    c->append(s.ms, s.count, s.step_ms, s.every);
  return env.Undefined();
}

/// Everything the clock reports: { wallMs (peek), ticking, reads, sleepCount, sleptNs,
/// maxSleepNs, minSleepNs }; nanosecond figures are BigInt, like process.hrtime.bigint().
Napi::Value Counters(Napi::Env env, const Clock& c, const napi_value*) {
  return Obj(env, {{"wallMs", FromInt(env, c->peek_wall_ms())},
                   {"ticking", Napi::Boolean::New(env, c->ticking())},
                   {"reads", FromInt(env, c->reads())},
                   {"sleepCount", FromInt(env, c->sleep_count())},
                   {"sleptNs", Napi::BigInt::New(env, c->slept_ns())},
                   {"maxSleepNs", Napi::BigInt::New(env, c->max_sleep_ns())},
                   {"minSleepNs", Napi::BigInt::New(env, c->min_sleep_ns())}});
}

/// newClock(flatSegments) -> { handle, the methods }
Napi::Value NewClock(const Napi::CallbackInfo& info) {
  const auto clock = std::make_shared<ScriptedClock>(ToScript(info[0]));
  auto handle = Napi::External<Clock>::New(info.Env(), new Clock(clock),
                                           [](Napi::Env, Clock* p) { delete p; });
  handle.TypeTag(&kClockTag);
  return Export<ScriptedClock>(
      Obj(info.Env(), {{"handle", handle}}),
      {{"setScript", Bound<ScriptedClock, Call<&ScriptedClock::set_script, ToScript>, 1>},
       {"append", Bound<ScriptedClock, Append, 1>},
       {"setWallMs", Bound<ScriptedClock, Call<&ScriptedClock::set_wall_ms, Ms>, 1>},
       {"advanceWallMs", Bound<ScriptedClock, Call<&ScriptedClock::advance_wall_ms, Ms>, 1>},
       {"sleepNs", Bound<ScriptedClock, Call<&ScriptedClock::sleep_ns, Ns>, 1>},
       {"setTicking", Bound<ScriptedClock, Call<&ScriptedClock::set_ticking, Ticking>, 1>},
       {"counters", Bound<ScriptedClock, Counters>}},
      clock);
}

}  // namespace

void InitScriptedClock(Napi::Object exports) { Export(exports, {{"newClock", Fn<NewClock>}}); }

std::shared_ptr<ScriptedClock> ToScriptedClock(Napi::Value v, const char* name) {
  if (!v.IsExternal() || !v.As<Napi::External<void>>().CheckTypeTag(&kClockTag))
    ThrowType(v, name, "a testing.ScriptedClock");
  return *v.As<Napi::External<Clock>>().Data();
}

}  // namespace snowfleet_node
