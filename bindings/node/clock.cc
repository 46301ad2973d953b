// testing.ScriptedClock: the core's deterministic clock, for the conformance runner and for
// users' own tests. Segments use the conformance format with camelCase keys:
//   { ms, count = 1, stepMs = 0, every = 1 }, ms as bigint, decimal string or number.
#include "common.hpp"

namespace snowfleet_node {
namespace {

using Segments = std::vector<snowfleet::ScriptedClock::Segment>;

snowfleet::ScriptedClock::Segment ToSegment(Napi::Value v, const std::string& name) {
  if (!v.IsObject() || v.IsArray())
    ThrowType(v.Env(), name + " must be a segment { ms, count, stepMs, every }, got " +
                           Describe(v));
  Napi::Object o = v.As<Napi::Object>();
  CheckKeys(o, {"ms", "count", "stepMs", "every"}, "clock segment field");
  snowfleet::ScriptedClock::Segment s;
  Napi::Value f = Opt(o, "ms");
  if (f.IsEmpty()) ThrowType(v.Env(), name + " needs ms");
  s.ms = ToInt64OrString(f, name + ".ms");
  if (!(f = Opt(o, "count")).IsEmpty()) s.count = ToInt64(f, name + ".count");
  if (!(f = Opt(o, "stepMs")).IsEmpty()) s.step_ms = ToInt64OrString(f, name + ".stepMs");
  if (!(f = Opt(o, "every")).IsEmpty()) s.every = ToInt64(f, name + ".every");
  return s;
}

/// A script: an array of segments, or a single ms value (a frozen clock).
Segments ToScript(Napi::Value v) {
  if (!v.IsArray()) return {snowfleet::ScriptedClock::Segment{ToInt64OrString(v, "ms"), 1, 0, 1}};
  Napi::Array a = v.As<Napi::Array>();
  Segments script;
  for (uint32_t i = 0; i < a.Length(); ++i)
    script.push_back(ToSegment(a.Get(i), "segments[" + std::to_string(i) + "]"));
  return script;
}

class ClockWrap : public Napi::ObjectWrap<ClockWrap> {
 public:
  /// new ScriptedClock(segments | ms = 0)
  explicit ClockWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ClockWrap>(info) {
    Napi::Env env = info.Env();
    if (info[0].IsUndefined()) {
      clock_ = std::make_shared<snowfleet::ScriptedClock>(0);
      return;
    }
    Segments script = ToScript(info[0]);
    clock_ = Guard(env, [&] { return std::make_shared<snowfleet::ScriptedClock>(script); });
  }

  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "ScriptedClock",
                       {
                           InstanceMethod<&ClockWrap::SetScript>("setScript"),
                           InstanceMethod<&ClockWrap::Append>("append"),
                           InstanceMethod<&ClockWrap::SetWallMs>("setWallMs"),
                           InstanceMethod<&ClockWrap::AdvanceWallMs>("advanceWallMs"),
                           InstanceMethod<&ClockWrap::PeekWallMs>("peekWallMs"),
                           InstanceAccessor<&ClockWrap::Reads>("reads"),
                           InstanceAccessor<&ClockWrap::SleepCount>("sleepCount"),
                           InstanceAccessor<&ClockWrap::SleptNs>("sleptNs"),
                           InstanceAccessor<&ClockWrap::MaxSleepNs>("maxSleepNs"),
                           InstanceAccessor<&ClockWrap::MinSleepNs>("minSleepNs"),
                       });
  }

  std::shared_ptr<snowfleet::ScriptedClock> clock_;

 private:
  Napi::Value SetScript(const Napi::CallbackInfo& info) {
    Segments script = ToScript(info[0]);
    Guard(info.Env(), [&] { clock_->set_script(script); });
    return info.Env().Undefined();
  }
  Napi::Value Append(const Napi::CallbackInfo& info) {
    const auto s = ToSegment(info[0], "segment");
    Guard(info.Env(), [&] { clock_->append(s.ms, s.count, s.step_ms, s.every); });
    return info.Env().Undefined();
  }
  Napi::Value SetWallMs(const Napi::CallbackInfo& info) {
    const int64_t ms = ToInt64OrString(info[0], "ms");
    Guard(info.Env(), [&] { clock_->set_wall_ms(ms); });
    return info.Env().Undefined();
  }
  Napi::Value AdvanceWallMs(const Napi::CallbackInfo& info) {
    const int64_t delta = ToInt64OrString(info[0], "deltaMs");
    Guard(info.Env(), [&] { clock_->advance_wall_ms(delta); });
    return info.Env().Undefined();
  }
  Napi::Value PeekWallMs(const Napi::CallbackInfo& info) {
    return FromMs(info.Env(), clock_->peek_wall_ms());
  }
  Napi::Value Reads(const Napi::CallbackInfo& info) {
    return FromMs(info.Env(), clock_->reads());
  }
  Napi::Value SleepCount(const Napi::CallbackInfo& info) {
    return FromMs(info.Env(), clock_->sleep_count());
  }
  // Nanosecond figures are BigInt, like process.hrtime.bigint().
  Napi::Value SleptNs(const Napi::CallbackInfo& info) {
    return Napi::BigInt::New(info.Env(), clock_->slept_ns());
  }
  Napi::Value MaxSleepNs(const Napi::CallbackInfo& info) {
    return Napi::BigInt::New(info.Env(), clock_->max_sleep_ns());
  }
  Napi::Value MinSleepNs(const Napi::CallbackInfo& info) {
    return Napi::BigInt::New(info.Env(), clock_->min_sleep_ns());
  }
};

}  // namespace

Napi::Function InitScriptedClock(Napi::Env env) { return ClockWrap::Init(env); }

std::shared_ptr<snowfleet::ScriptedClock> ToScriptedClock(Napi::Value v, const std::string& name) {
  Napi::Env env = v.Env();
  if (v.IsObject() && v.As<Napi::Object>().InstanceOf(Data(env).clock_ctor.Value()))
    return ClockWrap::Unwrap(v.As<Napi::Object>())->clock_;
  ThrowType(env, name + " must be a testing.ScriptedClock, got " + Describe(v));
}

}  // namespace snowfleet_node
