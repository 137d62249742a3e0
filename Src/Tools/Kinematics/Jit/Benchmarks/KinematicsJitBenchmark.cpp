// Eigen reference (EigenBenchmarks.h) vs generated code on the NAO model (25 coordinates, 26 revolute joints), torso
// fixed (G(q), FK) and standing (two sole wrenches). JIT variants run with AVX2+FMA where the CPU has them and with SSE4.1
// forced (what the NAO V6 runs). Report medians, e.g.
//   KinematicsJitBenchmark --benchmark_repetitions=15 --benchmark_report_aggregates_only=true
#include "Tools/Kinematics/Benchmarks/EigenBenchmarks.h"
#include "Tools/Kinematics/Jit/JitKinematics.h"
#include "Tools/Kinematics/Jit/SinCos.h"

#include <benchmark/benchmark.h>
#include <cmath>

namespace nao::kinematics::benchmark
{
namespace
{
/// The compiled NAO with the soles as contact links, for one instruction-set choice.
struct Compiled
{
  explicit Compiled(bool allowAvx2)
      : compiled(naoCases().model, {allowAvx2, {naoCases().feet.leftSole, naoCases().feet.rightSole}}),
        workspace(compiled)
  {
  }
  jit::CompiledModel compiled;
  jit::Workspace workspace;
};

void label(::benchmark::State& state, const Compiled& jitted)
{
  state.SetLabel(std::string(jit::name(jitted.compiled.instructionSet())));
}

void JitGravityTorques(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               jit::computeGravityTorques(jitted.compiled, jitted.workspace, cases.configurations[c],
                                          cases.gravity, tau);
               return tau.data();
             });
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitGravityTorques, fastest, true);
BENCHMARK_CAPTURE(JitGravityTorques, sse, false);

void JitStaticTorquesTwoSoleWrenches(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               jit::computeStaticTorques(jitted.compiled, jitted.workspace, cases.configurations[c],
                                         cases.gravity, cases.wrenches[c], tau);
               return tau.data();
             });
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitStaticTorquesTwoSoleWrenches, fastest, true);
BENCHMARK_CAPTURE(JitStaticTorquesTwoSoleWrenches, sse, false);

void JitStandingTorquesFromSoleLoads(::benchmark::State& state, bool allowAvx2)
{
  // Centre of mass, balanced sole wrenches (Eigen's definition), then the torques from the stored poses.
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  const SoleLoads loads{SoleLoad{0.6, {0.01, 0.0}}, SoleLoad{0.4, {0.02, -0.01}}};
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               jit::computeStandingTorques(jitted.compiled, jitted.workspace, cases.configurations[c],
                                           cases.gravity, cases.feet, loads, tau);
               return tau.data();
             });
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitStandingTorquesFromSoleLoads, fastest, true);
BENCHMARK_CAPTURE(JitStandingTorquesFromSoleLoads, sse, false);

void JitForwardKinematicsAllLinks(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               jit::forwardKinematics(jitted.compiled, jitted.workspace, cases.configurations[c]);
               return jitted.workspace.values();
             });
  state.counters["links"] = cases.model.linkCount();
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitForwardKinematicsAllLinks, fastest, true);
BENCHMARK_CAPTURE(JitForwardKinematicsAllLinks, sse, false);

void JitBodyPoses(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               jit::updateBodyPoses(jitted.compiled, jitted.workspace, cases.configurations[c]);
               return jitted.workspace.values();
             });
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitBodyPoses, fastest, true);
BENCHMARK_CAPTURE(JitBodyPoses, sse, false);

void JitForwardKinematicsPlusTenPointJacobians(::benchmark::State& state, bool allowAvx2)
{
  // Body poses from the generated code, Jacobian columns in C++ from them.
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  const auto points = tenPoints(cases.model);
  std::array<Jacobian, 10> jacobians = tenPointJacobians(cases.model);
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               jit::updateBodyPoses(jitted.compiled, jitted.workspace, cases.configurations[c]);
               for (std::size_t p = 0; p < points.size(); ++p)
                 jit::computePointJacobian(jitted.compiled, jitted.workspace, points[p].first,
                                           points[p].second, jacobians[p]);
               return jacobians.data();
             });
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitForwardKinematicsPlusTenPointJacobians, fastest, true);
BENCHMARK_CAPTURE(JitForwardKinematicsPlusTenPointJacobians, sse, false);

void CompileTheNaoModel(::benchmark::State& state, bool allowAvx2)
{
  // Once at load: layout, seven kernels through asmjit's compiler and register allocator, executable memory.
  const NaoCases& cases = naoCases();
  std::size_t bytes = 0;
  for (auto _ : state)
  {
    const jit::CompiledModel compiled(cases.model, {allowAvx2, {cases.feet.leftSole, cases.feet.rightSole}});
    bytes = compiled.codeBytes();
    ::benchmark::DoNotOptimize(compiled.kernel(jit::CompiledModel::KernelId::staticTorques));
  }
  state.counters["codeBytes"] = static_cast<double>(bytes);
}
BENCHMARK_CAPTURE(CompileTheNaoModel, fastest, true)->Unit(::benchmark::kMillisecond);
BENCHMARK_CAPTURE(CompileTheNaoModel, sse, false)->Unit(::benchmark::kMillisecond);

void GlibcSinCosOfTheJointAngles(::benchmark::State& state)
{
  // For scale: what computing each joint's sine and cosine with libm costs.
  const NaoCases& cases = naoCases();
  std::array<double, 26> sines{}, cosines{};
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               const Eigen::VectorXd& q = cases.configurations[c];
               for (Eigen::Index k = 0; k < q.size(); ++k)
               {
                 sines[static_cast<std::size_t>(k)] = std::sin(q[k]);
                 cosines[static_cast<std::size_t>(k)] = std::cos(q[k]);
               }
               ::benchmark::DoNotOptimize(sines.data());
               return cosines.data();
             });
}
BENCHMARK(GlibcSinCosOfTheJointAngles);

void VectorisedSinCosOfTheJointAngles(::benchmark::State& state, bool allowAvx2)
{
  // The joint values gathered from q as the generated code's caller does (25 angles, padded to 28).
  const NaoCases& cases = naoCases();
  const jit::InstructionSet set = jit::hostInstructionSet(allowAvx2).value_or(jit::InstructionSet::sse41);
  std::array<int, 28> coordinates{};
  std::array<double, 28> multipliers{}, offsets{}, sines{}, cosines{};
  for (std::size_t k = 0; k < 25; ++k)
  {
    coordinates[k] = static_cast<int>(k);
    multipliers[k] = 1.0;
  }
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               jit::jointSinCos(set, cases.configurations[c].data(), coordinates.data(), multipliers.data(),
                                offsets.data(), sines.data(), cosines.data(), coordinates.size());
               ::benchmark::DoNotOptimize(sines.data());
               return cosines.data();
             });
  state.SetLabel(std::string(jit::name(set)));
}
BENCHMARK_CAPTURE(VectorisedSinCosOfTheJointAngles, fastest, true);
BENCHMARK_CAPTURE(VectorisedSinCosOfTheJointAngles, sse, false);
} // namespace
} // namespace nao::kinematics::benchmark

BENCHMARK_MAIN();
