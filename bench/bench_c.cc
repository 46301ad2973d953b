// The C interface's cost: the same generator called through libsnowfleet.so (snowfleet.h,
// one call across a shared-library boundary, every exception caught) and directly through
// the C++ API, in one run.
//   out/release/bench/snowfleet_c_bench
#include <benchmark/benchmark.h>
#include <snowfleet.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace {

snowfleet_generator* c_generator(int64_t node_id) {
  snowfleet_options o;
  snowfleet_options_init(&o);
  o.node_id = node_id, o.has_node_id = 1;
  o.mode = "monotonic";
  snowfleet_generator* g = nullptr;
  if (snowfleet_generator_new(&o, &g, nullptr) != SNOWFLEET_OK) std::abort();
  return g;
}

void BM_C_MonotonicNextId(benchmark::State& state) {
  snowfleet_generator* g = c_generator(1);
  int64_t id = 0;
  for (auto _ : state) {
    snowfleet_generator_next_id(g, &id, nullptr);
    benchmark::DoNotOptimize(id);
  }
  state.SetItemsProcessed(state.iterations());
  snowfleet_generator_free(g);
}

void BM_Cpp_MonotonicNextId(benchmark::State& state) {
  snowfleet::GeneratorOptions o;
  o.node_id = 2;
  o.mode = snowfleet::Mode::kMonotonic;
  snowfleet::Generator g(o);
  for (auto _ : state) benchmark::DoNotOptimize(g.next_id());
  state.SetItemsProcessed(state.iterations());
}

void BM_C_MonotonicNextIds(benchmark::State& state) {
  snowfleet_generator* g = c_generator(3);
  std::vector<int64_t> out(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    snowfleet_generator_next_ids(g, out.data(), state.range(0), nullptr);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  snowfleet_generator_free(g);
}

void BM_C_Uuid7Next(benchmark::State& state) {
  snowfleet_uuid7_options o;
  snowfleet_uuid7_options_init(&o);
  o.mode = "monotonic";
  snowfleet_uuid7_generator* g = nullptr;
  if (snowfleet_uuid7_new(&o, &g, nullptr) != SNOWFLEET_OK) std::abort();
  uint8_t bytes[16];
  for (auto _ : state) {
    snowfleet_uuid7_next(g, bytes, nullptr);
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations());
  snowfleet_uuid7_free(g);
}

}  // namespace

BENCHMARK(BM_C_MonotonicNextId)->Iterations(4'000'000);
BENCHMARK(BM_Cpp_MonotonicNextId)->Iterations(4'000'000);
BENCHMARK(BM_C_MonotonicNextIds)->Arg(4096)->Iterations(1000);
BENCHMARK(BM_C_Uuid7Next)->Iterations(4'000'000);
BENCHMARK_MAIN();
