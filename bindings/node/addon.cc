// Module entry: one Addon instance per Node environment (main thread, each Worker). It
// owns the registered JS error classes, so two workers never share a JS handle.
#include "common.hpp"

namespace snowfleet_node {
namespace {

class Addon : public Napi::Addon<Addon> {
 public:
  Addon(Napi::Env env, Napi::Object exports) {
    InitGenerator(env, exports);
    InitScriptedClock(env, exports);
    InitCodec(env, exports);
    DefineAddon(exports, {
                             InstanceMethod<&Addon::ErrorKinds>("errorKinds"),
                             InstanceMethod<&Addon::SetErrorClasses>("setErrorClasses"),
                         });
  }

  AddonData data;

 private:
  /// The core's closed list of error kinds, in ErrorKind order: node/index.js builds its
  /// Error classes from it, so the JS table cannot drift from the core.
  Napi::Value ErrorKinds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const auto& kinds = snowfleet::error_kinds();
    Napi::Array out = Napi::Array::New(env, kinds.size());
    for (uint32_t i = 0; i < kinds.size(); ++i) {
      Napi::Object k = Napi::Object::New(env);
      k.Set("code", kinds[i].code);
      k.Set("name", kinds[i].name);
      k.Set("category", kinds[i].category);
      k.Set("summary", kinds[i].summary);
      out.Set(i, k);
    }
    return out;
  }

  /// Registers the JS classes (an array in ErrorKind order) that core errors become.
  Napi::Value SetErrorClasses(const Napi::CallbackInfo& info) {
    Napi::Array classes = info[0].As<Napi::Array>();
    data.error_classes.clear();
    for (uint32_t i = 0; i < classes.Length(); ++i)
      data.error_classes.push_back(Napi::Persistent(classes.Get(i).As<Napi::Function>()));
    return info.Env().Undefined();
  }
};

}  // namespace

AddonData& Data(Napi::Env env) { return env.GetInstanceData<Addon>()->data; }

}  // namespace snowfleet_node

using SnowfleetAddon = snowfleet_node::Addon;
NODE_API_ADDON(SnowfleetAddon)
