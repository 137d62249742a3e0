// The Eigen path on the NAO model (25 coordinates, 26 revolute joints). Report medians, e.g.
//   KinematicsBenchmark --benchmark_repetitions=15 --benchmark_report_aggregates_only=true
#include "Tools/Kinematics/Benchmarks/NaoBenchmarkSetup.h"
#include "Tools/Kinematics/Jacobian.h"

#include <benchmark/benchmark.h>

namespace nao::kinematics::benchmark
{
namespace
{
/// Ten points spread over the body, as a self-collision or stiffness query would ask for.
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
  }
}
BENCHMARK(EigenGravityTorques);

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
  }
}
BENCHMARK(EigenStaticTorquesTwoSoleWrenches);

void EigenStandingTorquesFromSoleLoads(::benchmark::State& state)
{
  // Includes balancing the two sole wrenches from weight shares and centres of pressure.
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
  }
}
BENCHMARK(EigenStandingTorquesFromSoleLoads);

void EigenForwardKinematicsAllLinks(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  std::size_t i = 0;
  for (auto _ : state)
  {
    forwardKinematics(cases.model, data, cases.configurations[i++ % NaoCases::count]);
    ::benchmark::DoNotOptimize(data.linkPoses.data());
  }
  state.counters["links"] = cases.model.linkCount();
}
BENCHMARK(EigenForwardKinematicsAllLinks);

void EigenForwardKinematicsBodies(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  std::size_t i = 0;
  for (auto _ : state)
  {
    updateBodyPoses(cases.model, data, cases.configurations[i++ % NaoCases::count]);
    ::benchmark::DoNotOptimize(data.bodyPoses.data());
  }
}
BENCHMARK(EigenForwardKinematicsBodies);

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
  }
}
BENCHMARK(EigenForwardKinematicsPlusTenPointJacobians);

void EigenAllJacobianDerivativesOfTheSole(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  const int n = cases.model.coordinateCount();
  Jacobian derivatives(6, n * n);
  std::size_t i = 0;
  for (auto _ : state)
  {
    updateBodyPoses(cases.model, data, cases.configurations[i++ % NaoCases::count]);
    computeJacobianDerivatives(cases.model, data, cases.feet.leftSole, Eigen::Vector3d::Zero(), derivatives);
    ::benchmark::DoNotOptimize(derivatives.data());
  }
}
BENCHMARK(EigenAllJacobianDerivativesOfTheSole);
} // namespace
} // namespace nao::kinematics::benchmark

BENCHMARK_MAIN();
