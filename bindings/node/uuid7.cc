// newUuid7Generator(...): a core Uuid7Generator and its methods, bound to it (as
// generator.cc binds a Generator), and decodeUuid7(text | Uint8Array).
#include <cstring>
#include <vector>

#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::Uuid;
using snowfleet::Uuid7Generator;

/// A generator and the 16-byte scratch Uint8Array node/index.js gave it: fillUuid7()
/// writes a UUID there and JS copies it into a pooled Buffer, which costs far less than
/// an ArrayBuffer of its own per call made here.
struct Native {
  Uuid7Generator gen;
  uint8_t* scratch;
  Napi::Reference<Napi::Uint8Array> keep;  // keeps the scratch's memory alive
  explicit Native(snowfleet::Uuid7Options o) : gen(std::move(o)) {}
};
using Gen = std::shared_ptr<Native>;

Napi::Value UuidString(Napi::Env env, const Uuid& u) {
  char text[36];
  snowfleet::format_uuid(u, text);
  napi_value out = nullptr;
  napi_create_string_latin1(env, text, sizeof text, &out);  // hex and '-': Latin-1 is exact
  return Napi::Value(env, out);
}

Napi::Value NextUuid7(Napi::Env env, const Gen& gen, const napi_value*) {
  return UuidString(env, gen->gen.next());
}
Napi::Value FillUuid7(Napi::Env env, const Gen& gen, const napi_value*) {
  const std::array<uint8_t, 16> b = gen->gen.next().bytes();
  std::memcpy(gen->scratch, b.data(), 16);
  return env.Undefined();
}
/// nextUuid7sText(n): n ascending UUIDs in Latin-1 strings of 1,024 at most, for index.js to slice.
Napi::Value NextUuid7sText(Napi::Env env, const Gen& gen, const napi_value* args) {
  constexpr size_t kChunk = 1024;  // a kept slice keeps 36 KiB alive; 2^24 UUIDs pass V8's limit
  const auto uuids = gen->gen.next(static_cast<size_t>(ToInt64(Napi::Value(env, args[0]), "n")));
  Napi::Array out = Napi::Array::New(env, (uuids.size() + kChunk - 1) / kChunk);
  char text[36 * kChunk];
  for (size_t at = 0; at < uuids.size(); at += kChunk) {
    const size_t count = uuids.size() - at < kChunk ? uuids.size() - at : kChunk;
    for (size_t i = 0; i < count; ++i) snowfleet::format_uuid(uuids[at + i], text + 36 * i);
    napi_value chunk = nullptr;
    NAPI_THROW_IF_FAILED(env, napi_create_string_latin1(env, text, 36 * count, &chunk), out);
    out.Set(static_cast<uint32_t>(at / kChunk), chunk);
  }
  return out;
}
Napi::Value Close(Napi::Env env, const Gen& gen, const napi_value*) {
  gen->gen.close();
  return env.Undefined();
}
Napi::Value Stats(Napi::Env env, const Gen& gen, const napi_value*) {
  return StatsToJs(env, gen->gen.stats());
}
Napi::Value Status(Napi::Env env, const Gen& gen, const napi_value*) {
  return StatusToJs(env, gen->gen.status());
}
Napi::Value Closed(Napi::Env env, const Gen& gen, const napi_value*) {
  return Napi::Boolean::New(env, gen->gen.closed());
}

/// newUuid7Generator(mode, maxWaitMs, maxDriftMs, clock, randomSeed, scratch): node/index.js
/// passes what the user gave and undefined for the rest (the core applies every rule), and
/// a Uint8Array(16) of its own as the scratch.
Napi::Value NewUuid7Generator(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  snowfleet::Uuid7Options o;
  if (const auto mode = Optional(info[0], "mode", ToString)) o.mode = snowfleet::parse_mode(*mode);
  if (const auto ms = Optional(info[1], "maxWaitMs", ToDouble)) o.max_wait_ms = *ms;
  if (const auto ms = Optional(info[2], "maxDriftMs", ToInt64)) o.max_drift_ms = *ms;
  o.clock = Optional(info[3], "clock", ToScriptedClock).value_or(nullptr);
  if (const auto seed = Optional(info[4], "randomSeed", ToInt64))
    o.random = std::make_shared<snowfleet::ScriptedRandom>(static_cast<uint64_t>(*seed));
  const auto gen = std::make_shared<Native>(std::move(o));
  Napi::Uint8Array scratch = info[5].As<Napi::Uint8Array>();
  gen->scratch = scratch.Data();
  gen->keep = Napi::Persistent(scratch);
  const Napi::Object fixed =
      Obj(env, {{"mode", Napi::String::New(env, snowfleet::mode_name(gen->gen.mode()))},
                {"maxWaitMs", Napi::Number::New(env, gen->gen.max_wait_ms())},
                {"maxDriftMs", FromInt(env, gen->gen.max_drift_ms())}});
  return Export<Native>(fixed,
                        {{"nextUuid7", Bound<Native, NextUuid7>},
                         {"fillUuid7", Bound<Native, FillUuid7>},
                         {"nextUuid7sText", Bound<Native, NextUuid7sText, 1>},
                         {"stats", Bound<Native, Stats>},
                         {"status", Bound<Native, Status>},
                         {"close", Bound<Native, Close>},
                         {"closed", Bound<Native, Closed>}},
                        gen);
}

/// decodeUuid7(text | Uint8Array(16)) -> { timestampMs, counter, random, uuid }.
Napi::Value DecodeUuid7(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Uuid u;
  if (info[0].IsTypedArray() &&
      info[0].As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array) {
    Napi::Uint8Array b = info[0].As<Napi::Uint8Array>();
    if (b.ElementLength() != 16)
      throw snowfleet::Error(
          snowfleet::ErrorKind::kInvalidArgument,
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
