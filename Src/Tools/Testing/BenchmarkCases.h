#pragma once
// The loop of a benchmark over precomputed cases (configurations, link poses): each iteration takes the next case,
// so that no single case is measured, and keeps what the step computed. Header-only; for benchmark programs.
#include <benchmark/benchmark.h>
#include <cstddef>

namespace nao::test
{
/// Runs `step(c)` once per iteration of `state` with c = 0, 1, ..., count - 1, 0, 1, ...; what it returns (a
/// pointer to its results) is kept from the optimizer, and memory is clobbered after each step.
template<class Step>
void cycleCases(::benchmark::State& state, std::size_t count, Step step)
{
  std::size_t i = 0;
  for (auto _ : state)
  {
    ::benchmark::DoNotOptimize(step(i++ % count));
    ::benchmark::ClobberMemory();
  }
}
} // namespace nao::test
