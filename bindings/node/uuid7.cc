// newUuid7Generator(...): a core Uuid7Generator and its methods, bound to it (as
// generator.cc binds a Generator), and decodeUuid7(text | Uint8Array).
#include <cstring>
#include <vector>

#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::Uuid;
using snowfleet::Uuid7Generator;
using Gen = std::shared_ptr<Uuid7Generator>;

Napi::Value UuidString(Napi::Env env, const Uuid& u) {
  char text[36];
  snowfleet::format_uuid(u, text);
  napi_value out = nullptr;
  napi_create_string_latin1(env, text, sizeof text, &out);  // hex and '-': Latin-1 is exact
  return Napi::Value(env, out);
}

Napi::Value NextUuid7(Napi::Env env, const Gen& gen, const napi_value*) {
  return UuidString(env, gen->next());
}
Napi::Value NextUuid7Bytes(Napi::Env env, const Gen& gen, const napi_value*) {
  const std::array<uint8_t, 16> b = gen->next().bytes();
  Napi::Uint8Array out = Napi::Uint8Array::New(env, 16);
  std::memcpy(out.Data(), b.data(), 16);
  return out;
}
/// nextUuid7s(n): an array of n ascending canonical strings.
Napi::Value NextUuid7s(Napi::Env env, const Gen& gen, const napi_value* args) {
  std::vector<Uuid> uuids(gen->batch_size(ToInt64(Napi::Value(env, args[0]), "n")));
  gen->next(uuids.data(), uuids.size());
  Napi::Array out = Napi::Array::New(env, uuids.size());
  for (size_t i = 0; i < uuids.size(); ++i) out.Set(static_cast<uint32_t>(i), UuidString(env, uuids[i]));
  return out;
}
Napi::Value Close(Napi::Env env, const Gen& gen, const napi_value*) {
  gen->close();
  return env.Undefined();
}
Napi::Value Closed(Napi::Env env, const Gen& gen, const napi_value*) {
  return Napi::Boolean::New(env, gen->closed());
}

/// newUuid7Generator(mode, maxWaitMs, maxDriftMs, clock, randomSeed): node/index.js passes
/// what the user gave and undefined for the rest; the core applies every rule.
Napi::Value NewUuid7Generator(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  snowfleet::Uuid7Options o;
  if (const auto mode = Optional(info[0], "mode", ToString)) o.mode = snowfleet::parse_mode(*mode);
  if (const auto ms = Optional(info[1], "maxWaitMs", ToDouble)) o.max_wait_ms = *ms;
  if (const auto ms = Optional(info[2], "maxDriftMs", ToInt64)) o.max_drift_ms = *ms;
  o.clock = Optional(info[3], "clock", ToScriptedClock).value_or(nullptr);
  if (const auto seed = Optional(info[4], "randomSeed", ToInt64))
    o.random = std::make_shared<snowfleet::ScriptedRandom>(static_cast<uint64_t>(*seed));
  const auto gen = std::make_shared<Uuid7Generator>(std::move(o));
  const Napi::Object fixed = Obj(env, {{"mode", Napi::String::New(env, snowfleet::mode_name(gen->mode()))}});
  return Export<Uuid7Generator>(fixed,
                                {{"nextUuid7", Bound<Uuid7Generator, NextUuid7>},
                                 {"nextUuid7Bytes", Bound<Uuid7Generator, NextUuid7Bytes>},
                                 {"nextUuid7s", Bound<Uuid7Generator, NextUuid7s, 1>},
                                 {"close", Bound<Uuid7Generator, Close>},
                                 {"closed", Bound<Uuid7Generator, Closed>}},
                                gen);
}

/// decodeUuid7(text | Uint8Array(16)) -> { timestampMs, counter, random, uuid }.
Napi::Value DecodeUuid7(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Uuid u;
  if (info[0].IsTypedArray() && info[0].As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array) {
    Napi::Uint8Array b = info[0].As<Napi::Uint8Array>();
    if (b.ElementLength() != 16)
      throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                             "a UUID as bytes is 16 bytes, got " + std::to_string(b.ElementLength()));
    u = Uuid::from_bytes(b.Data());
  } else {
    u = snowfleet::parse_uuid(ToString(info[0], "uuid"));
  }
  const snowfleet::Uuid7Fields f = snowfleet::decode_uuid7(u);
  return Obj(env, {{"timestampMs", FromInt(env, f.timestamp_ms)},
                   {"counter", FromInt(env, f.counter)},
                   {"random", FromInt(env, f.random)},
                   {"uuid", UuidString(env, u)}});
}

}  // namespace

void InitUuid7(Napi::Object exports) {
  Export(exports, {{"newUuid7Generator", Fn<NewUuid7Generator>}, {"decodeUuid7", Fn<DecodeUuid7>}});
}

}  // namespace snowfleet_node
