#pragma once
// The Eigen path's benchmarks on the NAO cases (NaoBenchmarkSetup.h), registered in each program that includes this
// header: KinematicsBenchmark on their own, KinematicsJitBenchmark beside the generated code's.
#include "Tools/Kinematics/Benchmarks/NaoBenchmarkSetup.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Testing/BenchmarkCases.h"

#include <benchmark/benchmark.h>

namespace nao::kinematics::benchmark
{
using nao::test::cycleCases;

/// tenPoints() on `model`: link index and point.
inline std::array<std::pair<int, Eigen::Vector3d>, 10> tenPoints(const Model& model)
{
  std::array<std::pair<int, Eigen::Vector3d>, 10> points;
  for (std::size_t p = 0; p < points.size(); ++p)
    points[p] = {model.linkIndex(tenPoints()[p].link), tenPoints()[p].point};
  return points;
}

/// Room for the Jacobians of tenPoints(): 6 × coordinates each.
inline std::array<Jacobian, 10> tenPointJacobians(const Model& model)
{
  std::array<Jacobian, 10> jacobians;
  for (Jacobian& jacobian : jacobians)
    jacobian.resize(6, model.coordinateCount());
  return jacobians;
}

inline void EigenGravityTorques(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               computeGravityTorques(cases.model, data, cases.configurations[c], cases.gravity, tau);
               return tau.data();
             });
}
BENCHMARK(EigenGravityTorques);

inline void EigenStaticTorquesTwoSoleWrenches(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               computeStaticTorques(cases.model, data, cases.configurations[c], cases.gravity,
                                    cases.wrenches[c], tau);
               return tau.data();
             });
}
BENCHMARK(EigenStaticTorquesTwoSoleWrenches);

inline void EigenStandingTorquesFromSoleLoads(::benchmark::State& state)
{
  // Includes balancing the two sole wrenches from weight shares and centres of pressure.
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  Eigen::VectorXd tau(cases.model.coordinateCount());
  const SoleLoads loads{SoleLoad{0.6, {0.01, 0.0}}, SoleLoad{0.4, {0.02, -0.01}}};
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               computeStandingTorques(cases.model, data, cases.configurations[c], cases.gravity, cases.feet,
                                      loads, tau);
               return tau.data();
             });
}
BENCHMARK(EigenStandingTorquesFromSoleLoads);

inline void EigenForwardKinematicsAllLinks(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               forwardKinematics(cases.model, data, cases.configurations[c]);
               return data.linkPoses.data();
             });
  state.counters["links"] = cases.model.linkCount();
}
BENCHMARK(EigenForwardKinematicsAllLinks);

inline void EigenBodyPoses(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               updateBodyPoses(cases.model, data, cases.configurations[c]);
               return data.bodyPoses.data();
             });
}
BENCHMARK(EigenBodyPoses);

inline void EigenForwardKinematicsPlusTenPointJacobians(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  const auto points = tenPoints(cases.model);
  std::array<Jacobian, 10> jacobians = tenPointJacobians(cases.model);
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               updateBodyPoses(cases.model, data, cases.configurations[c]);
               for (std::size_t p = 0; p < points.size(); ++p)
                 computePointJacobian(cases.model, data, points[p].first, points[p].second, jacobians[p]);
               return jacobians.data();
             });
}
BENCHMARK(EigenForwardKinematicsPlusTenPointJacobians);

inline void EigenAllJacobianDerivativesOfTheSole(::benchmark::State& state)
{
  const NaoCases& cases = naoCases();
  Data data(cases.model);
  const int n = cases.model.coordinateCount();
  Jacobian derivatives(6, n * n);
  cycleCases(state, NaoCases::count,
             [&](std::size_t c)
             {
               updateBodyPoses(cases.model, data, cases.configurations[c]);
               computeJacobianDerivatives(cases.model, data, cases.feet.leftSole, Eigen::Vector3d::Zero(),
                                          derivatives);
               return derivatives.data();
             });
}
BENCHMARK(EigenAllJacobianDerivativesOfTheSole);
} // namespace nao::kinematics::benchmark
