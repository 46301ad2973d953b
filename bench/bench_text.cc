// Text-form benchmarks: format + parse of one id in base32 and base62 (target: under 30 ns
// per id together), beside the decimal form (format_id + parse_id) measured in the same run.
// Each iteration walks 4,096 random ids, so the figure is per id over varied values.
//   out/<build>/bench/snowfleet_text_bench --benchmark_repetitions=7
//   --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace {

const std::vector<int64_t>& ids() {
  static const std::vector<int64_t> v = [] {
    std::mt19937_64 rng(62);
    std::vector<int64_t> out(4096);
    for (auto& id : out) id = static_cast<int64_t>(rng() >> 1);
    return out;
  }();
  return v;
}

template <size_t N, void (*Format)(int64_t, char*) noexcept, int64_t (*Parse)(std::string_view)>
void round_trip(benchmark::State& state) {
  char buf[N];
  int64_t sum = 0;
  for (auto _ : state) {
    for (int64_t id : ids()) {
      Format(id, buf);
      benchmark::DoNotOptimize(buf);
      sum += Parse(std::string_view(buf, N));
    }
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ids().size()));
  state.counters["ns_per_id"] =
      benchmark::Counter(static_cast<double>(state.iterations() * ids().size()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_Base32FormatParse(benchmark::State& s) {
  round_trip<snowfleet::kBase32Length, snowfleet::format_base32, snowfleet::parse_base32>(s);
}
void BM_Base62FormatParse(benchmark::State& s) {
  round_trip<snowfleet::kBase62Length, snowfleet::format_base62, snowfleet::parse_base62>(s);
}

// The peer: the decimal form, whose length varies with the value.
void BM_DecimalFormatParse(benchmark::State& state) {
  char buf[20];
  int64_t sum = 0;
  for (auto _ : state) {
    for (int64_t id : ids()) {
      const size_t n = snowfleet::format_id(id, buf);
      benchmark::DoNotOptimize(buf);
      sum += snowfleet::parse_id(std::string_view(buf, n));
    }
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ids().size()));
  state.counters["ns_per_id"] =
      benchmark::Counter(static_cast<double>(state.iterations() * ids().size()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_Base32FormatParse);
BENCHMARK(BM_Base62FormatParse);
BENCHMARK(BM_DecimalFormatParse);

}  // namespace

BENCHMARK_MAIN();
