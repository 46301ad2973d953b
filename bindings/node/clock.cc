// newClock(...): the core's ScriptedClock, its methods bound to it, and a handle that
// generators take. node/index.js's testing.ScriptedClock turns the script the user wrote
// (a ms value, a segment object, or a list of them) into flat segments
// [ms, count, stepMs, every, ...], undefined where a field is not given: the core's Segment
// supplies the defaults and checks the values.
#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::ScriptedClock;

/// Marks the handles this addon made, so no other External passes for one.
constexpr napi_type_tag kClockTag = {0x736e6f77666c6565, 0x7453637269707465};

ScriptedClock::Segment ToSegment(Napi::Env env, const napi_value* v) {
  ScriptedClock::Segment s;
  s.ms = ToInt64(Napi::Value(env, v[0]), "ms");
  s.count = Optional(Napi::Value(env, v[1]), "count", ToInt64).value_or(s.count);
  s.step_ms = Optional(Napi::Value(env, v[2]), "stepMs", ToInt64).value_or(s.step_ms);
  s.every = Optional(Napi::Value(env, v[3]), "every", ToInt64).value_or(s.every);
  return s;
}

std::vector<ScriptedClock::Segment> ToScript(Napi::Value flat) {
  Napi::Array a = flat.As<Napi::Array>();
  std::vector<ScriptedClock::Segment> script;
  for (uint32_t i = 0; i + 3 < a.Length(); i += 4) {
    const napi_value v[4] = {a.Get(i), a.Get(i + 1), a.Get(i + 2), a.Get(i + 3)};
    script.push_back(ToSegment(flat.Env(), v));
  }
  return script;
}

Napi::Value SetScript(Napi::Env env, ScriptedClock& c, const napi_value* args) {
  c.set_script(ToScript(Napi::Value(env, args[0])));
  return env.Undefined();
}
/// append(ms, count, stepMs, every)
Napi::Value Append(Napi::Env env, ScriptedClock& c, const napi_value* args) {
  const ScriptedClock::Segment s = ToSegment(env, args);
  c.append(s.ms, s.count, s.step_ms, s.every);
  return env.Undefined();
}
/// setWallMs(ms), advanceWallMs(deltaMs), sleepNs(ns): one integer argument each.
template <void (ScriptedClock::*F)(int64_t)>
Napi::Value WithInt(Napi::Env env, ScriptedClock& c, const napi_value* args) {
  (c.*F)(ToInt64(Napi::Value(env, args[0]), "the argument"));
  return env.Undefined();
}
Napi::Value SetTicking(Napi::Env env, ScriptedClock& c, const napi_value* args) {
  const Napi::Value on(env, args[0]);
  if (!on.IsBoolean()) ThrowType(on, "ticking", "a boolean");
  c.set_ticking(on.As<Napi::Boolean>());
  return env.Undefined();
}
/// Everything the clock reports: { wallMs (peek), ticking, reads, sleepCount, sleptNs,
/// maxSleepNs, minSleepNs }; nanosecond figures are BigInt, like process.hrtime.bigint().
Napi::Value Counters(Napi::Env env, ScriptedClock& c, const napi_value*) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("wallMs", FromInt(env, c.peek_wall_ms()));
  o.Set("ticking", c.ticking());
  o.Set("reads", FromInt(env, c.reads()));
  o.Set("sleepCount", FromInt(env, c.sleep_count()));
  o.Set("sleptNs", Napi::BigInt::New(env, c.slept_ns()));
  o.Set("maxSleepNs", Napi::BigInt::New(env, c.max_sleep_ns()));
  o.Set("minSleepNs", Napi::BigInt::New(env, c.min_sleep_ns()));
  return o;
}

/// newClock(flatSegments, ticking) -> { handle, the methods }
Napi::Value NewClock(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<ScriptedClock::Segment> script = ToScript(info[0]);
  const auto clock = Guard(env, [&] { return std::make_shared<ScriptedClock>(script); });
  clock->set_ticking(info[1].ToBoolean());
  Napi::Object out = BindAll<ScriptedClock>(
      env, clock,
      {{"setScript", Bound<ScriptedClock, SetScript>},
       {"append", Bound<ScriptedClock, Append>},
       {"setWallMs", Bound<ScriptedClock, WithInt<&ScriptedClock::set_wall_ms>>},
       {"advanceWallMs", Bound<ScriptedClock, WithInt<&ScriptedClock::advance_wall_ms>>},
       {"sleepNs", Bound<ScriptedClock, WithInt<&ScriptedClock::sleep_ns>>},
       {"setTicking", Bound<ScriptedClock, SetTicking>},
       {"counters", Bound<ScriptedClock, Counters>}});
  auto handle = Napi::External<std::shared_ptr<ScriptedClock>>::New(
      env, new std::shared_ptr<ScriptedClock>(clock),
      [](Napi::Env, std::shared_ptr<ScriptedClock>* p) { delete p; });
  handle.TypeTag(&kClockTag);
  out.Set("handle", handle);
  return out;
}

}  // namespace

void InitScriptedClock(Napi::Env env, Napi::Object exports) {
  exports.Set("newClock", Napi::Function::New<NewClock>(env, "newClock"));
}

std::shared_ptr<ScriptedClock> ToScriptedClock(Napi::Value v, const char* name) {
  if (!v.IsExternal() || !v.As<Napi::External<void>>().CheckTypeTag(&kClockTag))
    ThrowType(v, name, "a testing.ScriptedClock");
  return *v.As<Napi::External<std::shared_ptr<ScriptedClock>>>().Data();
}

}  // namespace snowfleet_node
