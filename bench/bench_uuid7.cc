// UUIDv7 benchmarks, run in the same binary as bench_generator.cc so that its BM_ClockRead
// (one clock_gettime(CLOCK_REALTIME)) is the peer measured in the same run:
//   snowfleet_bench --benchmark_filter='BM_ClockRead|Uuid7'
// The target (issue 13) is a UUID within 2x one clock read.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace {

constexpr int64_t kUuidBurst = 4'000'000;  // below 2^15 UUIDs/ms for a monotonic run's drift

std::unique_ptr<snowfleet::Uuid7Generator> make_uuid7(snowfleet::Mode mode) {
  snowfleet::Uuid7Options o;
  o.mode = mode;
  return std::make_unique<snowfleet::Uuid7Generator>(o);
}

void BM_Uuid7Next(benchmark::State& state) {
  auto g = make_uuid7(snowfleet::Mode::kMonotonic);
  for (auto _ : state) benchmark::DoNotOptimize(g->next());
  state.SetItemsProcessed(state.iterations());
}

void BM_Uuid7NextStrict(benchmark::State& state) {
  auto g = make_uuid7(snowfleet::Mode::kStrict);
  for (auto _ : state) benchmark::DoNotOptimize(g->next());
  state.SetItemsProcessed(state.iterations());
}

void BM_Uuid7NextBatch(benchmark::State& state) {
  auto g = make_uuid7(snowfleet::Mode::kMonotonic);
  std::vector<snowfleet::Uuid> out(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    g->next(out.data(), out.size());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_Uuid7Format(benchmark::State& state) {
  auto g = make_uuid7(snowfleet::Mode::kMonotonic);
  const snowfleet::Uuid u = g->next();
  char text[36];
  for (auto _ : state) {
    snowfleet::format_uuid(u, text);
    benchmark::DoNotOptimize(text);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_Uuid7Next)->Iterations(kUuidBurst);
BENCHMARK(BM_Uuid7NextStrict)->Iterations(kUuidBurst)->UseRealTime();
BENCHMARK(BM_Uuid7NextBatch)->Arg(4096)->Iterations(kUuidBurst / 4096);
BENCHMARK(BM_Uuid7Format)->Iterations(kUuidBurst);
