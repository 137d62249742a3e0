// nao::kinematics against an independent implementation, Orocos KDL, on the NAO's URDF and 64 random standing
// configurations within the joint limits (NaoBenchmarkSetup.h): every link's pose, the gravity torques, the static
// torques under two sole wrenches and point Jacobians agree. The KDL benchmark checks the same before timing, but
// a benchmark's smoke run only reports; this test fails. KDL has no mimic joints: RHipYawPitch gets LHipYawPitch's
// value and the results are summed back into the model's coordinates.
#include "Tools/Kinematics/Benchmarks/KdlCases.h"
#include "Tools/Kinematics/Jacobian.h"

#include <gtest/gtest.h>
#include <kdl/jacobian.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl/treejnttojacsolver.hpp>

namespace nao::kinematics::benchmark
{
namespace
{
TEST(KdlComparison, EveryLinkPoseAgrees)
{
  const NaoCases& cases = naoCases();
  const KdlCases& kdl = kdlCases(false); // all 63 URDF links
  KDL::TreeFkSolverPos_recursive solver(kdl.tree);
  Data data(cases.model);
  double largest = 0;
  std::size_t compared = 0;
  for (std::size_t c = 0; c < NaoCases::count; ++c)
  {
    forwardKinematics(cases.model, data, cases.configurations[c]);
    for (const std::string& name : kdl.segmentNames)
    {
      const int link = cases.model.findLink(name);
      ASSERT_GE(link, 0) << name;
      KDL::Frame frame;
      ASSERT_GE(solver.JntToCart(kdl.configurations[c], frame, name), 0) << name;
      const math::Pose& pose = data.linkPoses[static_cast<std::size_t>(link)];
      for (int row = 0; row < 3; ++row)
      {
        largest = std::max(largest, std::abs(frame.p(row) - pose.translation[row]));
        for (int column = 0; column < 3; ++column)
          largest = std::max(largest, std::abs(frame.M(row, column) - pose.rotation(row, column)));
      }
      ++compared;
    }
  }
  EXPECT_LT(largest, 1e-12) << "m or rotation-matrix entries";
  EXPECT_GE(compared, NaoCases::count * 62) << "the 62 links below the torso in every configuration";
}

TEST(KdlComparison, GravityAndStaticTorquesAgree)
{
  for (const bool onlyLoadedLinks : {false, true})
    for (const bool withWrenches : {false, true})
    {
      SCOPED_TRACE(std::string(onlyLoadedLinks ? "loaded links" : "all links") +
                   (withWrenches ? ", two sole wrenches" : ", gravity only"));
      const std::optional<TorqueComparison> comparison =
          compareTorques(kdlCases(onlyLoadedLinks), withWrenches);
      ASSERT_TRUE(comparison) << "KDL's solver failed on a case";
      EXPECT_LT(comparison->largestDifference, 1e-9) << "N·m";
      EXPECT_GT(comparison->largestTorque, 1.0) << "N·m: the cases load the joints";
    }
}

TEST(KdlComparison, PointJacobiansAgree)
{
  // KDL's tree Jacobian refers to the segment's origin: moved to the point, columns summed into coordinates.
  const NaoCases& cases = naoCases();
  const KdlCases& kdl = kdlCases(false);
  KDL::TreeFkSolverPos_recursive fk(kdl.tree);
  KDL::TreeJntToJacSolver jacobianSolver(kdl.tree);
  const std::array<std::pair<std::string, Eigen::Vector3d>, 6> points{
      std::pair{"l_sole", Eigen::Vector3d(0.02, 0, 0)}, {"r_sole", Eigen::Vector3d(0.02, 0, 0)},
      {"l_gripper", Eigen::Vector3d::Zero()},           {"Head", Eigen::Vector3d(0, 0, 0.055)},
      {"RTibia", Eigen::Vector3d(0, 0, -0.05)},         {"LForeArm", Eigen::Vector3d(0.03, 0, 0)}};
  Data data(cases.model);
  Jacobian expected(6, cases.model.coordinateCount());
  KDL::Jacobian jacobian(kdl.tree.getNrOfJoints());
  double largest = 0, largestEntry = 0;
  for (std::size_t c = 0; c < NaoCases::count; ++c)
  {
    updateBodyPoses(cases.model, data, cases.configurations[c]);
    for (const auto& [link, point] : points)
    {
      computePointJacobian(cases.model, data, cases.model.linkIndex(link), point, expected);
      KDL::Frame frame;
      ASSERT_GE(fk.JntToCart(kdl.configurations[c], frame, link), 0);
      ASSERT_GE(jacobianSolver.JntToJac(kdl.configurations[c], jacobian, link), 0);
      jacobian.changeRefPoint(frame.M * toKdl(point));
      Jacobian fromKdl = Jacobian::Zero(6, cases.model.coordinateCount());
      for (unsigned int j = 0; j < jacobian.columns(); ++j)
      {
        const Body& body = cases.model.body(kdl.bodyOfKdlJoint[j]);
        fromKdl.col(body.coordinate) += body.multiplier * jacobian.data.col(j);
      }
      largest = std::max(largest, (fromKdl - expected).cwiseAbs().maxCoeff());
      largestEntry = std::max(largestEntry, expected.cwiseAbs().maxCoeff());
    }
  }
  EXPECT_LT(largest, 1e-12) << "m/rad and rad/rad";
  EXPECT_GT(largestEntry, 0.9) << "rad/rad: the Jacobians are not empty";
}
} // namespace
} // namespace nao::kinematics::benchmark
