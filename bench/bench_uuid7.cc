// UUIDv7 benchmarks, run in the same binary as bench_generator.cc so that its BM_ClockRead
// (one clock_gettime(CLOCK_REALTIME)) is the peer measured in the same run:
//   snowfleet_bench --benchmark_filter='BM_ClockRead|Uuid7'
// The target is a UUID within 2x one clock read.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <thread>
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

// Every UUIDv7 generator of the process shares one id space, and a monotonic burst that
// outpaces 2^15 UUIDs per ms (BM_Uuid7Next at ~30 ns/UUID can) runs it ahead of the wall
// clock: a strict generator would then be refused as a rewind (an uncaught exception: the
// bench aborted with --benchmark_repetitions=3). Waits until the wall clock has passed it.
void wait_past_the_uuid7_id_space() {
  const int64_t last_ms =
      snowfleet::decode_uuid7(make_uuid7(snowfleet::Mode::kMonotonic)->next()).timestamp_ms;
  while (std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count() <= last_ms)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void BM_Uuid7NextStrict(benchmark::State& state) {
  wait_past_the_uuid7_id_space();
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
