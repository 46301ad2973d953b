// Error mapping and JS <-> int64 conversions. Ids never pass through a double: a BigInt is
// read with napi_get_value_bigint_int64 (lossless flag checked), a string goes to the
// core's parse_id, and a Number is accepted only while it is a safe integer.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "common.hpp"

namespace snowfleet_node {
namespace {

constexpr double kMaxSafe = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER, 2^53 - 1

std::string JsText(Napi::Value v) {
  // The JS spelling of a number or bigint (1.5, 1e+300, 141264821508263940).
  return v.ToString().Utf8Value();
}

std::string Clip(const std::string& s) { return s.size() > 40 ? s.substr(0, 40) + "..." : s; }

}  // namespace

Napi::Error MakeError(Napi::Env env, snowfleet::ErrorKind kind, const std::string& message,
                      int64_t drift_ms) {
  AddonData& data = Data(env);
  const size_t i = static_cast<size_t>(kind);
  Napi::Object options = Napi::Object::New(env);
  options.Set("driftMs", Napi::Number::New(env, static_cast<double>(drift_ms)));
  if (i < data.error_classes.size() && !data.error_classes[i].IsEmpty()) {
    Napi::Object err = data.error_classes[i].New({Napi::String::New(env, message), options});
    return Napi::Error(env, err);
  }
  // Only reachable if node/index.js did not register the classes (the raw addon used
  // directly): still carry the stable code.
  Napi::Error err = Napi::Error::New(env, message);
  err.Value().Set("code", Napi::String::New(env, snowfleet::error_code(kind)));
  return err;
}

void ThrowType(Napi::Env env, const std::string& message) {
  Napi::Error err = Napi::TypeError::New(env, message);
  err.Value().Set("code", Napi::String::New(env, "INVALID_ARGUMENT"));
  throw err;
}

void ThrowInvalid(Napi::Env env, const std::string& message) {
  throw MakeError(env, snowfleet::ErrorKind::kInvalidArgument, message);
}

std::string Describe(Napi::Value v) {
  switch (v.Type()) {
    case napi_undefined: return "undefined";
    case napi_null: return "null";
    case napi_boolean: return std::string("boolean ") + (v.As<Napi::Boolean>() ? "true" : "false");
    case napi_number: return "number " + JsText(v);
    case napi_bigint: return "bigint " + JsText(v) + "n";
    case napi_string: return "string '" + Clip(v.As<Napi::String>().Utf8Value()) + "'";
    case napi_symbol: return "a symbol";
    case napi_function: return "a function";
    default: return v.IsArray() ? "an array" : "an object";
  }
}

int64_t ToInt64(Napi::Value v, const std::string& name) {
  Napi::Env env = v.Env();
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!std::isfinite(d) || std::trunc(d) != d)
      ThrowInvalid(env, name + " must be an integer, got " + JsText(v));
    if (std::fabs(d) > kMaxSafe)
      ThrowInvalid(env, name + " must be a safe integer (at most 2^53 - 1 in magnitude) or a "
                               "bigint, got " + JsText(v));
    return static_cast<int64_t>(d);
  }
  if (v.IsBigInt()) {
    bool lossless = false;
    const int64_t x = v.As<Napi::BigInt>().Int64Value(&lossless);
    if (!lossless) ThrowInvalid(env, name + " must fit in 64 signed bits, got " + JsText(v) + "n");
    return x;
  }
  ThrowType(env, name + " must be an integer (number or bigint), got " + Describe(v));
}

int64_t ToInt64OrString(Napi::Value v, const std::string& name) {
  if (!v.IsString()) return ToInt64(v, name);
  const std::string s = v.As<Napi::String>().Utf8Value();
  bool ok = !s.empty() && s.size() <= 20;
  for (size_t i = 0; ok && i < s.size(); ++i)
    ok = (s[i] >= '0' && s[i] <= '9') || (i == 0 && s[i] == '-' && s.size() > 1);
  errno = 0;
  const long long x = ok ? std::strtoll(s.c_str(), nullptr, 10) : 0;
  if (!ok || errno == ERANGE)
    ThrowInvalid(v.Env(), name + " must be a decimal integer inside 64 signed bits, got '" +
                              Clip(s) + "'");
  return x;
}

int ToInt(Napi::Value v, const std::string& name) {
  const int64_t x = ToInt64(v, name);
  if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
    ThrowInvalid(v.Env(), name + " is out of range, got " + std::to_string(x));
  return static_cast<int>(x);
}

int64_t ToId(Napi::Value v, const std::string& name) {
  Napi::Env env = v.Env();
  if (v.IsBigInt()) {
    bool lossless = false;
    const int64_t x = v.As<Napi::BigInt>().Int64Value(&lossless);
    if (!lossless)
      ThrowInvalid(env, name + " must be in [0, 9223372036854775807], got " + JsText(v) + "n");
    return x;  // a negative id reaches the core, which names it
  }
  if (v.IsString()) {
    const std::string text = v.As<Napi::String>().Utf8Value();
    return Guard(env, [&] { return snowfleet::parse_id(text); });
  }
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!std::isfinite(d) || std::trunc(d) != d)
      ThrowInvalid(env, name + " must be an integer, got " + JsText(v));
    if (std::fabs(d) > kMaxSafe)
      ThrowInvalid(env, name + " " + JsText(v) +
                            " is a Number above Number.MAX_SAFE_INTEGER (2^53 - 1): it has "
                            "already lost precision. Pass a bigint or a decimal string");
    return static_cast<int64_t>(d);
  }
  ThrowType(env, name + " must be a bigint or a decimal string, got " + Describe(v));
}

double ToDouble(Napi::Value v, const std::string& name) {
  if (!v.IsNumber()) ThrowType(v.Env(), name + " must be a number, got " + Describe(v));
  return v.As<Napi::Number>().DoubleValue();
}

std::string ToString(Napi::Value v, const std::string& name) {
  if (!v.IsString()) ThrowType(v.Env(), name + " must be a string, got " + Describe(v));
  return v.As<Napi::String>().Utf8Value();
}

Napi::Value FromMs(Napi::Env env, int64_t ms) {
  if (std::fabs(static_cast<double>(ms)) <= kMaxSafe)
    return Napi::Number::New(env, static_cast<double>(ms));
  return Napi::BigInt::New(env, ms);
}

Napi::Value IdString(Napi::Env env, int64_t id) {
  char buf[24];
  const size_t n = snowfleet::format_id(id, buf);
  napi_value out;
  // Digits only, so Latin-1 is exact and skips the UTF-8 decoder.
  NAPI_THROW_IF_FAILED(env, napi_create_string_latin1(env, buf, n, &out), Napi::Value());
  return Napi::Value(env, out);
}

void CheckKeys(Napi::Object obj, const std::vector<const char*>& allowed, const char* what) {
  Napi::Env env = obj.Env();
  napi_value names;
  NAPI_THROW_IF_FAILED_VOID(
      env, napi_get_all_property_names(env, obj, napi_key_own_only,
                                       static_cast<napi_key_filter>(napi_key_enumerable |
                                                                    napi_key_skip_symbols),
                                       napi_key_numbers_to_strings, &names));
  Napi::Array keys(env, names);
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    const std::string key = keys.Get(i).As<Napi::String>().Utf8Value();
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (known) continue;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    ThrowType(env, std::string("unknown ") + what + " '" + Clip(key) + "' (expected one of " +
                       list + ")");
  }
}

Napi::Value Opt(Napi::Object obj, const char* key) {
  Napi::Value v = obj.Get(key);
  return v.IsUndefined() ? Napi::Value() : v;
}

}  // namespace snowfleet_node
