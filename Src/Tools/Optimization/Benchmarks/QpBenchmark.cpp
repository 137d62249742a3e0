// The QP solver on 25 variables and 30 inequalities (the SelfCollisionProvider's size). Report medians, e.g.
//   OptimizationBenchmark --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// Counters: `active` = active constraints at the solution, `iterations` = search directions computed, both
// averaged over the solves.
#include "Tools/Optimization/Tests/RandomQp.h"

#include <benchmark/benchmark.h>

namespace nao::optimization::benchmark
{
namespace
{
constexpr int problemCount = 64; ///< cycled so that no single problem is measured

/// Sequences of 8 frames of a slowly moving problem: g and b drift a little each frame, as a motion command
/// and the collision distances do between two 12 ms frames.
std::vector<test::DenseQp> makeFrames(test::QpFamily family)
{
  test::QpGenerator generator(2024);
  std::vector<test::DenseQp> frames;
  while (frames.size() < problemCount)
  {
    test::DenseQp qp = generator.make(family, 25, 0, 30);
    for (int frame = 0; frame < 8; ++frame)
    {
      frames.push_back(qp);
      const double scale = family == test::QpFamily::selfCollision ? 0.01 : 0.3;
      qp.gradient += scale * (qp.hessian * generator.vector(25));
      qp.inequalityBound = (qp.inequalityBound + 0.02 * scale * generator.vector(30)).cwiseMax(0.0);
    }
  }
  return frames;
}

/// The SelfCollisionProvider's problem (RandomQp.h, family `selfCollision`): diagonal joint weights, 23
/// velocity-damper rows on joint chains and 7 joint-step bounds.
const std::vector<test::DenseQp>& selfCollisionFrames()
{
  static const std::vector<test::DenseQp> frames = makeFrames(test::QpFamily::selfCollision);
  return frames;
}

/// Random dense problems (family `general`): H with condition number up to 1e4, 30 rows through a feasible
/// point, a quarter of them with zero slack there; about 15 rows end up active.
const std::vector<test::DenseQp>& denseFrames()
{
  static const std::vector<test::DenseQp> frames = makeFrames(test::QpFamily::general);
  return frames;
}

void solveFrames(::benchmark::State& state, const std::vector<test::DenseQp>& frames, QpSolver::Start start)
{
  QpSolver solver({25, 0, 30});
  std::size_t i = 0;
  long active = 0, iterations = 0;
  for (auto _ : state)
  {
    ::benchmark::DoNotOptimize(solver.solve(frames[i++ % problemCount].view(), start));
    active += static_cast<long>(solver.activeInequalities().size());
    iterations += solver.iterations();
  }
  state.counters["active"] = static_cast<double>(active) / static_cast<double>(i);
  state.counters["iterations"] = static_cast<double>(iterations) / static_cast<double>(i);
}

void QpSelfCollision25x30Cold(::benchmark::State& state)
{
  solveFrames(state, selfCollisionFrames(), QpSolver::Start::cold);
}
BENCHMARK(QpSelfCollision25x30Cold);

void QpSelfCollision25x30Warm(::benchmark::State& state)
{
  solveFrames(state, selfCollisionFrames(), QpSolver::Start::warm);
}
BENCHMARK(QpSelfCollision25x30Warm);

void QpDense25x30Cold(::benchmark::State& state)
{
  solveFrames(state, denseFrames(), QpSolver::Start::cold);
}
BENCHMARK(QpDense25x30Cold);

void QpDense25x30Warm(::benchmark::State& state)
{
  solveFrames(state, denseFrames(), QpSolver::Start::warm);
}
BENCHMARK(QpDense25x30Warm);
} // namespace
} // namespace nao::optimization::benchmark

BENCHMARK_MAIN();
