// Layouts and the codec functions. A layout crosses as its canonical text; node/index.js's
// Layout class holds the properties parseLayout() reports, and shapes the option objects
// of Layout.create and compose into positional arguments.
#include "common.hpp"

namespace snowfleet_node {
namespace {

/// layoutInfo(text) -> the layout's canonical text and every property node/index.js's
/// Layout carries (a JS object: reading a property never crosses into native code).
Napi::Object LayoutInfo(Napi::Env env, const snowfleet::Layout& l) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("text", l.to_string());
  o.Set("preset", l.preset_name());
#define SNOWFLEET_NODE_LAYOUT(camel, expr) o.Set(camel, FromInt(env, l.expr()));
  SNOWFLEET_NODE_LAYOUT("epochMs", epoch_ms)
  SNOWFLEET_NODE_LAYOUT("timestampBits", timestamp_bits)
  SNOWFLEET_NODE_LAYOUT("nodeBits", node_bits)
  SNOWFLEET_NODE_LAYOUT("datacenterBits", datacenter_bits)
  SNOWFLEET_NODE_LAYOUT("machineBits", machine_bits)
  SNOWFLEET_NODE_LAYOUT("sequenceBits", sequence_bits)
  SNOWFLEET_NODE_LAYOUT("timestampShift", timestamp_shift)
  SNOWFLEET_NODE_LAYOUT("nodeShift", node_shift)
  SNOWFLEET_NODE_LAYOUT("maxNodeId", max_node_id)
  SNOWFLEET_NODE_LAYOUT("maxDatacenterId", max_datacenter_id)
  SNOWFLEET_NODE_LAYOUT("maxMachineId", max_machine_id)
  SNOWFLEET_NODE_LAYOUT("maxSequence", max_sequence)
  SNOWFLEET_NODE_LAYOUT("maxElapsedMs", max_elapsed_ms)
  SNOWFLEET_NODE_LAYOUT("maxTimestampMs", max_timestamp_ms)
#undef SNOWFLEET_NODE_LAYOUT
  o.Set("split", l.split());
  return o;
}

Napi::Value ParseLayout(const Napi::CallbackInfo& info) {
  return LayoutInfo(info.Env(), ToLayout(info[0], "layout text"));
}

int ToBits(Napi::Value v, const char* name) {
  const int64_t x = ToInt64(v, name);
  if (x != static_cast<int>(x))  // the C++ type cannot hold it: name the value
    throw MakeError(v.Env(), snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                                              std::string(name) + " " + std::to_string(x) +
                                                  " is outside a C++ int"));
  return static_cast<int>(x);
}

/// createLayout(epochMs, timestampBits, nodeBits, sequenceBits)
Napi::Value CreateLayout(const Napi::CallbackInfo& info) {
  const int64_t epoch = ToInt64(info[0], "epochMs");
  const int ts = ToBits(info[1], "timestampBits"), node = ToBits(info[2], "nodeBits"),
            seq = ToBits(info[3], "sequenceBits");
  return LayoutInfo(info.Env(), Guard(info.Env(), [&] {
                      return snowfleet::Layout::create(epoch, ts, node, seq);
                    }));
}

/// createSplitLayout(epochMs, timestampBits, datacenterBits, machineBits, sequenceBits)
Napi::Value CreateSplitLayout(const Napi::CallbackInfo& info) {
  const int64_t epoch = ToInt64(info[0], "epochMs");
  const int ts = ToBits(info[1], "timestampBits"), dc = ToBits(info[2], "datacenterBits"),
            m = ToBits(info[3], "machineBits"), seq = ToBits(info[4], "sequenceBits");
  return LayoutInfo(info.Env(), Guard(info.Env(), [&] {
                      return snowfleet::Layout::create_split(epoch, ts, dc, m, seq);
                    }));
}

/// decode(id, layout?): id a BigInt, a safe-integer Number or decimal text (the core's
/// decode(text)) -> { timestampMs, nodeId, datacenterId, machineId, sequence }
Napi::Value Decode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const snowfleet::Layout layout =
      Optional(info[1], "layout", ToLayout).value_or(snowfleet::Layout());
  snowfleet::Decoded d;
  if (info[0].IsString()) {
    const std::string text = info[0].As<Napi::String>().Utf8Value();
    d = Guard(env, [&] { return snowfleet::decode(layout, text); });
  } else {
    if (!info[0].IsNumber() && !info[0].IsBigInt())
      ThrowType(info[0], "id", "a BigInt, a decimal string or a safe-integer Number");
    const int64_t id = ToInt64(info[0], "id");
    d = Guard(env, [&] { return snowfleet::decode(layout, id); });
  }
  Napi::Object o = Napi::Object::New(env);
  o.Set("timestampMs", FromInt(env, d.timestamp_ms));
  o.Set("nodeId", FromInt(env, d.node_id));
  o.Set("datacenterId", FromInt(env, d.datacenter_id));
  o.Set("machineId", FromInt(env, d.machine_id));
  o.Set("sequence", FromInt(env, d.sequence));
  return o;
}

/// compose(layout, timestampMs, nodeId, datacenterId, machineId, sequence) -> bigint; the
/// core's compose(NodeArgs) picks the node form. Undefined: not given.
Napi::Value Compose(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const snowfleet::Layout layout =
      Optional(info[0], "layout", ToLayout).value_or(snowfleet::Layout());
  const int64_t ts = ToInt64(info[1], "timestampMs");
  snowfleet::NodeArgs node;
  node.node_id = Optional(info[2], "nodeId", ToInt64);
  node.datacenter_id = Optional(info[3], "datacenterId", ToInt64);
  node.machine_id = Optional(info[4], "machineId", ToInt64);
  const int64_t seq = Optional(info[5], "sequence", ToInt64).value_or(0);
  return Napi::BigInt::New(env,
                           Guard(env, [&] { return snowfleet::compose(layout, ts, node, seq); }));
}

/// parseId(text) -> bigint, through the core's strict decimal parser.
Napi::Value ParseId(const Napi::CallbackInfo& info) {
  const std::string text = ToString(info[0], "id text");
  return Napi::BigInt::New(info.Env(),
                           Guard(info.Env(), [&] { return snowfleet::parse_id(text); }));
}

/// formatId(id) -> decimal string: the id's text as decode() reads it.
Napi::Value FormatId(const Napi::CallbackInfo& info) {
  const std::string text =
      info[0].IsString() ? info[0].As<Napi::String>().Utf8Value() : std::string();
  const int64_t id = info[0].IsString()
                         ? Guard(info.Env(), [&] { return snowfleet::parse_id(text); })
                         : ToInt64(info[0], "id");
  Guard(info.Env(), [&] { return snowfleet::decode(snowfleet::Layout(), id); });  // id >= 0
  return Napi::String::New(info.Env(), snowfleet::format_id(id));
}

/// parseTime(text) -> Unix ms (a Number), through the core's RFC 3339 parser.
Napi::Value ParseTime(const Napi::CallbackInfo& info) {
  const std::string text = ToString(info[0], "time text");
  return FromInt(info.Env(), Guard(info.Env(), [&] { return snowfleet::parse_iso8601(text); }));
}

}  // namespace

void InitCodec(Napi::Env env, Napi::Object exports) {
  exports.Set("parseLayout", Napi::Function::New<ParseLayout>(env, "parseLayout"));
  exports.Set("createLayout", Napi::Function::New<CreateLayout>(env, "createLayout"));
  exports.Set("createSplitLayout",
              Napi::Function::New<CreateSplitLayout>(env, "createSplitLayout"));
  exports.Set("decode", Napi::Function::New<Decode>(env, "decode"));
  exports.Set("compose", Napi::Function::New<Compose>(env, "compose"));
  exports.Set("parseId", Napi::Function::New<ParseId>(env, "parseId"));
  exports.Set("formatId", Napi::Function::New<FormatId>(env, "formatId"));
  exports.Set("parseTime", Napi::Function::New<ParseTime>(env, "parseTime"));
}

snowfleet::Layout ToLayout(Napi::Value v, const char* name) {
  // node/index.js passes a Layout as its canonical text.
  if (!v.IsString()) ThrowType(v, name, "a Layout or its text form (e.g. 'twitter')");
  const std::string text = v.As<Napi::String>().Utf8Value();
  return Guard(v.Env(), [&] { return snowfleet::Layout::parse(text); });
}

}  // namespace snowfleet_node
