// Module entry (run once per Node environment: main thread, each Worker), error mapping and
// the JS -> core conversions. The environment's instance data is the JS error classes
// node/index.js registers, so two workers never share a JS handle. Integers never pass
// through a double: a BigInt is read with its lossless flag checked, and a Number is taken
// only while it is a safe integer (a larger one has already been rounded).
#include <cmath>

#include "common.hpp"

namespace snowfleet_node {
namespace {

constexpr double kMaxSafe = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER, 2^53 - 1

/// Short description of a JS value for messages: "boolean true", "string '12a'", "1.5".
std::string Describe(Napi::Value v) {
  const napi_valuetype t = v.Type();
  if (t == napi_undefined || t == napi_null) return t == napi_null ? "null" : "undefined";
  if (t == napi_symbol || t == napi_function) return t == napi_symbol ? "a symbol" : "a function";
  if (t != napi_boolean && t != napi_number && t != napi_bigint && t != napi_string)
    return v.IsArray() ? "an array" : "an object";
  const std::string text = v.ToString().Utf8Value();
  if (t == napi_string)
    return "string '" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'";
  return (t == napi_boolean  ? "boolean "
          : t == napi_number ? "number "
                             : "bigint ") +
         text + (t == napi_bigint ? "n" : "");
}

/// The JS error of a core error: an instance of the class registered for its kind.
Napi::Error MakeError(Napi::Env env, const snowfleet::Error& e) {
  const auto* classes = env.GetInstanceData<std::vector<Napi::FunctionReference>>();
  const size_t i = static_cast<size_t>(e.kind());
  if (classes == nullptr || i >= classes->size()) {  // the raw addon, without node/index.js
    Napi::Error err = Napi::Error::New(env, e.what());
    err.Set("code", e.code());
    return err;
  }
  Napi::Object options = Napi::Object::New(env);
  options.Set("driftMs", Napi::Number::New(env, static_cast<double>(e.drift_ms())));
  return Napi::Error(env, (*classes)[i].New({Napi::String::New(env, e.what()), options}));
}

/// setErrorClasses(classes): the JS classes, in ErrorKind order, that core errors become.
Napi::Value SetErrorClasses(const Napi::CallbackInfo& info) {
  Napi::Array classes = info[0].As<Napi::Array>();
  auto& out = *info.Env().GetInstanceData<std::vector<Napi::FunctionReference>>();
  out.clear();
  for (uint32_t i = 0; i < classes.Length(); ++i)
    out.push_back(Napi::Persistent(classes.Get(i).As<Napi::Function>()));
  return info.Env().Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new std::vector<Napi::FunctionReference>());
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
  Export(exports, {{"setErrorClasses", Fn<SetErrorClasses>}});
  InitGenerator(exports);
  InitScriptedClock(exports);
  InitCodec(exports);
  return exports;
}

}  // namespace

Napi::Error CurrentError(Napi::Env env) {
  try {
    throw;
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
  Napi::Error err = Napi::TypeError::New(
      got.Env(), std::string(name) + " must be " + want + ", got " + Describe(got));
  err.Set("code", "ERR_INVALID_ARG_TYPE");
  throw err;
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
