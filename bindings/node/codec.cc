// Layout (a wrapped snowfleet::Layout) and the codec functions decode / compose / parseId /
// formatId / parseTime.
#include "common.hpp"

namespace snowfleet_node {
namespace {

class LayoutWrap : public Napi::ObjectWrap<LayoutWrap> {
 public:
  /// new Layout() is the default layout; new Layout(text) parses the text form or a
  /// preset name.
  explicit LayoutWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<LayoutWrap>(info) {
    if (info.Length() > 0 && !info[0].IsUndefined()) {
      const std::string text = ToString(info[0], "layout text");
      layout_ = Guard(info.Env(), [&] { return snowfleet::Layout::parse(text); });
    }
  }

  static Napi::Function Init(Napi::Env env) {
    return DefineClass(
        env, "Layout",
        {
            StaticMethod<&LayoutWrap::Default>("default"),
            StaticMethod<&LayoutWrap::Twitter>("twitter"),
            StaticMethod<&LayoutWrap::Discord>("discord"),
            StaticMethod<&LayoutWrap::Parse>("parse"),
            StaticMethod<&LayoutWrap::Create>("create"),
            InstanceMethod<&LayoutWrap::ToText>("toString"),
            InstanceMethod<&LayoutWrap::ToText>("toJSON"),
            InstanceMethod<&LayoutWrap::Equals>("equals"),
            InstanceAccessor<&LayoutWrap::Preset>("preset"),
            InstanceAccessor<&LayoutWrap::EpochMs>("epochMs"),
            InstanceAccessor<&LayoutWrap::TimestampBits>("timestampBits"),
            InstanceAccessor<&LayoutWrap::NodeBits>("nodeBits"),
            InstanceAccessor<&LayoutWrap::DatacenterBits>("datacenterBits"),
            InstanceAccessor<&LayoutWrap::MachineBits>("machineBits"),
            InstanceAccessor<&LayoutWrap::SequenceBits>("sequenceBits"),
            InstanceAccessor<&LayoutWrap::Split>("split"),
            InstanceAccessor<&LayoutWrap::TimestampShift>("timestampShift"),
            InstanceAccessor<&LayoutWrap::NodeShift>("nodeShift"),
            InstanceAccessor<&LayoutWrap::MaxNodeId>("maxNodeId"),
            InstanceAccessor<&LayoutWrap::MaxDatacenterId>("maxDatacenterId"),
            InstanceAccessor<&LayoutWrap::MaxMachineId>("maxMachineId"),
            InstanceAccessor<&LayoutWrap::MaxSequence>("maxSequence"),
            InstanceAccessor<&LayoutWrap::MaxElapsedMs>("maxElapsedMs"),
            InstanceAccessor<&LayoutWrap::MaxTimestampMs>("maxTimestampMs"),
        });
  }

  snowfleet::Layout layout_;

 private:
  static Napi::Value Default(const Napi::CallbackInfo& info) {
    return NewLayout(info.Env(), snowfleet::Layout::kDefault);
  }
  static Napi::Value Twitter(const Napi::CallbackInfo& info) {
    return NewLayout(info.Env(), snowfleet::Layout::kTwitter);
  }
  static Napi::Value Discord(const Napi::CallbackInfo& info) {
    return NewLayout(info.Env(), snowfleet::Layout::kDiscord);
  }
  static Napi::Value Parse(const Napi::CallbackInfo& info) {
    const std::string text = ToString(info[0], "layout text");
    return NewLayout(info.Env(), Guard(info.Env(), [&] { return snowfleet::Layout::parse(text); }));
  }
  /// Layout.create({ epochMs, timestampBits, nodeBits, sequenceBits }) or, split,
  /// Layout.create({ epochMs, timestampBits, datacenterBits, machineBits, sequenceBits }).
  static Napi::Value Create(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!info[0].IsObject())
      ThrowType(env, "Layout.create expects { epochMs, timestampBits, nodeBits, sequenceBits }, "
                     "got " + Describe(info[0]));
    Napi::Object o = info[0].As<Napi::Object>();
    CheckKeys(o, {"epochMs", "timestampBits", "nodeBits", "datacenterBits", "machineBits",
                  "sequenceBits"},
              "Layout.create field");
    auto need = [&](const char* key) {
      Napi::Value v = Opt(o, key);
      if (v.IsEmpty()) ThrowType(env, std::string("Layout.create needs ") + key);
      return v;
    };
    const int64_t epoch = ToInt64(need("epochMs"), "epochMs");
    const int ts = ToInt(need("timestampBits"), "timestampBits");
    const int seq = ToInt(need("sequenceBits"), "sequenceBits");
    const bool split = !Opt(o, "datacenterBits").IsEmpty();
    if (split && !Opt(o, "nodeBits").IsEmpty())
      ThrowType(env, "Layout.create takes nodeBits or datacenterBits + machineBits, not both");
    if (split) {
      const int dc = ToInt(need("datacenterBits"), "datacenterBits");
      const int machine = ToInt(need("machineBits"), "machineBits");
      return NewLayout(env, Guard(env, [&] {
                         return snowfleet::Layout::create_split(epoch, ts, dc, machine, seq);
                       }));
    }
    const int node = ToInt(need("nodeBits"), "nodeBits");
    return NewLayout(env, Guard(env, [&] { return snowfleet::Layout::create(epoch, ts, node, seq); }));
  }

  Napi::Value ToText(const Napi::CallbackInfo& info) {
    return Napi::String::New(info.Env(), layout_.to_string());
  }
  Napi::Value Equals(const Napi::CallbackInfo& info) {
    return Napi::Boolean::New(info.Env(), layout_ == ToLayout(info[0], "other"));
  }

#define SNOWFLEET_GETTER(Name, expr) \
  Napi::Value Name(const Napi::CallbackInfo& info) { return expr; }
  SNOWFLEET_GETTER(Preset, Napi::String::New(info.Env(), layout_.preset_name()))
  SNOWFLEET_GETTER(EpochMs, FromMs(info.Env(), layout_.epoch_ms()))
  SNOWFLEET_GETTER(TimestampBits, Napi::Number::New(info.Env(), layout_.timestamp_bits()))
  SNOWFLEET_GETTER(NodeBits, Napi::Number::New(info.Env(), layout_.node_bits()))
  SNOWFLEET_GETTER(DatacenterBits, Napi::Number::New(info.Env(), layout_.datacenter_bits()))
  SNOWFLEET_GETTER(MachineBits, Napi::Number::New(info.Env(), layout_.machine_bits()))
  SNOWFLEET_GETTER(SequenceBits, Napi::Number::New(info.Env(), layout_.sequence_bits()))
  SNOWFLEET_GETTER(Split, Napi::Boolean::New(info.Env(), layout_.split()))
  SNOWFLEET_GETTER(TimestampShift, Napi::Number::New(info.Env(), layout_.timestamp_shift()))
  SNOWFLEET_GETTER(NodeShift, Napi::Number::New(info.Env(), layout_.node_shift()))
  SNOWFLEET_GETTER(MaxNodeId, FromMs(info.Env(), layout_.max_node_id()))
  SNOWFLEET_GETTER(MaxDatacenterId, FromMs(info.Env(), layout_.max_datacenter_id()))
  SNOWFLEET_GETTER(MaxMachineId, FromMs(info.Env(), layout_.max_machine_id()))
  SNOWFLEET_GETTER(MaxSequence, FromMs(info.Env(), layout_.max_sequence()))
  SNOWFLEET_GETTER(MaxElapsedMs, FromMs(info.Env(), layout_.max_elapsed_ms()))
  SNOWFLEET_GETTER(MaxTimestampMs, FromMs(info.Env(), layout_.max_timestamp_ms()))
#undef SNOWFLEET_GETTER
};

/// decode(id, layout?) -> { timestampMs, nodeId, datacenterId, machineId, sequence }
Napi::Value Decode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int64_t id = ToId(info[0], "id");
  const snowfleet::Layout layout =
      info[1].IsUndefined() ? snowfleet::Layout() : ToLayout(info[1], "layout");
  const snowfleet::Decoded d = Guard(env, [&] { return snowfleet::decode(layout, id); });
  Napi::Object o = Napi::Object::New(env);
  o.Set("timestampMs", FromMs(env, d.timestamp_ms));
  o.Set("nodeId", FromMs(env, d.node_id));
  o.Set("datacenterId", FromMs(env, d.datacenter_id));
  o.Set("machineId", FromMs(env, d.machine_id));
  o.Set("sequence", FromMs(env, d.sequence));
  return o;
}

/// compose({ timestampMs, nodeId | datacenterId + machineId, sequence = 0, layout }) -> bigint
Napi::Value Compose(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject())
    ThrowType(env, "compose expects { timestampMs, nodeId, sequence, layout }, got " +
                       Describe(info[0]));
  Napi::Object o = info[0].As<Napi::Object>();
  CheckKeys(o, {"timestampMs", "nodeId", "datacenterId", "machineId", "sequence", "layout"},
            "compose field");
  Napi::Value v = Opt(o, "timestampMs");
  if (v.IsEmpty()) ThrowType(env, "compose needs timestampMs");
  const int64_t ts = ToInt64(v, "timestampMs");
  const int64_t seq = (v = Opt(o, "sequence")).IsEmpty() ? 0 : ToInt64(v, "sequence");
  const snowfleet::Layout layout =
      (v = Opt(o, "layout")).IsEmpty() ? snowfleet::Layout() : ToLayout(v, "layout");
  const bool has_node = !Opt(o, "nodeId").IsEmpty();
  const bool has_dc = !Opt(o, "datacenterId").IsEmpty(), has_m = !Opt(o, "machineId").IsEmpty();
  if (has_node == (has_dc || has_m) || has_dc != has_m)
    ThrowType(env, "compose needs either nodeId or both datacenterId and machineId");
  int64_t id;
  if (has_node) {
    const int64_t node = ToInt64(o.Get("nodeId"), "nodeId");
    id = Guard(env, [&] { return snowfleet::compose(layout, ts, node, seq); });
  } else {
    const int64_t dc = ToInt64(o.Get("datacenterId"), "datacenterId");
    const int64_t m = ToInt64(o.Get("machineId"), "machineId");
    id = Guard(env, [&] { return snowfleet::compose_split(layout, ts, dc, m, seq); });
  }
  return Napi::BigInt::New(env, id);
}

/// parseId(text) -> bigint, through the core's strict decimal parser.
Napi::Value ParseId(const Napi::CallbackInfo& info) {
  const std::string text = ToString(info[0], "id text");
  return Napi::BigInt::New(info.Env(), Guard(info.Env(), [&] { return snowfleet::parse_id(text); }));
}

/// parseTime(text) -> Unix ms (a Number), through the core's RFC 3339 parser.
Napi::Value ParseTime(const Napi::CallbackInfo& info) {
  const std::string text = ToString(info[0], "time text");
  return FromMs(info.Env(), Guard(info.Env(), [&] { return snowfleet::parse_iso8601(text); }));
}

/// formatId(id) -> decimal string, through the core's formatter.
Napi::Value FormatId(const Napi::CallbackInfo& info) {
  const int64_t id = ToId(info[0], "id");
  if (id < 0) ThrowInvalid(info.Env(), "id must be non-negative, got " + std::to_string(id));
  return IdString(info.Env(), id);
}

}  // namespace

Napi::Function InitLayout(Napi::Env env) { return LayoutWrap::Init(env); }

void InitCodec(Napi::Env env, Napi::Object exports) {
  exports.Set("decode", Napi::Function::New<Decode>(env, "decode"));
  exports.Set("compose", Napi::Function::New<Compose>(env, "compose"));
  exports.Set("parseId", Napi::Function::New<ParseId>(env, "parseId"));
  exports.Set("formatId", Napi::Function::New<FormatId>(env, "formatId"));
  exports.Set("parseTime", Napi::Function::New<ParseTime>(env, "parseTime"));
}

snowfleet::Layout ToLayout(Napi::Value v, const std::string& name) {
  Napi::Env env = v.Env();
  if (v.IsString()) {
    const std::string text = v.As<Napi::String>().Utf8Value();
    return Guard(env, [&] { return snowfleet::Layout::parse(text); });
  }
  if (v.IsObject() && v.As<Napi::Object>().InstanceOf(Data(env).layout_ctor.Value()))
    return LayoutWrap::Unwrap(v.As<Napi::Object>())->layout_;
  ThrowType(env, name + " must be a Layout or its text form (e.g. '41.10.12@1704067200000'), "
                        "got " + Describe(v));
}

Napi::Object NewLayout(Napi::Env env, const snowfleet::Layout& layout) {
  Napi::Object obj = Data(env).layout_ctor.New({});
  LayoutWrap::Unwrap(obj)->layout_ = layout;
  return obj;
}

}  // namespace snowfleet_node
