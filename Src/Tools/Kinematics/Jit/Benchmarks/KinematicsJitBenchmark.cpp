// Eigen reference vs generated code on the NAO model (25 coordinates, 26 revolute joints), torso fixed (G(q),
// FK) and standing (two sole wrenches). JIT variants run with AVX2+FMA where the CPU has them and with SSE4.1
// forced (what the NAO V6 runs). Report medians, e.g.
//   KinematicsJitBenchmark --benchmark_repetitions=15 --benchmark_report_aggregates_only=true
#include "Tools/Kinematics/Benchmarks/NaoBenchmarkSetup.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/Jit/JitKinematics.h"
#include "Tools/Kinematics/Jit/SinCos.h"

#include <benchmark/benchmark.h>
#include <cmath>

namespace nao::kinematics::benchmark
{
namespace
{
/// Ten points spread over the body, as a self-collision or stiffness query would ask for (as the Eigen
/// benchmark).
std::array<std::pair<int, Eigen::Vector3d>, 10> tenPoints(const Model& model)
{
  const auto at = [&](const char* link, double x, double y, double z) {
    return std::pair{model.linkIndex(link), Eigen::Vector3d(x, y, z)};
  };
  return {at("l_sole", 0.02, 0.0, 0.0),   at("r_sole", 0.02, 0.0, 0.0),   at("l_gripper", 0.0, 0.0, 0.0),
          at("r_gripper", 0.0, 0.0, 0.0), at("Head", 0.0, 0.0, 0.055),    at("LTibia", 0.0, 0.0, -0.05),
          at("RTibia", 0.0, 0.0, -0.05),  at("LForeArm", 0.03, 0.0, 0.0), at("RForeArm", 0.03, 0.0, 0.0),
          at("torso", 0.0, 0.0, 0.02)};
}

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

void EigenGravityTorques(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    computeGravityTorques(cases.model, data, cases.configurations[i++ % NaoCases::count], cases.gravity, tau);
    ::benchmark::DoNotOptimize(tau.data());
    ::benchmark::ClobberMemory();
  }
}
BENCHMARK(EigenGravityTorques);

void JitGravityTorques(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    jit::computeGravityTorques(jitted.compiled, jitted.workspace, cases.configurations[i++ % NaoCases::count],
                               cases.gravity, tau);
    ::benchmark::DoNotOptimize(tau.data());
    ::benchmark::ClobberMemory();
  }
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitGravityTorques, fastest, true);
BENCHMARK_CAPTURE(JitGravityTorques, sse, false);

void EigenStaticTorquesTwoSoleWrenches(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    const std::size_t c = i++ % NaoCases::count;
    computeStaticTorques(cases.model, data, cases.configurations[c], cases.gravity, cases.wrenches[c], tau);
    ::benchmark::DoNotOptimize(tau.data());
    ::benchmark::ClobberMemory();
  }
}
BENCHMARK(EigenStaticTorquesTwoSoleWrenches);

void JitStaticTorquesTwoSoleWrenches(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    const std::size_t c = i++ % NaoCases::count;
    jit::computeStaticTorques(jitted.compiled, jitted.workspace, cases.configurations[c], cases.gravity,
                              cases.wrenches[c], tau);
    ::benchmark::DoNotOptimize(tau.data());
    ::benchmark::ClobberMemory();
  }
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitStaticTorquesTwoSoleWrenches, fastest, true);
BENCHMARK_CAPTURE(JitStaticTorquesTwoSoleWrenches, sse, false);

void EigenStandingTorquesFromSoleLoads(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  const SoleLoads loads{SoleLoad{0.6, {0.01, 0.0}}, SoleLoad{0.4, {0.02, -0.01}}};
  std::size_t i = 0;
  for (auto _ : state)
  {
    computeStandingTorques(cases.model, data, cases.configurations[i++ % NaoCases::count], cases.gravity,
                           cases.feet, loads, tau);
    ::benchmark::DoNotOptimize(tau.data());
    ::benchmark::ClobberMemory();
  }
}
BENCHMARK(EigenStandingTorquesFromSoleLoads);

void JitStandingTorquesFromSoleLoads(::benchmark::State& state, bool allowAvx2)
{
  // Centre of mass, balanced sole wrenches (Eigen's definition), then the torques from the stored poses.
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  const SoleLoads loads{SoleLoad{0.6, {0.01, 0.0}}, SoleLoad{0.4, {0.02, -0.01}}};
  std::size_t i = 0;
  for (auto _ : state)
  {
    jit::computeStandingTorques(jitted.compiled, jitted.workspace,
                                cases.configurations[i++ % NaoCases::count], cases.gravity, cases.feet, loads,
                                tau);
    ::benchmark::DoNotOptimize(tau.data());
    ::benchmark::ClobberMemory();
  }
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitStandingTorquesFromSoleLoads, fastest, true);
BENCHMARK_CAPTURE(JitStandingTorquesFromSoleLoads, sse, false);

void EigenForwardKinematicsAllLinks(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  std::size_t i = 0;
  for (auto _ : state)
  {
    forwardKinematics(cases.model, data, cases.configurations[i++ % NaoCases::count]);
    ::benchmark::DoNotOptimize(data.linkPoses.data());
    ::benchmark::ClobberMemory();
  }
  state.counters["links"] = cases.model.linkCount();
}
BENCHMARK(EigenForwardKinematicsAllLinks);

void JitForwardKinematicsAllLinks(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  std::size_t i = 0;
  for (auto _ : state)
  {
    jit::forwardKinematics(jitted.compiled, jitted.workspace, cases.configurations[i++ % NaoCases::count]);
    ::benchmark::DoNotOptimize(jitted.workspace.values());
    ::benchmark::ClobberMemory();
  }
  state.counters["links"] = cases.model.linkCount();
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitForwardKinematicsAllLinks, fastest, true);
BENCHMARK_CAPTURE(JitForwardKinematicsAllLinks, sse, false);

void EigenBodyPoses(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  std::size_t i = 0;
  for (auto _ : state)
  {
    updateBodyPoses(cases.model, data, cases.configurations[i++ % NaoCases::count]);
    ::benchmark::DoNotOptimize(data.bodyPoses.data());
    ::benchmark::ClobberMemory();
  }
}
BENCHMARK(EigenBodyPoses);

void JitBodyPoses(::benchmark::State& state, bool allowAvx2)
{
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  std::size_t i = 0;
  for (auto _ : state)
  {
    jit::updateBodyPoses(jitted.compiled, jitted.workspace, cases.configurations[i++ % NaoCases::count]);
    ::benchmark::DoNotOptimize(jitted.workspace.values());
    ::benchmark::ClobberMemory();
  }
  label(state, jitted);
}
BENCHMARK_CAPTURE(JitBodyPoses, fastest, true);
BENCHMARK_CAPTURE(JitBodyPoses, sse, false);

void EigenForwardKinematicsPlusTenPointJacobians(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  const auto points = tenPoints(cases.model);
  std::array<Jacobian, 10> jacobians;
  for (Jacobian& jacobian : jacobians)
    jacobian.resize(6, cases.model.coordinateCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    updateBodyPoses(cases.model, data, cases.configurations[i++ % NaoCases::count]);
    for (std::size_t p = 0; p < points.size(); ++p)
      computePointJacobian(cases.model, data, points[p].first, points[p].second, jacobians[p]);
    ::benchmark::DoNotOptimize(jacobians.data());
    ::benchmark::ClobberMemory();
  }
}
BENCHMARK(EigenForwardKinematicsPlusTenPointJacobians);

void JitForwardKinematicsPlusTenPointJacobians(::benchmark::State& state, bool allowAvx2)
{
  // Body poses from the generated code, Jacobian columns in C++ from them.
  const NaoCases& cases = naoCases();
  Compiled jitted(allowAvx2);
  const auto points = tenPoints(cases.model);
  std::array<Jacobian, 10> jacobians;
  for (Jacobian& jacobian : jacobians)
    jacobian.resize(6, cases.model.coordinateCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    jit::updateBodyPoses(jitted.compiled, jitted.workspace, cases.configurations[i++ % NaoCases::count]);
    for (std::size_t p = 0; p < points.size(); ++p)
      jit::computePointJacobian(jitted.compiled, jitted.workspace, points[p].first, points[p].second,
                                jacobians[p]);
    ::benchmark::DoNotOptimize(jacobians.data());
    ::benchmark::ClobberMemory();
  }
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
  std::size_t i = 0;
  for (auto _ : state)
  {
    const Eigen::VectorXd& q = cases.configurations[i++ % NaoCases::count];
    for (Eigen::Index k = 0; k < q.size(); ++k)
    {
      sines[static_cast<std::size_t>(k)] = std::sin(q[k]);
      cosines[static_cast<std::size_t>(k)] = std::cos(q[k]);
    }
    ::benchmark::DoNotOptimize(sines.data());
    ::benchmark::DoNotOptimize(cosines.data());
    ::benchmark::ClobberMemory();
  }
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
  std::size_t i = 0;
  for (auto _ : state)
  {
    const Eigen::VectorXd& q = cases.configurations[i++ % NaoCases::count];
    jit::jointSinCos(set, q.data(), coordinates.data(), multipliers.data(), offsets.data(), sines.data(),
                     cosines.data(), coordinates.size());
    ::benchmark::DoNotOptimize(sines.data());
    ::benchmark::DoNotOptimize(cosines.data());
    ::benchmark::ClobberMemory();
  }
  state.SetLabel(std::string(jit::name(set)));
}
BENCHMARK_CAPTURE(VectorisedSinCosOfTheJointAngles, fastest, true);
BENCHMARK_CAPTURE(VectorisedSinCosOfTheJointAngles, sse, false);
} // namespace
} // namespace nao::kinematics::benchmark

BENCHMARK_MAIN();
