// min_id / max_id / id_range and the base32 / base62 text forms: one core call each.
// node/index.js turns a Date into Unix ms before calling these.
#include "common.hpp"

namespace snowfleet_node {
namespace {

Napi::Value Big(Napi::Env env, int64_t x) { return Napi::BigInt::New(env, x); }

/// minId(ms, layout) / maxId(ms, layout) -> bigint
Napi::Value MinId(const Napi::CallbackInfo& info) {
  const int64_t ms = ToInt64(info[0], "time");
  return Big(info.Env(), snowfleet::min_id(ToLayout(info[1], "layout"), ms));
}
Napi::Value MaxId(const Napi::CallbackInfo& info) {
  const int64_t ms = ToInt64(info[0], "time");
  return Big(info.Env(), snowfleet::max_id(ToLayout(info[1], "layout"), ms));
}
/// idRange(startMs, endMs, slackMs, layout) -> { first, last } (bigints)
Napi::Value IdRange(const Napi::CallbackInfo& info) {
  const int64_t start = ToInt64(info[0], "start"), end = ToInt64(info[1], "end");
  const int64_t slack = info[2].IsUndefined() ? 0 : ToInt64(info[2], "slackMs");
  const auto r = snowfleet::id_range(ToLayout(info[3], "layout"), start, end, slack);
  return Obj(info.Env(), {{"first", Big(info.Env(), r.first)}, {"last", Big(info.Env(), r.last)}});
}
/// formatIdAs(id, format) -> string; parseIdAs(text, format) -> bigint
Napi::Value FormatIdAs(const Napi::CallbackInfo& info) {
  // An id as decode() takes it: a BigInt, a safe-integer Number or decimal text.
  const int64_t id = info[0].IsString() ? snowfleet::parse_id(ToString(info[0], "id"))
                                        : ToInt64(info[0], "id");
  const auto format = snowfleet::parse_id_format(ToString(info[1], "format"));
  return Napi::String::New(info.Env(), snowfleet::format_id_as(id, format));
}
Napi::Value ParseIdAs(const Napi::CallbackInfo& info) {
  const std::string text = ToString(info[0], "text");
  const auto format = snowfleet::parse_id_format(ToString(info[1], "format"));
  return Big(info.Env(), snowfleet::parse_id_as(text, format));
}

}  // namespace

void InitTextRange(Napi::Object exports) {
  Export(exports, {{"minId", Fn<MinId>},
                   {"maxId", Fn<MaxId>},
                   {"idRange", Fn<IdRange>},
                   {"formatIdAs", Fn<FormatIdAs>},
                   {"parseIdAs", Fn<ParseIdAs>}});
}

}  // namespace snowfleet_node
