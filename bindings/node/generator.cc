// newGenerator(...): a core Generator and its methods, bound to it. node/index.js's
// Generator class holds them. nextId/nextIdString/nextIds run on the calling thread;
// nextIdsAsync runs the same core call on the libuv threadpool.
#include <cstring>

#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::Generator;

/// Fills a BigInt64Array's buffer off the event loop, straight into the memory the
/// resolved array uses (the ArrayBuffer is made on the JS thread and held by reference).
class NextIdsWorker : public Napi::AsyncWorker {
 public:
  NextIdsWorker(Napi::Env env, std::shared_ptr<Generator> gen, size_t n)
      : Napi::AsyncWorker(env, "snowfleet.nextIdsAsync"),
        deferred_(Napi::Promise::Deferred::New(env)),
        gen_(std::move(gen)),
        n_(n) {
    Napi::ArrayBuffer buf = Napi::ArrayBuffer::New(env, n * sizeof(int64_t));
    out_ = static_cast<int64_t*>(buf.Data());
    buf_ = Napi::Persistent(buf);
  }
  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  void Execute() override {
    try {
      gen_->next_ids(out_, n_);
    } catch (const snowfleet::Error& e) {
      error_ = std::make_unique<snowfleet::Error>(e);
    } catch (const std::exception& e) {
      error_ = std::make_unique<snowfleet::Error>(snowfleet::ErrorKind::kInternal, e.what());
    }
  }
  void OnOK() override {
    if (error_) return deferred_.Reject(MakeError(Env(), *error_).Value());
    deferred_.Resolve(
        Napi::TypedArrayOf<int64_t>::New(Env(), n_, buf_.Value(), 0, napi_bigint64_array));
  }

 private:
  Napi::Promise::Deferred deferred_;
  std::shared_ptr<Generator> gen_;  // keeps the generator alive past a GC
  Napi::Reference<Napi::ArrayBuffer> buf_;
  int64_t* out_ = nullptr;
  size_t n_;
  std::unique_ptr<snowfleet::Error> error_;
};

// ---- Stats and Status: expanded from the core's field lists ------------------------------

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
Napi::Value ToJs(Napi::Env env, const char*, snowfleet::Mode x) {
  return Napi::String::New(env, snowfleet::mode_name(x));
}
Napi::Value ToJs(Napi::Env env, const char*, snowfleet::LeaseState x) {
  return Napi::String::New(env, snowfleet::lease_state_name(x));
}
#define SNOWFLEET_NODE_FIELD(type, name, camel, init, doc) o.Set(camel, ToJs(env, camel, s.name));

// ---- methods -------------------------------------------------------------------------------

Napi::Value NextId(Napi::Env env, Generator& gen, const napi_value*) {
  return Napi::BigInt::New(env, gen.next_id());
}

Napi::Value NextIdString(Napi::Env env, Generator& gen, const napi_value*) {
  char buf[24];
  const size_t n = snowfleet::format_id(gen.next_id(), buf);
  napi_value out = nullptr;
  napi_create_string_latin1(env, buf, n, &out);  // digits only: Latin-1 is exact
  return Napi::Value(env, out);
}

Napi::Value NextIds(Napi::Env env, Generator& gen, const napi_value* args) {
  const size_t n = gen.batch_size(ToInt64(Napi::Value(env, args[0]), "n"));
  Napi::ArrayBuffer buf = Napi::ArrayBuffer::New(env, n * sizeof(int64_t));
  gen.next_ids(static_cast<int64_t*>(buf.Data()), n);  // written in place: zero copy
  return Napi::TypedArrayOf<int64_t>::New(env, n, buf, 0, napi_bigint64_array);
}

Napi::Value Stats(Napi::Env env, Generator& gen, const napi_value*) {
  const snowfleet::Stats s = gen.stats();
  Napi::Object o = Napi::Object::New(env);
  SNOWFLEET_STATS_FIELDS(SNOWFLEET_NODE_FIELD)
  return o;
}

Napi::Value Status(Napi::Env env, Generator& gen, const napi_value*) {
  const snowfleet::Status s = gen.status();
  Napi::Object o = Napi::Object::New(env);
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_NODE_FIELD)
  return o;
}

Napi::Value Close(Napi::Env env, Generator& gen, const napi_value*) {
  gen.close();
  return env.Undefined();
}
Napi::Value Closed(Napi::Env env, Generator& gen, const napi_value*) {
  return Napi::Boolean::New(env, gen.closed());
}
Napi::Value DriftMs(Napi::Env env, Generator& gen, const napi_value*) {
  return FromInt(env, gen.drift_ms());
}

/// nextIdsAsync(n): always a promise; a bad n or a closed generator rejects it.
napi_value NextIdsAsync(napi_env raw, napi_callback_info cbi) {
  try {
    Napi::CallbackInfo info(raw, cbi);
    Napi::Env env = info.Env();
    try {
      auto& gen = *static_cast<std::shared_ptr<Generator>*>(info.Data());
      const size_t n = Guard(env, [&] { return gen->batch_size(ToInt64(info[0], "n")); });
      auto* worker = new NextIdsWorker(env, gen, n);  // deletes itself when done
      worker->Queue();
      return worker->Promise();
    } catch (const Napi::Error& e) {
      Napi::Promise::Deferred rejected = Napi::Promise::Deferred::New(env);
      rejected.Reject(e.Value());
      return rejected.Promise();
    }
  } catch (...) {
    return ThrowPending(raw);  // the environment is going away
  }
}

/// newGenerator(layout, nodeId, datacenterId, machineId, nodeSource, mode, maxWaitMs,
/// maxDriftMs, clock) -> { the methods, and nodeId, mode, maxWaitMs, maxDriftMs, layout }.
/// node/index.js passes the options the user gave and undefined for the others; the core's
/// resolve_options() applies every rule and default.
Napi::Value NewGenerator(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  snowfleet::GeneratorArgs a;
  a.layout = Optional(info[0], "layout", ToLayout);
  a.node_id = Optional(info[1], "nodeId", ToInt64);
  a.datacenter_id = Optional(info[2], "datacenterId", ToInt64);
  a.machine_id = Optional(info[3], "machineId", ToInt64);
  a.node_source = Optional(info[4], "nodeSource", ToString);
  a.mode = Optional(info[5], "mode", ToString);
  a.max_wait_ms = Optional(info[6], "maxWaitMs", ToDouble);
  a.max_drift_ms = Optional(info[7], "maxDriftMs", ToInt64);
  if (!info[8].IsUndefined()) a.clock = ToScriptedClock(info[8], "clock");
  const auto gen = Guard(
      env, [&] { return std::make_shared<Generator>(snowfleet::resolve_options(std::move(a))); });
  Napi::Object out = BindAll<Generator>(env, gen,
                                        {{"nextId", Bound<Generator, NextId, 0>},
                                         {"nextIdString", Bound<Generator, NextIdString, 0>},
                                         {"nextIds", Bound<Generator, NextIds, 1>},
                                         {"nextIdsAsync", NextIdsAsync},
                                         {"stats", Bound<Generator, Stats>},
                                         {"status", Bound<Generator, Status>},
                                         {"close", Bound<Generator, Close>},
                                         {"closed", Bound<Generator, Closed>},
                                         {"driftMs", Bound<Generator, DriftMs>}});
  out.Set("nodeId", FromInt(env, gen->node_id()));
  out.Set("mode", ToJs(env, "", gen->mode()));
  out.Set("maxWaitMs", gen->max_wait_ms());
  out.Set("maxDriftMs", FromInt(env, gen->max_drift_ms()));
  out.Set("layout", gen->layout().to_string());
  return out;
}
#undef SNOWFLEET_NODE_FIELD

}  // namespace

void InitGenerator(Napi::Env env, Napi::Object exports) {
  exports.Set("newGenerator", Napi::Function::New<NewGenerator>(env, "newGenerator"));
  exports.Set("maxBatch", Napi::Number::New(env, Generator::kMaxBatch));
}

}  // namespace snowfleet_node
