// The 40-pair NAO shape set (NaoShapeSet.h): shapes into the base frame and every pair's signed distance with
// witness points and normal. Report medians, e.g.
//   CollisionBenchmark --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include "NaoShapeSet.h"
#include "Tools/Collision/Distance.h"
#include "Tools/Testing/BenchmarkCases.h"

#include <benchmark/benchmark.h>

namespace nao::collision::benchmark
{
namespace
{
void Distances40Pairs(::benchmark::State& state)
{
  const NaoShapeSet& set = naoShapeSet();
  BodyData data(set.body);
  test::cycleCases(state, NaoShapeSet::configurationCount,
                   [&](std::size_t c)
                   {
                     computeBodyDistances(set.body, data, set.linkPoses[c]);
                     return data.pairDistances.data();
                   });
  state.counters["pairs"] = set.body.pairCount();
}
BENCHMARK(Distances40Pairs);

void PairDistancesOnly40Pairs(::benchmark::State& state)
{
  // Without moving the shapes: the cost of the 40 queries alone.
  const NaoShapeSet& set = naoShapeSet();
  BodyData data(set.body);
  updateShapePoses(set.body, data, set.linkPoses[0]);
  for (auto _ : state)
  {
    computePairDistances(set.body, data);
    ::benchmark::DoNotOptimize(data.pairDistances.data());
    ::benchmark::ClobberMemory();
  }
}
BENCHMARK(PairDistancesOnly40Pairs);

void CapsuleCapsuleOnePair(::benchmark::State& state)
{
  const Capsule a{{0.0, 0.0, 0.0}, {0.1, 0.02, 0.0}, 0.03};
  Capsule b{{0.05, 0.1, -0.04}, {0.02, 0.12, 0.06}, 0.03};
  for (auto _ : state)
  {
    ::benchmark::DoNotOptimize(b);
    ShapeDistance result = capsuleCapsuleDistance(a, b);
    ::benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(CapsuleCapsuleOnePair);
} // namespace
} // namespace nao::collision::benchmark

BENCHMARK_MAIN();
