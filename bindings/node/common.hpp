// Shared declarations of the Node.js glue. node/index.js shapes the options (own properties
// only, unknown keys refused, camelCase to positions) and the core applies every rule; this
// layer converts JS values to core types and maps errors, nothing else.
#pragma once

#include <napi.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_node {

/// The JS error for a C++ exception (by default the one being handled): a core error
/// becomes an instance of the class node/index.js made for its kind, anything else an
/// InternalError.
Napi::Error CurrentError(Napi::Env env, std::exception_ptr error = std::current_exception());
/// Makes CurrentError() the pending JS exception and returns nullptr: a raw callback must
/// not let a C++ exception escape.
napi_value ThrowPending(napi_env env);
/// The host's type error: a plain TypeError, code ERR_INVALID_ARG_TYPE, naming the
/// argument, what it must be and the value it got.
[[noreturn]] void ThrowType(Napi::Value got, const char* name, const char* want);

// ---- conversions: the host type check, nothing else ------------------------------------
// Integers never pass through a double: a BigInt is read with its lossless flag checked, and
// a Number is taken only while it is a safe integer (a larger one has already been rounded).

constexpr double kMaxSafe = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER, 2^53 - 1

/// A safe-integer Number or a BigInt. Another type, a fraction or an unsafe Number is a
/// TypeError; a BigInt past int64 is InvalidArgument naming the value.
inline int64_t ToInt64(Napi::Value v, const char* name) {
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
/// A Number or a BigInt as a double (NaN and ranges are the core's to judge).
inline double ToDouble(Napi::Value v, const char* name) {
  if (v.IsBigInt()) return static_cast<double>(ToInt64(v, name));
  if (!v.IsNumber()) ThrowType(v, name, "a number (a Number or a BigInt)");
  return v.As<Napi::Number>().DoubleValue();
}
inline std::string ToString(Napi::Value v, const char* name) {
  if (!v.IsString()) ThrowType(v, name, "a string");
  return v.As<Napi::String>().Utf8Value();
}
/// A layout from its text (node/index.js passes a Layout as its text); undefined: default.
snowfleet::Layout ToLayout(Napi::Value v, const char* name);
/// The core clock behind a ScriptedClock handle (node/index.js passes the handle).
std::shared_ptr<snowfleet::ScriptedClock> ToScriptedClock(Napi::Value v, const char* name);
/// conv(v, name), or nullopt when v is undefined (an argument the user did not give).
template <typename Conv>
auto Optional(Napi::Value v, const char* name, Conv conv)
    -> std::optional<decltype(conv(v, name))> {
  if (v.IsUndefined()) return std::nullopt;
  return conv(v, name);
}

/// Stats and Status as node/index.js's records (the core's field lists, camelCase), for
/// Generator and Uuid7Generator alike (generator.cc).
Napi::Value StatsToJs(Napi::Env env, const snowfleet::Stats& s);
Napi::Value StatusToJs(Napi::Env env, const snowfleet::Status& s);

/// A Number, or a BigInt beyond Number.MAX_SAFE_INTEGER, so the value is never rounded.
inline Napi::Value FromInt(Napi::Env env, int64_t x) {
  if (std::fabs(static_cast<double>(x)) <= kMaxSafe)
    return Napi::Number::New(env, static_cast<double>(x));
  return Napi::BigInt::New(env, x);
}
/// A plain object with these properties, in this order.
inline Napi::Object Obj(Napi::Env env,
                        std::initializer_list<std::pair<const char*, Napi::Value>> kv) {
  Napi::Object o = Napi::Object::New(env);
  for (const auto& [k, v] : kv) o.Set(k, v);
  return o;
}

// ---- native functions ----------------------------------------------------------------------
// Every function is a raw N-API callback that turns any C++ exception into its JS error.
// A Generator's or ScriptedClock's methods get the core object as `data`: no napi_unwrap
// per call (which costs more than an id), and each function owns a shared_ptr, deleted by
// its finalizer, so `const next = gen.nextId` stays valid after `gen` is collected.

/// F as a module function.
template <Napi::Value (*F)(const Napi::CallbackInfo&)>
napi_value Fn(napi_env env, napi_callback_info cbi) {
  try {
    return F(Napi::CallbackInfo(env, cbi));
  } catch (...) {
    return ThrowPending(env);
  }
}

/// F(env, self, args) as a method of T, fetching N arguments (missing ones are undefined;
/// N = 0 for the hot nextId: fetching none is measurably cheaper).
template <typename T, Napi::Value (*F)(Napi::Env, const std::shared_ptr<T>&, const napi_value*),
          size_t N = 0>
napi_value Bound(napi_env env, napi_callback_info cbi) {
  size_t argc = N;
  napi_value args[N > 0 ? N : 1];
  void* self = nullptr;
  napi_get_cb_info(env, cbi, &argc, args, nullptr, &self);
  try {
    return F(Napi::Env(env), *static_cast<std::shared_ptr<T>*>(self), args);
  } catch (...) {
    return ThrowPending(env);
  }
}

/// Sets `out[name]` to each function; with `self`, each function's data is its own
/// std::shared_ptr<T> to it.
template <typename T = void>
Napi::Object Export(Napi::Object out,
                    std::initializer_list<std::pair<const char*, napi_callback>> functions,
                    const std::shared_ptr<T>& self = nullptr) {
  for (const auto& [name, cb] : functions) {
    auto keep = self ? std::make_unique<std::shared_ptr<T>>(self) : nullptr;
    napi_value fn;
    NAPI_THROW_IF_FAILED(
        out.Env(), napi_create_function(out.Env(), name, NAPI_AUTO_LENGTH, cb, keep.get(), &fn),
        out);
    const auto drop = [](Napi::Env, std::shared_ptr<T>* p) { delete p; };
    if (keep) Napi::Function(out.Env(), fn).AddFinalizer(drop, keep.release());
    out.Set(name, fn);
  }
  return out;
}

// The module's parts, one file each.
void InitGenerator(Napi::Object exports);
void InitScriptedClock(Napi::Object exports);
void InitCodec(Napi::Object exports);
void InitTextRange(Napi::Object exports);
void InitUuid7(Napi::Object exports);

}  // namespace snowfleet_node
