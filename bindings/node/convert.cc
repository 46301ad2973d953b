// Error mapping and the JS -> core conversions. Integers never pass through a double: a
// BigInt is read with its lossless flag checked, and a Number is taken only while it is a
// safe integer (a larger one has already been rounded).
#include <cmath>

#include "common.hpp"

namespace snowfleet_node {
namespace {

constexpr double kMaxSafe = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER, 2^53 - 1

/// Short description of a JS value for messages: "boolean true", "string '12a'", "1.5".
std::string Describe(Napi::Value v) {
  const napi_valuetype type = v.Type();
  const bool primitive =
      type == napi_boolean || type == napi_number || type == napi_bigint || type == napi_string;
  const std::string text = primitive ? v.ToString().Utf8Value() : "";
  switch (type) {
    case napi_undefined:
      return "undefined";
    case napi_null:
      return "null";
    case napi_boolean:
      return "boolean " + text;
    case napi_number:
      return "number " + text;
    case napi_bigint:
      return "bigint " + text + "n";
    case napi_string:
      return "string '" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'";
    case napi_symbol:
      return "a symbol";
    case napi_function:
      return "a function";
    default:
      return v.IsArray() ? "an array" : "an object";
  }
}

}  // namespace

Napi::Error MakeError(Napi::Env env, const snowfleet::Error& e) {
  const auto& classes = Data(env).error_classes;
  const size_t i = static_cast<size_t>(e.kind());
  Napi::String message = Napi::String::New(env, e.what());
  if (i >= classes.size()) {  // the raw addon, used without node/index.js
    Napi::Error err = Napi::Error::New(env, e.what());
    err.Set("code", e.code());
    return err;
  }
  Napi::Object options = Napi::Object::New(env);
  options.Set("driftMs", Napi::Number::New(env, static_cast<double>(e.drift_ms())));
  return Napi::Error(env, classes[i].New({message, options}));
}

void ThrowType(Napi::Value got, const char* name, const char* want) {
  Napi::Error err = Napi::TypeError::New(
      got.Env(), std::string(name) + " must be " + want + ", got " + Describe(got));
  err.Set("code", "ERR_INVALID_ARG_TYPE");
  throw err;
}

napi_value ThrowPending(napi_env env) {
  try {  // making the JS error can fail too (a terminating Worker): that one is thrown then
    try {
      throw;
    } catch (const snowfleet::Error& e) {
      throw MakeError(Napi::Env(env), e);
    } catch (const Napi::Error&) {
      throw;
    } catch (const std::exception& e) {
      throw MakeError(Napi::Env(env), snowfleet::Error(snowfleet::ErrorKind::kInternal, e.what()));
    }
  } catch (const Napi::Error& e) {
    e.ThrowAsJavaScriptException();
  }
  return nullptr;
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
    throw MakeError(v.Env(), snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                                              std::string(name) + " " + v.ToString().Utf8Value() +
                                                  " is outside 64 signed bits"));
  return x;
}

double ToDouble(Napi::Value v, const char* name) {
  if (v.IsBigInt()) return static_cast<double>(ToInt64(v, name));
  if (!v.IsNumber()) ThrowType(v, name, "a number (a Number or a BigInt)");
  return v.As<Napi::Number>().DoubleValue();  // NaN and ranges: the core's rules
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
