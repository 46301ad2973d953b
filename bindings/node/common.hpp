// Shared declarations of the Node.js glue. node/index.js shapes the options (own properties
// only, unknown keys refused, camelCase to positions) and the core applies every rule; this
// layer converts JS values to core types and maps errors, nothing else.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_node {

/// One instance per environment (main thread, each Worker): the JS Error classes
/// node/index.js built from error_kinds(), in ErrorKind order.
struct AddonData {
  std::vector<Napi::FunctionReference> error_classes;
};
AddonData& Data(Napi::Env env);

/// The JS error (an instance of the class node/index.js registered for its kind).
Napi::Error MakeError(Napi::Env env, const snowfleet::Error& e);
/// The host's type error: a plain TypeError, code ERR_INVALID_ARG_TYPE, naming the
/// argument, what it must be and the value it got.
[[noreturn]] void ThrowType(Napi::Value got, const char* name, const char* want);
/// Turns the C++ exception being handled into a pending JS exception (for raw callbacks,
/// which must not let a C++ exception escape); returns nullptr.
napi_value ThrowPending(napi_env env);

/// Runs a core call, turning snowfleet::Error (and any other C++ failure) into the
/// registered JS class.
template <typename F>
auto Guard(Napi::Env env, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const snowfleet::Error& e) {
    throw MakeError(env, e);
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw MakeError(env, snowfleet::Error(snowfleet::ErrorKind::kInternal, e.what()));
  }
}

// ---- conversions: the host type check, nothing else ------------------------------------

/// A safe-integer Number or a BigInt. Another type, a fraction or an unsafe Number is a
/// TypeError; a BigInt past int64 is InvalidArgument naming the value.
int64_t ToInt64(Napi::Value v, const char* name);
/// A Number or a BigInt (NaN and ranges are the core's to judge).
double ToDouble(Napi::Value v, const char* name);
std::string ToString(Napi::Value v, const char* name);
/// A layout from its text (node/index.js passes a Layout as its canonical text).
snowfleet::Layout ToLayout(Napi::Value v, const char* name);
/// The core clock behind a ScriptedClock handle (node/index.js passes the handle).
std::shared_ptr<snowfleet::ScriptedClock> ToScriptedClock(Napi::Value v, const char* name);
/// A Number, or a BigInt beyond Number.MAX_SAFE_INTEGER, so the value is never rounded.
Napi::Value FromInt(Napi::Env env, int64_t x);

/// conv(v, name), or nullopt when v is undefined (an option the user did not give).
template <typename Conv>
auto Optional(Napi::Value v, const char* name, Conv conv)
    -> std::optional<decltype(conv(v, name))> {
  if (v.IsUndefined()) return std::nullopt;
  return conv(v, name);
}

// ---- functions bound to one core object -------------------------------------------------
//
// A Generator's or ScriptedClock's methods are N-API functions whose `data` is the core
// object itself: no napi_unwrap per call (which costs more than an id), and each function
// holds a shared_ptr through its finalizer, so `const next = gen.nextId` stays valid after
// `gen` is collected.

/// A method of T taking up to four arguments (missing ones are undefined).
template <typename T>
using Method = Napi::Value (*)(Napi::Env env, T& self, const napi_value* args);

/// F as a raw callback. N: how many arguments to fetch (0 for the hot nextId: fetching
/// none is measurably cheaper).
template <typename T, Method<T> F, size_t N = 4>
napi_value Bound(napi_env env, napi_callback_info cbi) {
  size_t argc = N;
  napi_value args[N > 0 ? N : 1];
  void* data = nullptr;
  napi_get_cb_info(env, cbi, &argc, args, nullptr, &data);
  try {
    return F(Napi::Env(env), **static_cast<std::shared_ptr<T>*>(data), args);
  } catch (...) {
    return ThrowPending(env);
  }
}

/// An object { name: function } of `methods` bound to `self`.
template <typename T>
Napi::Object BindAll(Napi::Env env, const std::shared_ptr<T>& self,
                     std::initializer_list<std::pair<const char*, napi_callback>> methods) {
  Napi::Object out = Napi::Object::New(env);
  for (const auto& [name, cb] : methods) {
    auto* keep = new std::shared_ptr<T>(self);
    const auto drop = [](napi_env, void* p, void*) { delete static_cast<std::shared_ptr<T>*>(p); };
    napi_value fn;
    if (napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, keep, &fn) != napi_ok ||
        napi_add_finalizer(env, fn, keep, drop, nullptr, nullptr) != napi_ok) {
      delete keep;
      throw Napi::Error::New(env, "snowfleet: cannot create a native function");
    }
    out.Set(name, Napi::Value(env, fn));
  }
  return out;
}

// ---- module parts (one file each) ---------------------------------------------------------

void InitGenerator(Napi::Env env, Napi::Object exports);
void InitScriptedClock(Napi::Env env, Napi::Object exports);
void InitCodec(Napi::Env env, Napi::Object exports);

}  // namespace snowfleet_node
