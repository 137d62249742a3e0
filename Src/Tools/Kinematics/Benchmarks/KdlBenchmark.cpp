// Orocos KDL on the same NAO URDF and the same cases as KinematicsBenchmark.cpp. KDL has no mimic joints: its
// tree has 26 joint coordinates, RHipYawPitch gets LHipYawPitch's value, and the results are summed back.
// Before timing, each benchmark checks that KDL and nao::kinematics agree, and reports an error if not.
// Two KDL trees: all 63 URDF links ("allLinks"), and without the massless sensor leaf frames ("loadedLinks",
// 32 segments with the root and the soles), since KDL's recursions visit every segment.
#include "Tools/Kinematics/Benchmarks/KdlCases.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Testing/BenchmarkCases.h"

#include <benchmark/benchmark.h>
#include <kdl/jacobian.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl/treejnttojacsolver.hpp>

namespace nao::kinematics::benchmark
{
namespace
{
void runInverseDynamics(::benchmark::State& state, bool onlyLoadedLinks, bool withWrenches)
{
  const NaoCases& cases = naoCases();
  const KdlCases& kdl = kdlCases(onlyLoadedLinks);
  const std::optional<TorqueComparison> comparison = compareTorques(kdl, withWrenches);
  if (!comparison || comparison->largestDifference >= 1e-9)
  {
    state.SkipWithError(
        ("KDL and nao::kinematics disagree by " +
         (comparison ? std::to_string(comparison->largestDifference) : std::string("a failed solve")) +
         " N*m")
            .c_str());
    return;
  }
  state.counters["maxDifferenceNm"] = comparison->largestDifference;
  KDL::TreeIdSolver_RNE solver(kdl.tree, toKdl(cases.gravity));
  KDL::JntArray zero(kdl.tree.getNrOfJoints()), torques(kdl.tree.getNrOfJoints());
  const KDL::WrenchMap none;
  nao::test::cycleCases(state, NaoCases::count,
                        [&](std::size_t c)
                        {
                          solver.CartToJnt(kdl.configurations[c], zero, zero,
                                           withWrenches ? kdl.wrenches[c] : none, torques);
                          return torques.data.data();
                        });
}

void KdlGravityTorques(::benchmark::State& state, bool onlyLoadedLinks)
{
  runInverseDynamics(state, onlyLoadedLinks, false);
}
BENCHMARK_CAPTURE(KdlGravityTorques, allLinks, false);
BENCHMARK_CAPTURE(KdlGravityTorques, loadedLinks, true);

void KdlStaticTorquesTwoSoleWrenches(::benchmark::State& state, bool onlyLoadedLinks)
{
  runInverseDynamics(state, onlyLoadedLinks, true);
}
BENCHMARK_CAPTURE(KdlStaticTorquesTwoSoleWrenches, allLinks, false);
BENCHMARK_CAPTURE(KdlStaticTorquesTwoSoleWrenches, loadedLinks, true);

void KdlForwardKinematics(::benchmark::State& state, bool onlyLoadedLinks)
{
  const KdlCases& kdl = kdlCases(onlyLoadedLinks);
  KDL::TreeFkSolverPos_recursive solver(kdl.tree);
  std::vector<KDL::Frame> frames(kdl.segmentNames.size());
  nao::test::cycleCases(state, NaoCases::count,
                        [&](std::size_t c)
                        {
                          for (std::size_t s = 0; s < frames.size(); ++s)
                            solver.JntToCart(kdl.configurations[c], frames[s], kdl.segmentNames[s]);
                          return frames.data();
                        });
  state.counters["links"] = static_cast<double>(frames.size());
}
BENCHMARK_CAPTURE(KdlForwardKinematics, allLinks, false);
BENCHMARK_CAPTURE(KdlForwardKinematics, loadedLinks, true);

void KdlForwardKinematicsPlusTenPointJacobians(::benchmark::State& state, bool onlyLoadedLinks)
{
  // Same ten points as the Eigen benchmark; KDL's tree Jacobian refers to the segment origin, so each point
  // needs its segment's pose and a change of reference point.
  const NaoCases& cases = naoCases();
  const KdlCases& kdl = kdlCases(onlyLoadedLinks);
  KDL::TreeFkSolverPos_recursive fk(kdl.tree);
  KDL::TreeJntToJacSolver jacobianSolver(kdl.tree);
  std::array<std::pair<std::string, KDL::Vector>, 10> points;
  for (std::size_t p = 0; p < points.size(); ++p)
    points[p] = {tenPoints()[p].link, toKdl(tenPoints()[p].point)};
  std::array<KDL::Jacobian, 10> jacobians;
  for (KDL::Jacobian& jacobian : jacobians)
    jacobian.resize(kdl.tree.getNrOfJoints());
  // Agreement check on the first case: the l_sole point Jacobian, columns summed into coordinates.
  {
    Data data(cases.model);
    updateBodyPoses(cases.model, data, cases.configurations[0]);
    Jacobian expected(6, cases.model.coordinateCount());
    computePointJacobian(cases.model, data, cases.model.linkIndex("l_sole"), Eigen::Vector3d(0.02, 0, 0),
                         expected);
    KDL::Frame frame;
    fk.JntToCart(kdl.configurations[0], frame, "l_sole");
    jacobianSolver.JntToJac(kdl.configurations[0], jacobians[0], "l_sole");
    jacobians[0].changeRefPoint(frame.M * points[0].second);
    Jacobian fromKdl = Jacobian::Zero(6, cases.model.coordinateCount());
    for (unsigned int j = 0; j < jacobians[0].columns(); ++j)
    {
      const Body& body = cases.model.body(kdl.bodyOfKdlJoint[j]);
      fromKdl.col(body.coordinate) += body.multiplier * jacobians[0].data.col(j);
    }
    if ((fromKdl - expected).cwiseAbs().maxCoeff() > 1e-12)
    {
      state.SkipWithError("KDL and nao::kinematics Jacobians disagree");
      return;
    }
  }
  nao::test::cycleCases(state, NaoCases::count,
                        [&](std::size_t c)
                        {
                          const KDL::JntArray& q = kdl.configurations[c];
                          for (std::size_t p = 0; p < points.size(); ++p)
                          {
                            KDL::Frame frame;
                            fk.JntToCart(q, frame, points[p].first);
                            jacobianSolver.JntToJac(q, jacobians[p], points[p].first);
                            jacobians[p].changeRefPoint(frame.M * points[p].second);
                          }
                          return jacobians.data();
                        });
}
BENCHMARK_CAPTURE(KdlForwardKinematicsPlusTenPointJacobians, allLinks, false);
BENCHMARK_CAPTURE(KdlForwardKinematicsPlusTenPointJacobians, loadedLinks, true);
} // namespace
} // namespace nao::kinematics::benchmark

BENCHMARK_MAIN();
