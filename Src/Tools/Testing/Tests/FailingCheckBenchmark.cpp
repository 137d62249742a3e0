// A benchmark whose check fails: its smoke run must fail (nao_add_benchmark), although Google Benchmark exits 0.
#include <benchmark/benchmark.h>

static void BM_CheckThatFails(benchmark::State& state)
{
  for (auto _ : state)
    benchmark::DoNotOptimize(state.iterations());
  state.SkipWithError("the result differs from the reference");
}
BENCHMARK(BM_CheckThatFails);

BENCHMARK_MAIN();
