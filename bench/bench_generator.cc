// Generator benchmarks. Every figure has a peer measured in the same run:
//   - a bare clock_gettime(CLOCK_REALTIME), the cost floor of any id that reads the clock;
//   - a compare-and-swap design's floor: one clock reading (a bare rdtsc inside the TSC
//     window, clock_gettime and a division without it) and one CAS on a word, nothing else
//     (what threads sharing a state word pay; a thread that owns the word stores instead);
//   - the reference's algorithm as a plain mutex + busy-spin generator (strict mode's peer);
//   - the monotonic generator's own algorithm behind a std::mutex (the CAS design's peer);
//   - for leased node ids ("local:DIR", and "etcd://..." when $SNOWFLEET_BENCH_ETCD names an
//     etcd host:port), the same generator without a lease: the lease must cost nothing
//     per id. Their counters report how many high-water marks were written.
// bench/run.py runs this binary several times and prints medians and ratios.
#include <atomic>
#include <benchmark/benchmark.h>
#include <time.h>

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace {

constexpr int64_t kEpoch = 1704067200000;

int64_t now_ms() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

// The reference's Snowflake (001 section 11) in C++: one mutex, spin while the millisecond's
// sequence is spent. No rewind handling beyond refusing: it is the throughput peer.
class SeedMutexSpin {
 public:
  int64_t next_id() {
    std::lock_guard<std::mutex> lock(mu_);
    int64_t now = now_ms();
    if (now < last_) return -1;
    if (now == last_) {
      seq_ = (seq_ + 1) & 4095;
      if (seq_ == 0)
        while ((now = now_ms()) <= last_) {
        }
    } else {
      seq_ = 0;
    }
    last_ = now;
    return ((now - kEpoch) << 22) | (1 << 12) | seq_;
  }

 private:
  std::mutex mu_;
  int64_t last_ = -1, seq_ = 0;
};

// The monotonic generator's algorithm (logical clock, borrow on overflow, drift bound)
// behind a mutex: the same generator without the lock-free state.
class MutexMonotonic {
 public:
  int64_t next_id() {
    std::lock_guard<std::mutex> lock(mu_);
    const int64_t now = now_ms() - kEpoch;
    const int64_t next = std::max(state_ + 1, now << 12);
    if ((next >> 12) - now > 1000) return -1;  // drift bound (never reached in a burst)
    state_ = next;
    return ((state_ >> 12) << 22) | (1 << 12) | (state_ & 4095);
  }

 private:
  std::mutex mu_;
  int64_t state_ = -1;
};

// Every generator the benches make gets a node id of its own: generators of one id space
// share its state and its last millisecond outlives them, so a monotonic burst on a reused
// node would start where the previous one left off, at the drift limit, and measure the
// 4,096-per-ms cap instead of the call.
snowfleet::Generator* make(snowfleet::Mode mode, const std::string& source = "") {
  static std::atomic<int64_t> next_node{1};
  snowfleet::GeneratorOptions o;
  if (source.empty()) o.node_id = next_node.fetch_add(1) % 1024; else o.node_source = source;
  o.mode = mode;
  return new snowfleet::Generator(o);
}

// One registry per mode: a monotonic burst runs ahead of the wall clock and close()
// persists that, so a strict generator claiming the same slot next would (rightly) refuse
// until the clock catches up.
std::string local_source(snowfleet::Mode mode) {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/snowfleet-bench-XXXXXX";
    return std::string(mkdtemp(tmpl));
  }();
  return "local:" + dir + "/" + snowfleet::mode_name(mode);
}

// Leased vs unleased, same loop. `source` empty: no lease (the peer).
void run_leased(benchmark::State& state, snowfleet::Mode mode, const std::string& source) {
  std::unique_ptr<snowfleet::Generator> g(make(mode, source));
  for (auto _ : state) benchmark::DoNotOptimize(g->next_id());
  state.SetItemsProcessed(state.iterations());
  const auto st = g->stats();
  state.counters["mark_writes"] = static_cast<double>(st.mark_writes);
  state.counters["ids_per_mark_write"] =
      st.mark_writes ? static_cast<double>(st.ids_issued) / static_cast<double>(st.mark_writes) : 0;
}

// Not reported: warms the clock's TSC calibration and the CPU before the pairs run.
void BM_LeaseWarmup(benchmark::State& s) { run_leased(s, snowfleet::Mode::kMonotonic, ""); }
void BM_LeaseNone_Monotonic(benchmark::State& s) { run_leased(s, snowfleet::Mode::kMonotonic, ""); }
void BM_LeaseLocal_Monotonic(benchmark::State& s) {
  run_leased(s, snowfleet::Mode::kMonotonic, local_source(snowfleet::Mode::kMonotonic));
}
void BM_LeaseNone_Strict(benchmark::State& s) { run_leased(s, snowfleet::Mode::kStrict, ""); }
void BM_LeaseLocal_Strict(benchmark::State& s) {
  run_leased(s, snowfleet::Mode::kStrict, local_source(snowfleet::Mode::kStrict));
}

void BM_ClockRead(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(now_ms());
  state.SetItemsProcessed(state.iterations());
}

// The floor of "read the clock, CAS the next value in": what monotonic next_id costs with
// nothing else on its path. The window's reading is a bare rdtsc (x86-64; elsewhere the
// bench reports clock_gettime twice).
std::atomic<int64_t> g_floor_word{0};

int64_t tsc_reading() {
#if defined(__x86_64__)
  return static_cast<int64_t>(__builtin_ia32_rdtsc());
#else
  return now_ms();
#endif
}

template <int64_t (*Read)()>
void BM_FloorReadCas(benchmark::State& state) {
  for (auto _ : state) {
    int64_t s = g_floor_word.load(std::memory_order_acquire);
    const int64_t now = Read();
    benchmark::DoNotOptimize(now);
    g_floor_word.compare_exchange_strong(s, s + 1 + (now & 0), std::memory_order_acq_rel);
  }
  state.SetItemsProcessed(state.iterations());
}
void BM_FloorTscCas(benchmark::State& s) { BM_FloorReadCas<tsc_reading>(s); }
void BM_FloorClockCas(benchmark::State& s) { BM_FloorReadCas<now_ms>(s); }

void BM_StrictNextId(benchmark::State& state) {
  std::unique_ptr<snowfleet::Generator> g(make(snowfleet::Mode::kStrict));
  for (auto _ : state) benchmark::DoNotOptimize(g->next_id());
  state.SetItemsProcessed(state.iterations());
}

void BM_SeedMutexSpin(benchmark::State& state) {
  SeedMutexSpin g;
  for (auto _ : state) benchmark::DoNotOptimize(g.next_id());
  state.SetItemsProcessed(state.iterations());
}

void BM_MonotonicNextId(benchmark::State& state) {
  std::unique_ptr<snowfleet::Generator> g(make(snowfleet::Mode::kMonotonic));
  for (auto _ : state) benchmark::DoNotOptimize(g->next_id());
  state.SetItemsProcessed(state.iterations());
}

void BM_MonotonicNextIds(benchmark::State& state) {
  std::unique_ptr<snowfleet::Generator> g(make(snowfleet::Mode::kMonotonic));
  std::vector<int64_t> out(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    g->next_ids(out.data(), out.size());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Shared-generator benches: thread 0 creates, all threads use, thread 0 destroys.
snowfleet::Generator* g_shared = nullptr;
MutexMonotonic* g_shared_mutex = nullptr;

void BM_MonotonicShared(benchmark::State& state) {
  if (state.thread_index() == 0) g_shared = make(snowfleet::Mode::kMonotonic);
  for (auto _ : state) benchmark::DoNotOptimize(g_shared->next_id());
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    delete g_shared;
    g_shared = nullptr;
  }
}

void BM_MutexMonotonicShared(benchmark::State& state) {
  if (state.thread_index() == 0) g_shared_mutex = new MutexMonotonic;
  for (auto _ : state) benchmark::DoNotOptimize(g_shared_mutex->next_id());
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    delete g_shared_mutex;
    g_shared_mutex = nullptr;
  }
}

}  // namespace

// Strict throughput is bounded by the format (4,096 ids per ms per node), so it is measured
// over whole seconds of wall time. Monotonic mode is bounded by the same arithmetic in the
// long run: it may run at most max_drift_ms (1,000) ahead of the wall clock, i.e. absorb a
// burst of ~4 million ids beyond the cap. Its per-call cost is what matters inside such a
// burst, so each monotonic repetition uses a fresh generator on a fresh node id (a fresh id
// space: see make()) and 2^20 ids (256 ms of sequence space), inside the drift bound.
constexpr int64_t kBurst = 1 << 20;
BENCHMARK(BM_ClockRead)->Iterations(kBurst);
BENCHMARK(BM_FloorTscCas)->Iterations(kBurst);
BENCHMARK(BM_FloorClockCas)->Iterations(kBurst);
BENCHMARK(BM_StrictNextId)->MinTime(2.0)->UseRealTime();
BENCHMARK(BM_SeedMutexSpin)->MinTime(2.0)->UseRealTime();
BENCHMARK(BM_MonotonicNextId)->Iterations(kBurst);
BENCHMARK(BM_MonotonicNextIds)->Arg(4096)->Iterations(kBurst / 4096);
BENCHMARK(BM_MonotonicNextIds)->Arg(10000)->Iterations(kBurst / 10000);
BENCHMARK(BM_MonotonicShared)->Threads(2)->Iterations(kBurst / 2)->UseRealTime();
BENCHMARK(BM_MutexMonotonicShared)->Threads(2)->Iterations(kBurst / 2)->UseRealTime();
int main(int argc, char** argv) {
  // Leased pairs (bench/fleet_bench.py sets SNOWFLEET_BENCH_LEASE=1; bench/run.py's tables
  // do not need them), interleaved so that machine noise hits both alike. Monotonic: the
  // per-call cost inside a burst; strict: whole seconds (4,096 ids/ms cap), counting
  // mark writes.
  const char* lease = std::getenv("SNOWFLEET_BENCH_LEASE");
  if (lease && std::string(lease) == "1") {
    benchmark::RegisterBenchmark("BM_LeaseWarmup", BM_LeaseWarmup)->Iterations(4 * kBurst);
    for (int i = 0; i < 2; ++i) {
      benchmark::RegisterBenchmark("BM_LeaseNone_Monotonic", BM_LeaseNone_Monotonic)
          ->Iterations(kBurst);
      benchmark::RegisterBenchmark("BM_LeaseLocal_Monotonic", BM_LeaseLocal_Monotonic)
          ->Iterations(kBurst);
    }
    benchmark::RegisterBenchmark("BM_LeaseNone_Strict", BM_LeaseNone_Strict)
        ->MinTime(3.0)
        ->UseRealTime();
    benchmark::RegisterBenchmark("BM_LeaseLocal_Strict", BM_LeaseLocal_Strict)
        ->MinTime(3.0)
        ->UseRealTime();
  }
  // etcd pairs only when an etcd is named: a benchmark must not depend on a service.
  const char* ep = lease ? std::getenv("SNOWFLEET_BENCH_ETCD") : nullptr;
  if (ep) {
    const std::string base = std::string("etcd://") + ep + "/bench-" + std::to_string(getpid());
    for (int i = 0; i < 2; ++i) {
      benchmark::RegisterBenchmark("BM_LeaseNone_Monotonic/etcd-peer", [](benchmark::State& s) {
        run_leased(s, snowfleet::Mode::kMonotonic, "");
      })->Iterations(kBurst);
      benchmark::RegisterBenchmark("BM_LeaseEtcd_Monotonic", [base](benchmark::State& s) {
        run_leased(s, snowfleet::Mode::kMonotonic, base + "-monotonic?ttl=10");
      })->Iterations(kBurst);
    }
    benchmark::RegisterBenchmark("BM_LeaseNone_Strict/etcd-peer", [](benchmark::State& s) {
      run_leased(s, snowfleet::Mode::kStrict, "");
    })->MinTime(3.0)->UseRealTime();
    benchmark::RegisterBenchmark("BM_LeaseEtcd_Strict", [base](benchmark::State& s) {
      run_leased(s, snowfleet::Mode::kStrict, base + "-strict?ttl=10");
    })->MinTime(3.0)->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
