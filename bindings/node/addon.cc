// Module entry, run once per Node environment (main thread, each Worker). The environment's
// instance data is the JS error classes node/index.js registers, so two workers never share
// a JS handle.
#include "common.hpp"

namespace snowfleet_node {
namespace {

/// setErrorClasses(classes): the JS classes, in ErrorKind order, that core errors become.
Napi::Value SetErrorClasses(const Napi::CallbackInfo& info) {
  Napi::Array classes = info[0].As<Napi::Array>();
  auto& out = *info.Env().GetInstanceData<std::vector<Napi::FunctionReference>>();
  out.clear();
  for (uint32_t i = 0; i < classes.Length(); ++i)
    out.push_back(Napi::Persistent(classes.Get(i).As<Napi::Function>()));
  return info.Env().Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new std::vector<Napi::FunctionReference>());
  // The core's closed list of error kinds, in ErrorKind order: node/index.js builds its
  // Error classes from it, so the JS table cannot drift from the core.
  Napi::Array kinds = Napi::Array::New(env);
  for (const auto& k : snowfleet::error_kinds()) {
    kinds.Set(kinds.Length(), Obj(env, {{"code", Napi::String::New(env, k.code)},
                                        {"name", Napi::String::New(env, k.name)},
                                        {"category", Napi::String::New(env, k.category)},
                                        {"summary", Napi::String::New(env, k.summary)}}));
  }
  exports.Set("errorKinds", kinds);
  Export(exports, {{"setErrorClasses", Fn<SetErrorClasses>}});
  InitGenerator(exports);
  InitScriptedClock(exports);
  InitCodec(exports);
  return exports;
}

}  // namespace
}  // namespace snowfleet_node

using snowfleet_node::Init;
NODE_API_MODULE(snowfleet, Init)
