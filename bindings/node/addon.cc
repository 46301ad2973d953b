// Module entry (run once per Node environment: main thread, each Worker), error mapping and
// the JS -> core conversions. The environment's instance data is the error factories
// node/index.js registers, so two workers never share a JS handle. Integers never pass
// through a double: a BigInt is read with its lossless flag checked, and a Number is taken
// only while it is a safe integer (a larger one has already been rounded).
#include <cmath>

#include "common.hpp"

namespace snowfleet_node {
namespace {

constexpr double kMaxSafe = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER, 2^53 - 1

/// node/index.js's error factories (setErrorFactories), so JS shapes every error it throws:
/// core(kind index in ErrorKind order, message, driftMs) -> an instance of the kind's class;
/// type(name, want, value) -> the host TypeError, describing the value as index.js does.
struct Factories {
  Napi::FunctionReference core, type;
};

Napi::Value SetErrorFactories(const Napi::CallbackInfo& info) {
  auto& f = *info.Env().GetInstanceData<Factories>();
  f.core = Napi::Persistent(info[0].As<Napi::Function>());
  f.type = Napi::Persistent(info[1].As<Napi::Function>());
  return info.Env().Undefined();
}

/// The JS error of a core error; a plain Error for the raw addon, without node/index.js.
Napi::Error MakeError(Napi::Env env, const snowfleet::Error& e) {
  const Napi::FunctionReference& make = env.GetInstanceData<Factories>()->core;
  if (make.IsEmpty()) return Napi::Error::New(env, std::string(e.code()) + ": " + e.what());
  return Napi::Error(env, make.Call({Napi::Number::New(env, static_cast<double>(e.kind())),
                                     Napi::String::New(env, e.what()),
                                     Napi::Number::New(env, static_cast<double>(e.drift_ms()))}));
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new Factories());
  // The core's closed list of error kinds, in ErrorKind order: node/index.js builds its
  // Error classes from it, so the JS table cannot drift from the core.
  Napi::Array kinds = Napi::Array::New(env);
  for (const auto& k : snowfleet::error_kinds()) {
    kinds.Set(kinds.Length(), Obj(env, {{"code", Napi::String::New(env, k.code)},
                                        {"name", Napi::String::New(env, k.name)},
                                        {"category", Napi::String::New(env, k.category)},
                                        {"summary", Napi::String::New(env, k.summary)}}));
  }
  exports.Set("errorKinds", kinds);
  Export(exports, {{"setErrorFactories", Fn<SetErrorFactories>}});
  InitGenerator(exports);
  InitScriptedClock(exports);
  InitCodec(exports);
  return exports;
}

}  // namespace

Napi::Error CurrentError(Napi::Env env, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const snowfleet::Error& e) {
    return MakeError(env, e);
  } catch (const Napi::Error& e) {
    return e;
  } catch (const std::exception& e) {
    return MakeError(env, snowfleet::Error(snowfleet::ErrorKind::kInternal, e.what()));
  }
}

napi_value ThrowPending(napi_env env) {
  try {  // making the JS error can fail too (a terminating Worker): that one is thrown then
    CurrentError(Napi::Env(env)).ThrowAsJavaScriptException();
  } catch (const Napi::Error& e) {
    e.ThrowAsJavaScriptException();
  }
  return nullptr;
}

void ThrowType(Napi::Value got, const char* name, const char* want) {
  const Napi::Env env = got.Env();
  const Napi::FunctionReference& make = env.GetInstanceData<Factories>()->type;
  if (make.IsEmpty()) throw Napi::TypeError::New(env, std::string(name) + " must be " + want);
  throw Napi::Error(env,
                    make.Call({Napi::String::New(env, name), Napi::String::New(env, want), got}));
}

int64_t ToInt64(Napi::Value v, const char* name) {
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (std::trunc(d) != d || std::fabs(d) > kMaxSafe)  // NaN and the infinities too
      ThrowType(v, name, "an integer (a safe-integer Number, or a BigInt)");
    return static_cast<int64_t>(d);
  }
  if (!v.IsBigInt()) ThrowType(v, name, "an integer (a Number or a BigInt)");
  bool lossless = false;
  const int64_t x = v.As<Napi::BigInt>().Int64Value(&lossless);
  if (!lossless)
    throw snowfleet::Error(
        snowfleet::ErrorKind::kInvalidArgument,
        std::string(name) + " " + v.ToString().Utf8Value() + " is outside 64 signed bits");
  return x;
}

std::string ToString(Napi::Value v, const char* name) {
  if (!v.IsString()) ThrowType(v, name, "a string");
  return v.As<Napi::String>().Utf8Value();
}

Napi::Value FromInt(Napi::Env env, int64_t x) {
  if (std::fabs(static_cast<double>(x)) <= kMaxSafe)
    return Napi::Number::New(env, static_cast<double>(x));
  return Napi::BigInt::New(env, x);
}

}  // namespace snowfleet_node

using snowfleet_node::Init;
NODE_API_MODULE(snowfleet, Init)
