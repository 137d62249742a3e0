// The metric p and its gradient on a 7-joint chain (and on the NAO's arm, where one forward kinematics pass
// of the whole 26-body model is included). Report medians, e.g.
//   StiffnessBenchmark --benchmark_repetitions=15 --benchmark_report_aggregates_only=true
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"

#include <benchmark/benchmark.h>
#include <random>
#include <string>
#include <vector>

namespace nao::stiffness::benchmark
{
namespace
{
/// A 7-joint arm (axes z y z y z y z, 0.3-0.4 m links, slight offsets so that no joint is degenerate).
std::string sevenJointArmUrdf()
{
  const char* axes[] = {"0 0 1", "0 1 0", "0 0 1", "0 1 0", "0 0 1", "0 1 0", "0 0 1"};
  const char* origins[] = {"0 0 0.15", "0 0 0.2",     "0.01 0 0.2", "0 0.01 0.2",
                           "0 0 0.2",  "0.01 0 0.19", "0 0 0.08"};
  std::string urdf = "<robot name=\"arm7\"><link name=\"base\"/>";
  std::string parent = "base";
  for (int i = 0; i < 7; ++i)
  {
    const std::string link = "link" + std::to_string(i + 1);
    urdf += "<joint name=\"joint" + std::to_string(i + 1) + "\" type=\"revolute\"><parent link=\"" + parent +
            "\"/><child link=\"" + link + "\"/><origin xyz=\"" + origins[i] +
            "\" rpy=\"0 0 0\"/><axis xyz=\"" + axes[i] +
            "\"/><limit lower=\"-2.9\" upper=\"2.9\" effort=\"100\" velocity=\"1\"/></joint><link name=\"" +
            link + "\"/>";
    parent = link;
  }
  return urdf + "<joint name=\"tool_joint\" type=\"fixed\"><parent link=\"link7\"/><child link=\"tool\"/>"
                "<origin xyz=\"0 0 0.1\"/></joint><link name=\"tool\"/></robot>";
}

struct Cases
{
  kinematics::Model model;
  Chain chain;
  std::vector<Eigen::VectorXd> configurations;
  StiffnessQuery query;
  Cases(kinematics::Model m, const char* base, const char* tip) : model(std::move(m)), chain(model, base, tip)
  {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> angle(-1.5, 1.5);
    for (int c = 0; c < 64; ++c)
    {
      Eigen::VectorXd q(chain.jointCount());
      for (int i = 0; i < q.size(); ++i)
        q[i] = angle(random);
      configurations.push_back(q);
    }
    query.direction << 0.6, -0.3, 0.5, 0.1, 0.0, -0.2;
    query.cartesianStiffness.diagonal() << 2000.0, 2000.0, 1000.0, 50.0, 50.0, 20.0;
  }
};

const Cases& sevenJoints()
{
  static const Cases cases(kinematics::buildModel(sevenJointArmUrdf()), "base", "tool");
  return cases;
}

const Cases& naoArm()
{
  static const Cases cases(kinematics::loadModel(std::string(NAO_CONFIG_DIR) + "/Robots/Default/nao-v6.urdf"),
                           "torso", "l_gripper");
  return cases;
}

void updateMetricAndGradient(::benchmark::State& state, const Cases& cases)
{
  Workspace workspace(cases.chain);
  Eigen::VectorXd gradient(cases.chain.jointCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    updateChain(cases.chain, workspace, cases.configurations[i++ % cases.configurations.size()]);
    ::benchmark::DoNotOptimize(computeMetricGradient(cases.chain, workspace, cases.query, gradient));
    ::benchmark::DoNotOptimize(gradient.data());
  }
}

void SevenJointsUpdateMetricGradient(::benchmark::State& state)
{
  updateMetricAndGradient(state, sevenJoints());
}
BENCHMARK(SevenJointsUpdateMetricGradient);

void SevenJointsMetricGradientOnly(::benchmark::State& state)
{
  // The geometry is already known (e.g. the robot model provider computed it): p and dp/dq alone.
  const Cases& cases = sevenJoints();
  Workspace workspace(cases.chain);
  updateChain(cases.chain, workspace, cases.configurations[0]);
  Eigen::VectorXd gradient(cases.chain.jointCount());
  for (auto _ : state)
  {
    ::benchmark::DoNotOptimize(computeMetricGradient(cases.chain, workspace, cases.query, gradient));
    ::benchmark::DoNotOptimize(gradient.data());
  }
}
BENCHMARK(SevenJointsMetricGradientOnly);

void SevenJointsUpdateMetricHessian(::benchmark::State& state)
{
  const Cases& cases = sevenJoints();
  Workspace workspace(cases.chain);
  Eigen::MatrixXd hessian(cases.chain.jointCount(), cases.chain.jointCount());
  std::size_t i = 0;
  for (auto _ : state)
  {
    updateChain(cases.chain, workspace, cases.configurations[i++ % cases.configurations.size()]);
    ::benchmark::DoNotOptimize(computeMetricHessian(cases.chain, workspace, cases.query, hessian));
    ::benchmark::DoNotOptimize(hessian.data());
  }
}
BENCHMARK(SevenJointsUpdateMetricHessian);

void NaoArmUpdateMetricGradient(::benchmark::State& state)
{
  updateMetricAndGradient(state, naoArm());
}
BENCHMARK(NaoArmUpdateMetricGradient);

/// The ellipsoid on known geometry: the 6 x 6 one (iterative) against the translational 3 x 3 (closed form),
/// the one LimbStiffnessProvider computes per limb.
void NaoArmFullEllipsoid(::benchmark::State& state)
{
  const Cases& cases = naoArm();
  Workspace workspace(cases.chain);
  updateChain(cases.chain, workspace, cases.configurations[0]);
  for (auto _ : state)
    ::benchmark::DoNotOptimize(
        computeStiffnessEllipsoid(workspace, cases.query.cartesianStiffness).values.data());
}
BENCHMARK(NaoArmFullEllipsoid);

void NaoArmTranslationalEllipsoid(::benchmark::State& state)
{
  const Cases& cases = naoArm();
  Workspace workspace(cases.chain);
  updateChain(cases.chain, workspace, cases.configurations[0]);
  for (auto _ : state)
    ::benchmark::DoNotOptimize(
        computeTranslationalEllipsoid(workspace, cases.query.cartesianStiffness).values.data());
}
BENCHMARK(NaoArmTranslationalEllipsoid);
} // namespace
} // namespace nao::stiffness::benchmark

BENCHMARK_MAIN();
