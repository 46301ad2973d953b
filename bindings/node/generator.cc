// newGenerator(...): a core Generator and its methods, bound to it. node/index.js's
// Generator class holds them. nextId/nextIdString/nextIds run on the calling thread;
// nextIdsAsync runs the same core call on the libuv threadpool.
#include <cstring>

#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::Generator;
using Gen = std::shared_ptr<Generator>;
using snowfleet::LeaseState;
using snowfleet::Mode;

/// nextIdsAsync(n): fills a BigInt64Array's buffer off the event loop, straight into the
/// memory the resolved array uses. A bad n or a closed generator throws on the JS thread
/// before anything is allocated; node/index.js turns that throw into a rejection.
struct NextIdsWorker : Napi::AsyncWorker {
  NextIdsWorker(Napi::Env env, const Gen& gen, size_t n)
      : Napi::AsyncWorker(env, "snowfleet.nextIdsAsync"),
        gen(gen),
        n(n),
        buf(Napi::Persistent(Napi::ArrayBuffer::New(env, n * sizeof(int64_t)))),
        out(static_cast<int64_t*>(buf.Value().Data())) {}  // Execute() may not touch JS values
  void Execute() override {
    try {
      gen->next_ids(out, n);
    } catch (...) {
      error = std::current_exception();
    }
  }
  void OnOK() override {
    if (error) return deferred.Reject(CurrentError(Env(), error).Value());
    deferred.Resolve(
        Napi::TypedArrayOf<int64_t>::New(Env(), n, buf.Value(), 0, napi_bigint64_array));
  }
  Napi::Promise::Deferred deferred{Env()};
  Gen gen;  // keeps the generator alive past a GC
  size_t n;
  Napi::Reference<Napi::ArrayBuffer> buf;
  int64_t* out;
  std::exception_ptr error;
};

// A getter's value by its C++ type; Stats and Status expand the core's field lists.
Napi::Value ToJs(Napi::Env env, const char* camel, uint64_t x) {
  // Nanosecond figures are BigInt, like process.hrtime.bigint(); counters are Numbers.
  if (std::strstr(camel, "Ns")) return Napi::BigInt::New(env, x);
  return Napi::Number::New(env, static_cast<double>(x));
}
Napi::Value ToJs(Napi::Env env, const char*, int64_t x) { return FromInt(env, x); }
Napi::Value ToJs(Napi::Env env, const char*, bool x) { return Napi::Boolean::New(env, x); }
Napi::Value ToJs(Napi::Env env, const char*, const std::string& x) {
  return Napi::String::New(env, x);
}
Napi::Value ToJs(Napi::Env env, const char*, Mode x) {
  return Napi::String::New(env, snowfleet::mode_name(x));
}
Napi::Value ToJs(Napi::Env env, const char*, LeaseState x) {
  return Napi::String::New(env, snowfleet::lease_state_name(x));
}
#define SNOWFLEET_NODE_FIELD(name, camel, kind, init, doc) o.Set(camel, ToJs(env, camel, s.name));
Napi::Value ToJs(Napi::Env env, const char*, const snowfleet::Stats& s) {
  Napi::Object o = Napi::Object::New(env);
  SNOWFLEET_STATS_FIELDS(SNOWFLEET_NODE_FIELD)
  return o;
}
Napi::Value ToJs(Napi::Env env, const char*, const snowfleet::Status& s) {
  Napi::Object o = Napi::Object::New(env);
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_NODE_FIELD)
  return o;
}
#undef SNOWFLEET_NODE_FIELD

// The methods. Get<F>: one with no argument, returning (*gen.*F)() (stats, status, ...).
template <auto F>
Napi::Value Get(Napi::Env env, const Gen& gen, const napi_value*) {
  return ToJs(env, "", ((*gen).*F)());
}
Napi::Value NextId(Napi::Env env, const Gen& gen, const napi_value*) {
  return Napi::BigInt::New(env, gen->next_id());
}
Napi::Value NextIdString(Napi::Env env, const Gen& gen, const napi_value*) {
  char buf[24];
  const size_t n = snowfleet::format_id(gen->next_id(), buf);
  napi_value out = nullptr;
  napi_create_string_latin1(env, buf, n, &out);  // digits only: Latin-1 is exact
  return Napi::Value(env, out);
}
Napi::Value NextIds(Napi::Env env, const Gen& gen, const napi_value* args) {
  const size_t n = gen->batch_size(ToInt64(Napi::Value(env, args[0]), "n"));
  Napi::ArrayBuffer buf = Napi::ArrayBuffer::New(env, n * sizeof(int64_t));
  gen->next_ids(static_cast<int64_t*>(buf.Data()), n);  // written in place: zero copy
  return Napi::TypedArrayOf<int64_t>::New(env, n, buf, 0, napi_bigint64_array);
}
Napi::Value NextIdsAsync(Napi::Env env, const Gen& gen, const napi_value* args) {
  const size_t n = gen->batch_size(ToInt64(Napi::Value(env, args[0]), "n"));
  auto* worker = new NextIdsWorker(env, gen, n);
  worker->Queue();  // deletes itself when done
  return worker->deferred.Promise();
}
Napi::Value Close(Napi::Env env, const Gen& gen, const napi_value*) {
  gen->close();
  return env.Undefined();
}

// Each kind of SNOWFLEET_GENERATOR_ARGS as the host gives it; undefined: not given.
std::optional<snowfleet::Layout> ArgLAYOUT(Napi::Value v, const char* name) {
  return Optional(v, name, ToLayout);
}
std::optional<int64_t> ArgI64(Napi::Value v, const char* name) {
  return Optional(v, name, ToInt64);
}
std::optional<double> ArgF64(Napi::Value v, const char* name) {
  return Optional(v, name, ToDouble);
}
std::optional<std::string> ArgTEXT(Napi::Value v, const char* name) {
  return Optional(v, name, ToString);
}
std::optional<std::string> ArgMODE(Napi::Value v, const char* name) {
  return Optional(v, name, ToString);
}
std::shared_ptr<snowfleet::Clock> ArgCLOCK(Napi::Value v, const char* name) {
  return Optional(v, name, ToScriptedClock).value_or(nullptr);
}

/// newGenerator(the options in SNOWFLEET_GENERATOR_ARGS's order, generatorOptions) -> { the
/// methods, nodeId, mode, maxWaitMs, maxDriftMs, layout }. node/index.js passes the options
/// the user gave and undefined for the others; the core's resolve_options() applies every
/// rule and default.
snowfleet::GeneratorArgs ReadArgs(const Napi::CallbackInfo& info) {
  snowfleet::GeneratorArgs a;
  size_t i = 0;
#define SNOWFLEET_NODE_ARG(name, camel, kind, doc) a.name = Arg##kind(info[i++], camel);
  SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_NODE_ARG)
#undef SNOWFLEET_NODE_ARG
  return a;
}

/// The JS object node/index.js's Generator holds: the fixed values and the bound methods.
Napi::Value Wrap(Napi::Env env, const Gen& gen) {
  const Napi::Object fixed =
      Obj(env, {{"nodeId", FromInt(env, gen->node_id())},
                {"mode", ToJs(env, "", gen->mode())},
                {"maxWaitMs", Napi::Number::New(env, gen->max_wait_ms())},
                {"maxDriftMs", FromInt(env, gen->max_drift_ms())},
                {"layout", Napi::String::New(env, gen->layout().to_string())}});
  return Export<Generator>(fixed,
                           {{"nextId", Bound<Generator, NextId>},
                            {"nextIdString", Bound<Generator, NextIdString>},
                            {"nextIds", Bound<Generator, NextIds, 1>},
                            {"nextIdsAsync", Bound<Generator, NextIdsAsync, 1>},
                            {"stats", Bound<Generator, Get<&Generator::stats>>},
                            {"status", Bound<Generator, Get<&Generator::status>>},
                            {"close", Bound<Generator, Close>},
                            {"closed", Bound<Generator, Get<&Generator::closed>>},
                            {"driftMs", Bound<Generator, Get<&Generator::drift_ms>>}},
                           gen);
}

Napi::Value NewGenerator(const Napi::CallbackInfo& info) {
  return Wrap(info.Env(), std::make_shared<Generator>(snowfleet::resolve_options(ReadArgs(info))));
}

/// newGeneratorAsync(the same arguments) -> Promise: the construction (a node source may
/// claim a lease: files, a network round trip) runs on the libuv threadpool, never on the
/// event loop; the arguments are read (and type errors thrown) here, before any work.
struct NewGeneratorWorker : Napi::AsyncWorker {
  NewGeneratorWorker(Napi::Env env, snowfleet::GeneratorArgs args)
      : Napi::AsyncWorker(env, "snowfleet.Generator.create"), args(std::move(args)) {}
  void Execute() override {
    try {
      gen = std::make_shared<Generator>(snowfleet::resolve_options(std::move(args)));
    } catch (...) {
      error = std::current_exception();
    }
  }
  void OnOK() override {
    if (error) return deferred.Reject(CurrentError(Env(), error).Value());
    deferred.Resolve(Wrap(Env(), gen));
  }
  Napi::Promise::Deferred deferred{Env()};
  snowfleet::GeneratorArgs args;
  Gen gen;
  std::exception_ptr error;
};

Napi::Value NewGeneratorAsync(const Napi::CallbackInfo& info) {
  auto* worker = new NewGeneratorWorker(info.Env(), ReadArgs(info));
  worker->Queue();  // deletes itself when done
  return worker->deferred.Promise();
}

}  // namespace

Napi::Value StatsToJs(Napi::Env env, const snowfleet::Stats& s) { return ToJs(env, "", s); }
Napi::Value StatusToJs(Napi::Env env, const snowfleet::Status& s) { return ToJs(env, "", s); }

void InitGenerator(Napi::Object exports) {
  Export(exports, {{"newGenerator", Fn<NewGenerator>}, {"newGeneratorAsync", Fn<NewGeneratorAsync>}});
  exports.Set("maxBatch", Napi::Number::New(exports.Env(), Generator::kMaxBatch));
  // The option keys newGenerator takes, in its order: node/index.js's Generator reads them.
  Napi::Array names = Napi::Array::New(exports.Env());
  for (const auto& f : snowfleet::generator_arg_fields())
    names.Set(names.Length(), Napi::String::New(exports.Env(), f.camel));
  exports.Set("generatorOptions", names);
}

}  // namespace snowfleet_node
