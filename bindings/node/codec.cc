// Layouts and the codec functions. A layout crosses as its canonical text; node/index.js's
// Layout class holds the properties LayoutInfo reports.
#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::Layout;
using snowfleet::LayoutArgs;

/// The layout's text and every property node/index.js's Layout carries (plain data:
/// reading a property never crosses into native code).
Napi::Value LayoutInfo(Napi::Env env, const Layout& l) {
  Napi::Object o = Obj(env, {{"text", Napi::String::New(env, l.to_string())},
                             {"preset", Napi::String::New(env, l.preset_name())},
                             {"split", Napi::Boolean::New(env, l.split())}});
#define SNOWFLEET_NODE_FIELD(name, camel, kind, doc) o.Set(camel, FromInt(env, l.name()));
  SNOWFLEET_LAYOUT_FIELDS(SNOWFLEET_NODE_FIELD)
#undef SNOWFLEET_NODE_FIELD
  return o;
}
Napi::Value ParseLayout(const Napi::CallbackInfo& info) {
  return LayoutInfo(info.Env(), ToLayout(info[0], "layout text"));
}

/// createLayout(epochMs, timestampBits, nodeBits, datacenterBits, machineBits, sequenceBits),
/// undefined where not given: Layout::create decides which fields go together.
Napi::Value CreateLayout(const Napi::CallbackInfo& info) {
  return LayoutInfo(
      info.Env(),
      Layout::create(LayoutArgs{
          Optional(info[0], "epochMs", ToInt64), Optional(info[1], "timestampBits", ToInt64),
          Optional(info[2], "nodeBits", ToInt64), Optional(info[3], "datacenterBits", ToInt64),
          Optional(info[4], "machineBits", ToInt64), Optional(info[5], "sequenceBits", ToInt64)}));
}

/// An id: a BigInt, a safe-integer Number or decimal text (the core's parse_id).
int64_t ToId(Napi::Value v) {
  if (v.IsString()) return snowfleet::parse_id(v.As<Napi::String>().Utf8Value());
  if (!v.IsNumber() && !v.IsBigInt())
    ThrowType(v, "id", "a BigInt, a decimal string or a safe-integer Number");
  return ToInt64(v, "id");
}

/// decode(id, layout) -> { timestampMs, nodeId, datacenterId, machineId, sequence }
Napi::Value Decode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int64_t id = ToId(info[0]);
  const snowfleet::Decoded d = snowfleet::decode(ToLayout(info[1], "layout"), id);
  return Obj(env, {{"timestampMs", FromInt(env, d.timestamp_ms)},
                   {"nodeId", FromInt(env, d.node_id)},
                   {"datacenterId", FromInt(env, d.datacenter_id)},
                   {"machineId", FromInt(env, d.machine_id)},
                   {"sequence", FromInt(env, d.sequence)}});
}

/// compose(layout, timestampMs, nodeId, datacenterId, machineId, sequence) -> bigint;
/// undefined where not given: the core's compose(NodeArgs) picks the node form.
Napi::Value Compose(const Napi::CallbackInfo& info) {
  const Layout layout = ToLayout(info[0], "layout");
  const int64_t ts = ToInt64(info[1], "timestampMs");
  const snowfleet::NodeArgs node{Optional(info[2], "nodeId", ToInt64),
                                 Optional(info[3], "datacenterId", ToInt64),
                                 Optional(info[4], "machineId", ToInt64)};
  const auto seq = Optional(info[5], "sequence", ToInt64);
  return Napi::BigInt::New(info.Env(), snowfleet::compose(layout, ts, node, seq));
}

Napi::Value ParseId(const Napi::CallbackInfo& info) {
  return Napi::BigInt::New(info.Env(), snowfleet::parse_id(ToString(info[0], "id text")));
}
Napi::Value FormatId(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), snowfleet::format_id(ToId(info[0])));
}
/// parseTime(text) -> Unix ms, through the core's RFC 3339 parser.
Napi::Value ParseTime(const Napi::CallbackInfo& info) {
  return FromInt(info.Env(), snowfleet::parse_iso8601(ToString(info[0], "time text")));
}

}  // namespace

void InitCodec(Napi::Object exports) {
  Export(exports, {{"parseLayout", Fn<ParseLayout>},
                   {"createLayout", Fn<CreateLayout>},
                   {"decode", Fn<Decode>},
                   {"compose", Fn<Compose>},
                   {"parseId", Fn<ParseId>},
                   {"formatId", Fn<FormatId>},
                   {"parseTime", Fn<ParseTime>}});
}

snowfleet::Layout ToLayout(Napi::Value v, const char* name) {
  if (v.IsUndefined()) return Layout();
  if (!v.IsString()) ThrowType(v, name, "a Layout or its text form (e.g. 'twitter')");
  return Layout::parse(v.As<Napi::String>().Utf8Value());
}

}  // namespace snowfleet_node
