// Module entry (run once per Node environment: main thread, each Worker) and error mapping.
// The environment's instance data is the error factories node/index.js registers, so two
// workers never share a JS handle.

#include "common.hpp"

namespace snowfleet_node {
namespace {

/// node/index.js's error factories (setErrorFactories), so JS shapes every error it throws:
/// core(kind index in ErrorKind order, message, driftMs) -> an instance of the kind's class;
/// type(name, want, value) -> the host TypeError, describing the value as index.js does.
struct Factories {
  Napi::FunctionReference core, type;
};

Napi::Value SetErrorFactories(const Napi::CallbackInfo& info) {
  auto& f = *info.Env().GetInstanceData<Factories>();
  f.core = Napi::Persistent(info[0].As<Napi::Function>());
  f.type = Napi::Persistent(info[1].As<Napi::Function>());
  return info.Env().Undefined();
}

/// runCliStdio(...args) -> exit status: the core's CLI writing the process's stdout and
/// stderr itself, a chunk at a time (node/cli.js), so `-n` stays flat in memory and a failed
/// write ends it as in every package.
Napi::Value RunCliStdio(const Napi::CallbackInfo& info) {
  std::vector<std::string> args;
  for (size_t i = 0; i < info.Length(); ++i) args.push_back(ToString(info[i], "argument"));
  return Napi::Number::New(info.Env(), snowfleet::run_cli_stdio(args));
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new Factories());
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
  // node/index.js compares it with package.json's version on load.
  exports.Set("version", Napi::String::New(env, snowfleet::version()));
  Export(exports, {{"setErrorFactories", Fn<SetErrorFactories>}, {"runCliStdio", Fn<RunCliStdio>}});
  InitGenerator(exports);
  InitScriptedClock(exports);
  InitCodec(exports);
  InitTextRange(exports);
  InitUuid7(exports);
  return exports;
}

}  // namespace

Napi::Error CurrentError(Napi::Env env, std::exception_ptr error) {
  const Napi::FunctionReference& make = env.GetInstanceData<Factories>()->core;
  try {
    std::rethrow_exception(error);
  } catch (const Napi::Error& e) {
    return e;
  } catch (const snowfleet::Error& e) {
    if (make.IsEmpty())  // the raw addon, without node/index.js
      return Napi::Error::New(env, std::string(e.code()) + ": " + e.what());
    return Napi::Error(env, make.Call({Napi::Number::New(env, static_cast<double>(e.kind())),
                                       Napi::String::New(env, e.what()),
                                       Napi::Number::New(env, static_cast<double>(e.drift_ms()))}));
  } catch (const std::exception& e) {
    const snowfleet::Error internal(snowfleet::ErrorKind::kInternal, e.what());
    return CurrentError(env, std::make_exception_ptr(internal));
  }
}

napi_value ThrowPending(napi_env env) {
  try {  // making the JS error can fail too (a terminating Worker): that one is thrown then
    CurrentError(Napi::Env(env)).ThrowAsJavaScriptException();
  } catch (const Napi::Error& e) {
    e.ThrowAsJavaScriptException();
  }
  return nullptr;
}

void ThrowType(Napi::Value got, const char* name, const char* want) {
  const Napi::Env env = got.Env();
  const Napi::FunctionReference& make = env.GetInstanceData<Factories>()->type;
  if (make.IsEmpty()) throw Napi::TypeError::New(env, std::string(name) + " must be " + want);
  throw Napi::Error(env,
                    make.Call({Napi::String::New(env, name), Napi::String::New(env, want), got}));
}

}  // namespace snowfleet_node

using snowfleet_node::Init;
NODE_API_MODULE(snowfleet, Init)
