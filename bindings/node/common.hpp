// Shared declarations of the Node.js glue: per-addon-instance data, error mapping and the
// JS <-> int64 conversions. Mechanical by design: every rule about ids, layouts and clocks
// lives in the core; this layer only converts types and maps errors.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_node {

/// State owned by one instance of the addon. Node loads one instance per environment (the
/// main thread and every worker_threads Worker), so nothing here is process-global.
struct AddonData {
  Napi::FunctionReference generator_ctor;
  Napi::FunctionReference layout_ctor;
  Napi::FunctionReference clock_ctor;
  /// The JS Error classes node/index.js built from error_kinds(), in ErrorKind order.
  std::vector<Napi::FunctionReference> error_classes;
};

AddonData& Data(Napi::Env env);

// ---- errors --------------------------------------------------------------------------

/// The JS error (an instance of the class registered for `kind`) for a core error.
Napi::Error MakeError(Napi::Env env, snowfleet::ErrorKind kind, const std::string& message,
                      int64_t drift_ms = 0);
inline Napi::Error MakeError(Napi::Env env, const snowfleet::Error& e) {
  return MakeError(env, e.kind(), e.what(), e.drift_ms());
}
/// A TypeError (with .code INVALID_ARGUMENT) for a JS value of the wrong type.
[[noreturn]] void ThrowType(Napi::Env env, const std::string& message);
/// The InvalidArgument class (a RangeError) for a value of the right type outside its domain.
[[noreturn]] void ThrowInvalid(Napi::Env env, const std::string& message);

/// Runs a core call, turning snowfleet::Error (and any other C++ failure) into the
/// registered JS class. Used around every call into the core.
template <typename F>
auto Guard(Napi::Env env, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const snowfleet::Error& e) {
    throw MakeError(env, e);
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw MakeError(env, snowfleet::ErrorKind::kInternal, e.what());
  }
}

// ---- conversions ---------------------------------------------------------------------

/// Short description of a JS value for messages: "boolean true", "string '12a'", "1.5".
std::string Describe(Napi::Value v);
/// An integer from a Number (a safe integer) or a BigInt inside int64. Anything else is a
/// TypeError / InvalidArgument naming `name` and the value.
int64_t ToInt64(Napi::Value v, const std::string& name);
/// As ToInt64, but also accepts a decimal string with an optional '-' (scripted-clock ms).
int64_t ToInt64OrString(Napi::Value v, const std::string& name);
/// A small int (bit widths, counts): ToInt64 then a range check against int.
int ToInt(Napi::Value v, const std::string& name);
/// An id: a BigInt, a decimal string (the core's parse_id) or a safe-integer Number. A
/// Number above Number.MAX_SAFE_INTEGER is refused: it has already lost precision.
int64_t ToId(Napi::Value v, const std::string& name);
/// A JS number (not NaN-checked: the core validates the value).
double ToDouble(Napi::Value v, const std::string& name);
std::string ToString(Napi::Value v, const std::string& name);

/// Milliseconds as a Number, or a BigInt when beyond Number.MAX_SAFE_INTEGER, so the value
/// is never rounded. Timestamps never need it (at most 52 timestamp bits keep them below
/// 2^53); a node or sequence field wider than 53 bits, or a scripted clock set past 2^53
/// ms, does.
Napi::Value FromMs(Napi::Env env, int64_t ms);
/// An id as a decimal string, formatted by the core without allocating.
Napi::Value IdString(Napi::Env env, int64_t id);

/// Throws a TypeError if `obj` has an own enumerable key outside `allowed` (catches typos
/// such as `nodeID`); `what` names the object in the message.
void CheckKeys(Napi::Object obj, const std::vector<const char*>& allowed, const char* what);
/// obj[key], or an empty Napi::Value when the key is absent or undefined.
Napi::Value Opt(Napi::Object obj, const char* key);

// ---- classes (one file each) ---------------------------------------------------------

Napi::Function InitGenerator(Napi::Env env);
Napi::Function InitLayout(Napi::Env env);
Napi::Function InitScriptedClock(Napi::Env env);
void InitCodec(Napi::Env env, Napi::Object exports);

/// A layout from a Layout instance or its text form (a preset name is text too).
snowfleet::Layout ToLayout(Napi::Value v, const std::string& name);
/// A new JS Layout holding `layout`.
Napi::Object NewLayout(Napi::Env env, const snowfleet::Layout& layout);
/// The core clock behind a JS ScriptedClock, or TypeError.
std::shared_ptr<snowfleet::ScriptedClock> ToScriptedClock(Napi::Value v, const std::string& name);

}  // namespace snowfleet_node
