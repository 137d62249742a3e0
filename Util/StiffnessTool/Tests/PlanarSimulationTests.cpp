// The paper's Fig 12 experiment on the 4-link planar unit arm: with the endpoint held, alpha < 0 makes the
// arm stiffer (p falls) and alpha > 0 more compliant (p rises) along x, y and the diagonal xy, while the
// endpoint drifts by less than 1e-6 m. At the end the arm rests where the metric's gradient has no component
// left in the null space of the held rows (a constrained extremum).
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/StiffnessError.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Util/StiffnessTool/NullSpaceSimulation.h"

#include <Eigen/QR>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nao::stiffness::test
{
namespace
{
using kinematics::Matrix6;
using kinematics::Model;
using kinematics::Vector6;

/// The start of every run (rad): a curled arm whose endpoint is well inside the workspace.
Eigen::VectorXd planarStart()
{
  return Eigen::Vector4d(2.0, -1.0, -1.0, -1.0);
}

SimulationSettings planarSettings(double alpha)
{
  SimulationSettings settings;
  settings.redundancy.alpha = alpha;
  settings.redundancy.jointDamping = 4.0;
  settings.duration = 20.0;
  settings.hold.rows = {true, true, false, false, false, false};
  return settings;
}

/// |N grad p|: the gradient's part in the null space of the held rows (x, y).
double projectedGradient(const Chain& chain, const Eigen::VectorXd& q, const StiffnessQuery& query)
{
  Workspace workspace(chain);
  updateChain(chain, workspace, q);
  Eigen::VectorXd gradient(chain.jointCount());
  computeMetricGradient(chain, workspace, query, gradient);
  const Eigen::MatrixXd held = workspace.jacobian.topRows(2);
  const Eigen::MatrixXd projector =
      Eigen::MatrixXd::Identity(4, 4) - held.completeOrthogonalDecomposition().pseudoInverse() * held;
  return (projector * gradient).norm();
}

TEST(PlanarSimulation, AlphaSteersTowardStiffnessOrComplianceWhileTheEndpointStays)
{
  const Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  const double diagonal = std::sqrt(0.5);
  const struct
  {
    const char* name;
    Vector6 direction;
  } directions[] = {{"x", Vector6::Unit(0)},
                    {"y", Vector6::Unit(1)},
                    {"xy", diagonal * (Vector6::Unit(0) + Vector6::Unit(1))}};
  for (const auto& direction : directions)
    for (const double alpha : {-5.0, 5.0})
    {
      StiffnessQuery query;
      query.direction = direction.direction;
      const SimulationResult result =
          simulateNullSpaceMotion(chain, query, planarStart(), planarSettings(alpha));
      const SimulationSample& first = result.samples.front();
      const SimulationSample& last = result.samples.back();
      SCOPED_TRACE(std::string(direction.name) + (alpha < 0 ? " stiff" : " compliant"));
      EXPECT_NEAR(last.time, 20.0, 1e-12);
      EXPECT_LT(result.maxEndpointDrift, 1e-6);
      if (alpha < 0)
      {
        EXPECT_LT(last.metric, 0.75 * first.metric);
      }
      else
      {
        EXPECT_GT(last.metric, 1.1 * first.metric);
      }
      // Settled: the gradient's part in the null space has nearly vanished (a constrained extremum).
      EXPECT_LT(projectedGradient(chain, last.q, query), 0.05 * projectedGradient(chain, first.q, query));
      std::cout << direction.name << (alpha < 0 ? " stiff    " : " compliant") << ": p " << first.metric
                << " -> " << last.metric << ", max endpoint drift " << result.maxEndpointDrift << " m\n";
    }
}

TEST(PlanarSimulation, StretchedStartIsASingularCase)
{
  const Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  StiffnessQuery query;
  query.direction = Vector6::Unit(0);
  try
  {
    simulateNullSpaceMotion(chain, query, Eigen::Vector4d::Zero(), planarSettings(-1.0));
    FAIL() << "no error";
  }
  catch (const StiffnessError& error)
  {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("singular case: the held endpoint rows (x,y)"));
    EXPECT_THAT(error.what(), ::testing::HasSubstr("at t = 0 s"));
  }
}

TEST(PlanarSimulation, BadSettingsNameTheValue)
{
  const Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  StiffnessQuery query;
  query.direction = Vector6::Unit(0);
  SimulationSettings settings = planarSettings(1.0);
  EXPECT_THROW(simulateNullSpaceMotion(chain, query, Eigen::Vector3d::Zero(), settings), StiffnessError);
  settings.step = 0.0;
  EXPECT_THROW(simulateNullSpaceMotion(chain, query, planarStart(), settings), StiffnessError);
  settings = planarSettings(1.0);
  settings.inertia = -Eigen::MatrixXd::Identity(4, 4);
  EXPECT_THROW(simulateNullSpaceMotion(chain, query, planarStart(), settings), StiffnessError);
}
} // namespace
} // namespace nao::stiffness::test
