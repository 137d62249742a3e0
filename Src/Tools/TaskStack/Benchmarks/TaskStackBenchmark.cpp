// HqpSolver beside the sequential-QP cascade, on a NAO-shaped stack and on random hierarchies. Report medians:
//   TaskStackBenchmark --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// Modes: Exact (QP per level, then the finishing least squares), ExactRefinementOnly (proximal refinement until x
// stops moving, no finish), SequentialQp (the peer: one regularised QP per level, |w|^2 + 1e-6 |x|^2, Kanoun et
// al. 2011's cascade, which is off the lexicographic optimum by O(1e-6)). The NAO stack also runs with its first
// 1..4 levels, which gives the cost per level. Counters per solve: `finished` = levels the finish closed,
// `withoutQp` = of those, the ones closed before any QP, `refinements` = proximal QPs, `failed` = the share of
// solves that did not end `optimal` (measured, not hidden: a failing frame costs what it cost).
#include "Tools/TaskStack/HqpSolver.h"
#include "Tools/TaskStack/Tests/HqpReference.h"

#include <benchmark/benchmark.h>

namespace nao::taskstack::benchmark
{
namespace
{
using test::ReferenceLevel;
using test::ReferenceProblem;
constexpr double unbounded = 1e300;
constexpr int frameCount = 64; ///< cycled so that no single problem is measured

/// The stack of issue 44 on the NAO's 25 joints, velocities in rad per 12 ms frame, rows from random directions
/// of the sizes the tasks have (not the robot's kinematics: the solver's cost depends on shape, not on meaning):
///   0: the swing foot fixed to the support foot (6 equalities), joint step bounds (25 two-sided rows: limits
///      and speed), 10 collision distances (one-sided, a few near their margin);
///   1: the centre of mass in the support polygon (4 one-sided rows);
///   2: a hand target (3 equalities) and a head target (2 equalities);
///   3: the posture (25 equalities, the joints toward a reference).
std::vector<ReferenceProblem> naoFrames()
{
  std::mt19937 random(44);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;
  auto rows = [&](int count, double scale)
  {
    Eigen::MatrixXd m(count, 25);
    for (int i = 0; i < m.size(); ++i)
      m.data()[i] = scale * normal(random);
    return m;
  };
  auto targets = [&](int count, double scale)
  {
    Eigen::VectorXd v(count);
    for (int i = 0; i < count; ++i)
      v[i] = scale * normal(random);
    return v;
  };
  std::vector<ReferenceProblem> frames;
  while (static_cast<int>(frames.size()) < frameCount)
  {
    ReferenceProblem p{25, {}};
    ReferenceLevel top;
    top.a = rows(6, 0.3);
    top.b = targets(6, 0.002);
    top.c.resize(35, 25);
    top.c.topRows(25).setIdentity();
    top.c.bottomRows(10) = rows(10, 0.2);
    top.lo.resize(35);
    top.hi.resize(35);
    for (int i = 0; i < 25; ++i)
    {
      top.lo[i] = -0.04 * (0.2 + uniform(random)); // rad per frame toward the lower limit (near it: small)
      top.hi[i] = 0.04 * (0.2 + uniform(random));
    }
    for (int i = 25; i < 35; ++i)
    {
      top.lo[i] = -0.01 * uniform(random); // m per frame: how far the distance may fall toward its margin
      top.hi[i] = unbounded;
    }
    ReferenceLevel com{Eigen::MatrixXd(0, 25), Eigen::VectorXd(0), rows(4, 0.05), Eigen::VectorXd(4),
                       Eigen::VectorXd(4)};
    com.lo.setConstant(-unbounded);
    for (int i = 0; i < 4; ++i)
      com.hi[i] = 0.002 * uniform(random);
    ReferenceLevel targetsLevel{rows(5, 0.3), targets(5, 0.01), Eigen::MatrixXd(0, 25), Eigen::VectorXd(0),
                                Eigen::VectorXd(0)};
    ReferenceLevel posture{Eigen::MatrixXd::Identity(25, 25), targets(25, 0.01), Eigen::MatrixXd(0, 25),
                           Eigen::VectorXd(0), Eigen::VectorXd(0)};
    p.levels = {top, com, targetsLevel, posture};
    frames.push_back(p);
  }
  return frames;
}

std::vector<ReferenceProblem> randomFrames()
{
  std::mt19937 random(4444);
  std::vector<ReferenceProblem> frames;
  for (int i = 0; i < frameCount; ++i)
    frames.push_back(test::randomProblem({25, 5, 20, 40, true, true, i % 2 == 0}, random));
  return frames;
}

const std::vector<ReferenceProblem>& frames(bool nao)
{
  static const std::vector<ReferenceProblem> naoStack = naoFrames(), random = randomFrames();
  return nao ? naoStack : random;
}

enum class Mode
{
  exact,
  refinementOnly,
  sequentialQp
};

void solveFrames(::benchmark::State& state, bool nao, Mode mode, int levels)
{
  const auto& problems = frames(nao);
  HqpSettings settings;
  settings.mode = mode == Mode::sequentialQp ? HqpMode::damped : HqpMode::exact;
  settings.finish = mode == Mode::exact;
  HqpSolver solver({25, 5, 40, 40}, settings);
  std::size_t i = 0;
  long finished = 0, withoutQp = 0, refinements = 0, failed = 0;
  for (auto _ : state)
  {
    const auto& problem = problems[i++ % problems.size()];
    solver.clear(problem.n);
    for (int k = 0; k < levels; ++k)
    {
      const auto& level = problem.levels[static_cast<std::size_t>(k)];
      solver.addLevel(level.a, level.b, level.c, level.lo, level.hi);
    }
    failed += solver.solve() != HqpStatus::optimal ? 1 : 0;
    finished += solver.finishedLevels();
    withoutQp += solver.levelsWithoutQp();
    refinements += solver.refinements();
  }
  state.counters["finished"] = static_cast<double>(finished) / static_cast<double>(i);
  state.counters["withoutQp"] = static_cast<double>(withoutQp) / static_cast<double>(i);
  state.counters["refinements"] = static_cast<double>(refinements) / static_cast<double>(i);
  state.counters["failed"] = static_cast<double>(failed) / static_cast<double>(i);
}

void NaoStackExact(::benchmark::State& state)
{
  solveFrames(state, true, Mode::exact, static_cast<int>(state.range(0)));
}
BENCHMARK(NaoStackExact)->DenseRange(1, 4)->ArgName("levels");

void NaoStackExactRefinementOnly(::benchmark::State& state)
{
  solveFrames(state, true, Mode::refinementOnly, 4);
}
BENCHMARK(NaoStackExactRefinementOnly);

void NaoStackSequentialQp(::benchmark::State& state)
{
  solveFrames(state, true, Mode::sequentialQp, static_cast<int>(state.range(0)));
}
BENCHMARK(NaoStackSequentialQp)->DenseRange(1, 4)->ArgName("levels");

void Random25x5Exact(::benchmark::State& state)
{
  solveFrames(state, false, Mode::exact, 5);
}
BENCHMARK(Random25x5Exact);

void Random25x5ExactRefinementOnly(::benchmark::State& state)
{
  solveFrames(state, false, Mode::refinementOnly, 5);
}
BENCHMARK(Random25x5ExactRefinementOnly);

void Random25x5SequentialQp(::benchmark::State& state)
{
  solveFrames(state, false, Mode::sequentialQp, 5);
}
BENCHMARK(Random25x5SequentialQp);
} // namespace
} // namespace nao::taskstack::benchmark

BENCHMARK_MAIN();
