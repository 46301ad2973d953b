// The Generator class: options in, ids out. nextId()/nextIdString()/nextIds() run on the
// calling thread (they may block for up to maxWaitMs on a rewind or a spent millisecond);
// nextIdsAsync() runs the same core call on the libuv threadpool.
#include "common.hpp"

namespace snowfleet_node {
namespace {

using snowfleet::ErrorKind;

/// A batch size for next_ids, checked by the core before the buffer is allocated.
size_t ToBatch(const snowfleet::Generator& gen, Napi::Value v) {
  if (!v.IsNumber()) ThrowType(v.Env(), "n must be a number, got " + Describe(v));
  const int64_t n = ToInt64(v, "n");
  return Guard(v.Env(), [&] { return gen.batch_size(n); });
}

Napi::Value U64(Napi::Env env, uint64_t x) {
  return Napi::Number::New(env, static_cast<double>(x));
}

/// Fills a BigInt64Array's buffer off the event loop. The ArrayBuffer is created on the JS
/// thread and held by a persistent reference, so the worker writes straight into memory
/// the resolved array will use: no copy.
class NextIdsWorker : public Napi::AsyncWorker {
 public:
  NextIdsWorker(Napi::Env env, std::shared_ptr<snowfleet::Generator> gen, size_t n)
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
      Fail(e.kind(), e.what(), e.drift_ms());
    } catch (const std::exception& e) {
      Fail(ErrorKind::kInternal, e.what(), 0);
    }
  }
  void OnOK() override {
    Napi::Env env = Env();
    if (failed_) {
      deferred_.Reject(MakeError(env, kind_, message_, drift_ms_).Value());
      return;
    }
    deferred_.Resolve(
        Napi::TypedArrayOf<int64_t>::New(env, n_, buf_.Value(), 0, napi_bigint64_array));
  }

 private:
  void Fail(ErrorKind kind, const char* message, int64_t drift_ms) {
    failed_ = true;
    kind_ = kind;
    message_ = message;
    drift_ms_ = drift_ms;
  }
  Napi::Promise::Deferred deferred_;
  std::shared_ptr<snowfleet::Generator> gen_;  // keeps the generator alive past a GC
  Napi::Reference<Napi::ArrayBuffer> buf_;
  int64_t* out_ = nullptr;
  size_t n_;
  bool failed_ = false;
  ErrorKind kind_ = ErrorKind::kInternal;
  std::string message_;
  int64_t drift_ms_ = 0;
};


// ---- the hot path --------------------------------------------------------------------
//
// nextId / nextIdString / nextIds are per-instance functions whose N-API `data` is the
// core Generator itself: napi_unwrap (what ObjectWrap methods pay on every call) costs
// more than the id. Each function holds its own shared_ptr through a finalizer, so a
// detached `const next = gen.nextId` stays valid after `gen` is collected.

/// Turns the C++ exception being handled into a pending JS exception. Callbacks below are
/// raw napi_callbacks, which must not let a C++ exception escape.
napi_value ThrowPending(napi_env env) {
  try {
    throw;
  } catch (const snowfleet::Error& e) {
    try {
      MakeError(Napi::Env(env), e).ThrowAsJavaScriptException();
    } catch (const Napi::Error& inner) {
      inner.ThrowAsJavaScriptException();
    }
  } catch (const Napi::Error& e) {
    e.ThrowAsJavaScriptException();
  } catch (const std::exception& e) {
    napi_throw_error(env, "INTERNAL", e.what());
  }
  return nullptr;
}

snowfleet::Generator* Self(napi_env env, napi_callback_info cbi, size_t* argc, napi_value* argv) {
  void* data = nullptr;
  napi_get_cb_info(env, cbi, argc, argv, nullptr, &data);
  return static_cast<snowfleet::Generator*>(data);
}

napi_value NextId(napi_env env, napi_callback_info cbi) {
  size_t argc = 0;
  snowfleet::Generator* gen = Self(env, cbi, &argc, nullptr);
  napi_value out = nullptr;
  try {
    napi_create_bigint_int64(env, gen->next_id(), &out);
  } catch (...) {
    return ThrowPending(env);
  }
  return out;
}

napi_value NextIdString(napi_env env, napi_callback_info cbi) {
  size_t argc = 0;
  snowfleet::Generator* gen = Self(env, cbi, &argc, nullptr);
  char buf[24];
  size_t n;
  try {
    n = snowfleet::format_id(gen->next_id(), buf);
  } catch (...) {
    return ThrowPending(env);
  }
  napi_value out = nullptr;
  // Digits only, so Latin-1 is exact and skips the UTF-8 decoder.
  napi_create_string_latin1(env, buf, n, &out);
  return out;
}

napi_value NextIds(napi_env env, napi_callback_info cbi) {
  size_t argc = 1;
  napi_value arg = nullptr;
  snowfleet::Generator* gen = Self(env, cbi, &argc, &arg);
  try {
    Napi::Env e(env);
    const size_t n = ToBatch(*gen, argc == 0 ? e.Undefined() : Napi::Value(env, arg));
    Napi::ArrayBuffer buf = Napi::ArrayBuffer::New(e, n * sizeof(int64_t));
    gen->next_ids(static_cast<int64_t*>(buf.Data()), n);  // written in place: zero copy
    return Napi::TypedArrayOf<int64_t>::New(e, n, buf, 0, napi_bigint64_array);
  } catch (...) {
    return ThrowPending(env);
  }
}

void InstallHotMethods(Napi::Env env, Napi::Object self,
                       const std::shared_ptr<snowfleet::Generator>& gen) {
  struct Hot {
    const char* name;
    napi_callback cb;
  };
  static constexpr Hot kHot[] = {
      {"nextId", NextId}, {"nextIdString", NextIdString}, {"nextIds", NextIds}};
  for (const Hot& h : kHot) {
    napi_value fn;
    NAPI_THROW_IF_FAILED_VOID(
        env, napi_create_function(env, h.name, NAPI_AUTO_LENGTH, h.cb, gen.get(), &fn));
    auto* keep = new std::shared_ptr<snowfleet::Generator>(gen);
    NAPI_THROW_IF_FAILED_VOID(
        env, napi_add_finalizer(
                 env, fn, keep,
                 [](napi_env, void* p, void*) {
                   delete static_cast<std::shared_ptr<snowfleet::Generator>*>(p);
                 },
                 nullptr, nullptr));
    // Non-enumerable and read-only, like a prototype method.
    self.DefineProperty(Napi::PropertyDescriptor::Value(h.name, Napi::Value(env, fn),
                                                         napi_configurable));
  }
}

class GeneratorWrap : public Napi::ObjectWrap<GeneratorWrap> {
 public:
  explicit GeneratorWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<GeneratorWrap>(info) {
    Napi::Env env = info.Env();
    if (!info[0].IsObject() || info[0].IsArray() || info[0].IsFunction())
      ThrowType(env, "new Generator(options) expects an options object such as { nodeId: 37 }, "
                     "got " + Describe(info[0]));
    Napi::Object o = info[0].As<Napi::Object>();
    CheckKeys(o, {"nodeId", "nodeSource", "layout", "mode", "maxWaitMs", "maxDriftMs", "clock"},
              "Generator option");
    snowfleet::GeneratorOptions opts;
    Napi::Value v;
    if (!(v = Opt(o, "layout")).IsEmpty()) opts.layout = ToLayout(v, "layout");
    if (!(v = Opt(o, "nodeSource")).IsEmpty()) opts.node_source = ToString(v, "nodeSource");
    if (!(v = Opt(o, "nodeId")).IsEmpty()) {
      opts.node_id = ToInt64(v, "nodeId");
    } else if (opts.node_source.empty()) {
      ThrowType(env, "Generator options need nodeId (an integer) or nodeSource (e.g. 'static:37')");
    }
    if (!(v = Opt(o, "mode")).IsEmpty()) {
      const std::string mode = ToString(v, "mode");
      opts.mode = Guard(env, [&] { return snowfleet::parse_mode(mode); });
    }
    if (!(v = Opt(o, "maxWaitMs")).IsEmpty()) opts.max_wait_ms = ToDouble(v, "maxWaitMs");
    if (!(v = Opt(o, "maxDriftMs")).IsEmpty()) opts.max_drift_ms = ToInt64(v, "maxDriftMs");
    if (!(v = Opt(o, "clock")).IsEmpty()) opts.clock = ToScriptedClock(v, "clock");
    gen_ = Guard(env, [&] { return std::make_shared<snowfleet::Generator>(std::move(opts)); });
    InstallHotMethods(env, info.This().As<Napi::Object>(), gen_);
  }

  static Napi::Function Init(Napi::Env env) {
    return DefineClass(
        env, "Generator",
        {
            InstanceMethod<&GeneratorWrap::NextIdsAsync>("nextIdsAsync"),
            InstanceMethod<&GeneratorWrap::Stats>("stats"),
            InstanceMethod<&GeneratorWrap::Status>("status"),
            InstanceMethod<&GeneratorWrap::Close>("close"),
            InstanceAccessor<&GeneratorWrap::NodeId>("nodeId"),
            InstanceAccessor<&GeneratorWrap::Mode>("mode"),
            InstanceAccessor<&GeneratorWrap::MaxWaitMs>("maxWaitMs"),
            InstanceAccessor<&GeneratorWrap::MaxDriftMs>("maxDriftMs"),
            InstanceAccessor<&GeneratorWrap::GetLayout>("layout"),
            InstanceAccessor<&GeneratorWrap::Closed>("closed"),
            InstanceAccessor<&GeneratorWrap::DriftMs>("driftMs"),
        });
  }

 private:
  Napi::Value NextIdsAsync(const Napi::CallbackInfo& info) {
    const size_t n = ToBatch(*gen_, info[0]);
    auto* worker = new NextIdsWorker(info.Env(), gen_, n);  // deletes itself when done
    Napi::Promise promise = worker->Promise();
    worker->Queue();
    return promise;
  }

  Napi::Value Stats(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const snowfleet::Stats s = gen_->stats();
    Napi::Object o = Napi::Object::New(env);
    o.Set("idsIssued", U64(env, s.ids_issued));
    o.Set("rewindsSeen", U64(env, s.rewinds_seen));
    o.Set("waits", U64(env, s.waits));
    // Nanosecond totals are BigInt, like process.hrtime.bigint().
    o.Set("waitedNsTotal", Napi::BigInt::New(env, s.waited_ns_total));
    o.Set("waitedNsMax", Napi::BigInt::New(env, s.waited_ns_max));
    o.Set("refusals", U64(env, s.refusals));
    o.Set("msBorrowed", U64(env, s.ms_borrowed));
    o.Set("markWrites", U64(env, s.mark_writes));
    o.Set("leaseRefusals", U64(env, s.lease_refusals));
    return o;
  }

  Napi::Value Status(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const snowfleet::Status s = Guard(env, [&] { return gen_->status(); });
    Napi::Object o = Napi::Object::New(env);
    o.Set("healthy", Napi::Boolean::New(env, s.healthy));
    o.Set("reason", Napi::String::New(env, s.reason));
    o.Set("wallMs", FromMs(env, s.wall_ms));
    o.Set("lastMs", FromMs(env, s.last_ms));
    o.Set("driftMs", FromMs(env, s.drift_ms));
    o.Set("nodeId", FromMs(env, s.node_id));
    o.Set("mode", Napi::String::New(env, snowfleet::mode_name(s.mode)));
    o.Set("leaseState", Napi::String::New(env, snowfleet::lease_state_name(s.lease_state)));
    o.Set("markMs", FromMs(env, s.mark_ms));
    o.Set("leaseExpiresInMs", FromMs(env, s.lease_expires_in_ms));
    return o;
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    gen_->close();
    return info.Env().Undefined();
  }

  Napi::Value NodeId(const Napi::CallbackInfo& info) {
    return FromMs(info.Env(), gen_->node_id());
  }
  Napi::Value Mode(const Napi::CallbackInfo& info) {
    return Napi::String::New(info.Env(), snowfleet::mode_name(gen_->mode()));
  }
  Napi::Value MaxWaitMs(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), gen_->max_wait_ms());
  }
  Napi::Value MaxDriftMs(const Napi::CallbackInfo& info) {
    return FromMs(info.Env(), gen_->max_drift_ms());
  }
  Napi::Value GetLayout(const Napi::CallbackInfo& info) {
    return NewLayout(info.Env(), gen_->layout());
  }
  Napi::Value Closed(const Napi::CallbackInfo& info) {
    return Napi::Boolean::New(info.Env(), gen_->closed());
  }
  Napi::Value DriftMs(const Napi::CallbackInfo& info) {
    return FromMs(info.Env(), Guard(info.Env(), [&] { return gen_->drift_ms(); }));
  }

  std::shared_ptr<snowfleet::Generator> gen_;
};

}  // namespace

Napi::Function InitGenerator(Napi::Env env) { return GeneratorWrap::Init(env); }

}  // namespace snowfleet_node
