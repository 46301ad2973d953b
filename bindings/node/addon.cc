// Module entry: one Addon instance per Node environment (main thread, each Worker). It
// owns the class constructors and the registered JS error classes, so two workers never
// share a JS handle.
#include <chrono>

#include "common.hpp"

namespace snowfleet_node {
namespace {

class Addon : public Napi::Addon<Addon> {
 public:
  Addon(Napi::Env env, Napi::Object exports) {
    data.generator_ctor = Napi::Persistent(InitGenerator(env));
    data.layout_ctor = Napi::Persistent(InitLayout(env));
    data.clock_ctor = Napi::Persistent(InitScriptedClock(env));
    exports.Set("Generator", data.generator_ctor.Value());
    exports.Set("Layout", data.layout_ctor.Value());
    exports.Set("ScriptedClock", data.clock_ctor.Value());
    exports.Set("maxBatch", Napi::Number::New(env, snowfleet::Generator::kMaxBatch));
    InitCodec(env, exports);
    DefineAddon(exports, {
                             InstanceMethod<&Addon::ErrorKinds>("errorKinds"),
                             InstanceMethod<&Addon::SetErrorClasses>("setErrorClasses"),
                         });
    // Reference row for the benchmark: the cheapest possible N-API call returning a
    // BigInt, without node-addon-api's wrappers.
    napi_value bare;
    NAPI_THROW_IF_FAILED_VOID(env, napi_create_function(env, "bareBigInt", NAPI_AUTO_LENGTH,
                                                        BareBigInt, nullptr, &bare));
    exports.Set("bareBigInt", Napi::Value(env, bare));
    exports.Set("coreLoop", Napi::Function::New<CoreLoop>(env, "coreLoop"));
  }

  AddonData data;

 private:
  /// The core's closed list of error kinds, in ErrorKind order: node/index.js builds its
  /// Error classes from it, so the JS table cannot drift from the core.
  Napi::Value ErrorKinds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const auto& kinds = snowfleet::error_kinds();
    Napi::Array out = Napi::Array::New(env, kinds.size());
    for (size_t i = 0; i < kinds.size(); ++i) {
      Napi::Object k = Napi::Object::New(env);
      k.Set("kind", Napi::Number::New(env, static_cast<double>(kinds[i].kind)));
      k.Set("code", kinds[i].code);
      k.Set("name", kinds[i].name);
      k.Set("category", kinds[i].category);
      k.Set("summary", kinds[i].summary);
      out.Set(static_cast<uint32_t>(i), k);
    }
    return out;
  }

  /// Registers the JS classes (an array in ErrorKind order) that core errors become.
  Napi::Value SetErrorClasses(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!info[0].IsArray()) ThrowType(env, "setErrorClasses expects an array of classes");
    Napi::Array classes = info[0].As<Napi::Array>();
    if (classes.Length() != snowfleet::error_kinds().size())
      ThrowType(env, "setErrorClasses expects " + std::to_string(snowfleet::error_kinds().size()) +
                         " classes, got " + std::to_string(classes.Length()));
    std::vector<Napi::FunctionReference> refs;
    for (uint32_t i = 0; i < classes.Length(); ++i) {
      Napi::Value c = classes.Get(i);
      if (!c.IsFunction()) ThrowType(env, "setErrorClasses: entry " + std::to_string(i) +
                                              " is not a class");
      refs.push_back(Napi::Persistent(c.As<Napi::Function>()));
    }
    data.error_classes = std::move(refs);
    return env.Undefined();
  }

  /// Reference row for the benchmark: ns per id of a plain C++ loop over the core's
  /// next_id() (mode 'strict' or 'monotonic', n ids, node 1023), i.e. the ceiling the
  /// binding can reach in the same process and the same machine state.
  static Napi::Value CoreLoop(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    snowfleet::GeneratorOptions opts;
    opts.node_id = 1023;
    const std::string mode = ToString(info[0], "mode");
    opts.mode = Guard(env, [&] { return snowfleet::parse_mode(mode); });
    const int64_t n = ToInt64(info[1], "n");
    return Guard(env, [&] {
      snowfleet::Generator gen(opts);
      int64_t sink = 0;
      const auto t0 = std::chrono::steady_clock::now();
      for (int64_t i = 0; i < n; ++i) sink ^= gen.next_id();
      const auto dt = std::chrono::steady_clock::now() - t0;
      volatile int64_t keep = sink;  // the loop must not be optimised away
      (void)keep;
      return Napi::Number::New(
          env, std::chrono::duration<double, std::nano>(dt).count() / static_cast<double>(n));
    });
  }

  static napi_value BareBigInt(napi_env env, napi_callback_info) {
    napi_value out = nullptr;
    napi_create_bigint_int64(env, 141264821508263936, &out);
    return out;
  }
};

}  // namespace

AddonData& Data(Napi::Env env) { return env.GetInstanceData<Addon>()->data; }

}  // namespace snowfleet_node

using SnowfleetAddon = snowfleet_node::Addon;
NODE_API_ADDON(SnowfleetAddon)
