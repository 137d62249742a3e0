// Orocos KDL as an independent reference, as a test and not only inside the benchmark: on the NAO URDF (KDL's tree
// built from the same file, both with every link and without the massless sensor frames), for 64 random
// configurations within the joint limits, every link pose, ten point Jacobians, the gravity torques and the static
// torques with both soles' wrenches must equal KDL's. KDL has no mimic joints: RHipYawPitch gets LHipYawPitch's value
// and its column/torque is summed back with the mimic factor, as the benchmark does.
#include "Tools/Kinematics/Benchmarks/KdlTreeFromUrdf.h"
#include "Tools/Kinematics/Benchmarks/NaoBenchmarkSetup.h"
#include "Tools/Kinematics/Jacobian.h"

#include <gtest/gtest.h>
#include <kdl/jacobian.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl/treejnttojacsolver.hpp>

using namespace nao::kinematics;
using nao::kinematics::benchmark::kdlTreeFromUrdf;
using nao::kinematics::benchmark::NaoCases;
using nao::kinematics::benchmark::naoCases;
using nao::kinematics::benchmark::naoUrdfText;

namespace
{
/// Tolerances: poses and Jacobians are products of a dozen rotations (1e-12 leaves 1e4 ulps of slack for a different
/// order of operations); torques sum ~5 kg × 9.8 m/s² × 0.3 m over many bodies (1e-9 N·m).
constexpr double poseTolerance = 1e-12, jacobianTolerance = 1e-12, torqueTolerance = 1e-9;

struct KdlNao
{
  KDL::Tree tree;
  std::vector<int> bodyOfKdlJoint; ///< per KDL q index: the model's body

  explicit KdlNao(const Model& model, bool onlyLoadedLinks)
      : tree(kdlTreeFromUrdf(naoUrdfText(), onlyLoadedLinks, {"l_sole", "r_sole"}))
  {
    bodyOfKdlJoint.assign(tree.getNrOfJoints(), -1);
    for (const auto& [name, element] : tree.getSegments())
    {
      const KDL::Joint& joint = GetTreeElementSegment(element).getJoint();
      if (joint.getType() != KDL::Joint::None)
        bodyOfKdlJoint[GetTreeElementQNr(element)] = model.findBodyOfJoint(joint.getName());
    }
  }

  KDL::JntArray configuration(const Data& data) const
  {
    KDL::JntArray q(tree.getNrOfJoints());
    for (unsigned int j = 0; j < q.rows(); ++j)
      q(j) = data.jointValues[static_cast<std::size_t>(bodyOfKdlJoint[j])];
    return q;
  }

  /// A per-KDL-joint quantity (torques, Jacobian columns) summed into the model's coordinates.
  template<class Column>
  Eigen::MatrixXd toCoordinates(const Model& model, Eigen::Index rows, Column column) const
  {
    Eigen::MatrixXd result = Eigen::MatrixXd::Zero(rows, model.coordinateCount());
    for (unsigned int j = 0; j < tree.getNrOfJoints(); ++j)
    {
      const Body& body = model.body(bodyOfKdlJoint[j]);
      result.col(body.coordinate) += body.multiplier * column(j);
    }
    return result;
  }
};

class KdlAgreement : public ::testing::TestWithParam<bool>
{
protected:
  const NaoCases& cases = naoCases();
  KdlNao kdl{cases.model, GetParam()};
};

TEST_P(KdlAgreement, EveryLinkPoseEqualsKdls)
{
  const Model& model = cases.model;
  Data data(model);
  KDL::TreeFkSolverPos_recursive solver(kdl.tree);
  std::size_t compared = 0;
  for (std::size_t c = 0; c < NaoCases::count; ++c)
  {
    updateBodyPoses(model, data, cases.configurations[c]);
    const KDL::JntArray q = kdl.configuration(data);
    for (const auto& [name, element] : kdl.tree.getSegments())
    {
      if (name == kdl.tree.getRootSegment()->first) continue;
      KDL::Frame frame;
      ASSERT_GE(solver.JntToCart(q, frame, name), 0) << name;
      const nao::math::Pose pose = linkPose(model, data, model.linkIndex(name));
      for (int r = 0; r < 3; ++r)
      {
        EXPECT_NEAR(frame.p(r), pose.translation[r], poseTolerance) << name << " case " << c;
        for (int k = 0; k < 3; ++k)
          EXPECT_NEAR(frame.M(r, k), pose.rotation(r, k), poseTolerance) << name << " case " << c;
      }
      ++compared;
    }
  }
  EXPECT_GE(compared, NaoCases::count * (GetParam() ? 31u : 62u)) << "fewer links compared than the tree has";
}

TEST_P(KdlAgreement, PointJacobiansEqualKdls)
{
  const Model& model = cases.model;
  Data data(model);
  KDL::TreeFkSolverPos_recursive fk(kdl.tree);
  KDL::TreeJntToJacSolver jacobianSolver(kdl.tree);
  const std::array<std::pair<std::string, Eigen::Vector3d>, 10> points{
      std::pair{"l_sole", Eigen::Vector3d(0.02, 0, 0)}, {"r_sole", Eigen::Vector3d(0.02, 0, 0)},
      {"l_gripper", Eigen::Vector3d::Zero()},           {"r_gripper", Eigen::Vector3d::Zero()},
      {"Head", Eigen::Vector3d(0, 0, 0.055)},           {"LTibia", Eigen::Vector3d(0, 0, -0.05)},
      {"RTibia", Eigen::Vector3d(0, 0, -0.05)},         {"LForeArm", Eigen::Vector3d(0.03, 0, 0)},
      {"RForeArm", Eigen::Vector3d(0.03, 0, 0)},        {"torso", Eigen::Vector3d(0, 0, 0.02)}};
  Jacobian expected(6, model.coordinateCount());
  KDL::Jacobian fromKdl(kdl.tree.getNrOfJoints());
  for (std::size_t c = 0; c < NaoCases::count; ++c)
  {
    updateBodyPoses(model, data, cases.configurations[c]);
    const KDL::JntArray q = kdl.configuration(data);
    for (const auto& [link, point] : points)
    {
      computePointJacobian(model, data, model.linkIndex(link), point, expected);
      KDL::Frame frame;
      ASSERT_GE(fk.JntToCart(q, frame, link), 0) << link;
      ASSERT_GE(jacobianSolver.JntToJac(q, fromKdl, link), 0) << link;
      fromKdl.changeRefPoint(frame.M * KDL::Vector(point.x(), point.y(), point.z()));
      const Eigen::MatrixXd summed =
          kdl.toCoordinates(model, 6, [&](unsigned int j) { return Eigen::VectorXd(fromKdl.data.col(j)); });
      EXPECT_LT((summed - expected).cwiseAbs().maxCoeff(), jacobianTolerance) << link << " case " << c;
    }
  }
}

TEST_P(KdlAgreement, GravityAndStaticTorquesEqualKdls)
{
  const Model& model = cases.model;
  Data data(model);
  KDL::TreeIdSolver_RNE solver(kdl.tree,
                               KDL::Vector(cases.gravity.x(), cases.gravity.y(), cases.gravity.z()));
  Eigen::VectorXd expected(model.coordinateCount());
  KDL::JntArray zero(kdl.tree.getNrOfJoints()), torques(kdl.tree.getNrOfJoints());
  double largestStaticTorque = 0;
  for (std::size_t c = 0; c < NaoCases::count; ++c)
  {
    updateBodyPoses(model, data, cases.configurations[c]);
    const KDL::JntArray q = kdl.configuration(data);
    auto kdlTorques = [&]
    {
      return kdl
          .toCoordinates(model, 1, [&](unsigned int j) { return Eigen::VectorXd::Constant(1, torques(j)); })
          .row(0)
          .transpose()
          .eval();
    };

    ASSERT_GE(solver.CartToJnt(q, zero, zero, KDL::WrenchMap{}, torques), 0);
    computeGravityTorques(model, data, cases.configurations[c], cases.gravity, expected);
    EXPECT_LT((kdlTorques() - expected).cwiseAbs().maxCoeff(), torqueTolerance) << "gravity, case " << c;

    // KDL wants each sole's wrench in the sole segment's frame, about its origin.
    KDL::WrenchMap wrenches;
    for (const ContactWrench& wrench : cases.wrenches[c])
    {
      const nao::math::Pose sole = linkPose(model, data, wrench.link);
      const Eigen::Vector3d force = sole.rotation.transpose() * wrench.force;
      const Eigen::Vector3d moment =
          sole.rotation.transpose() * (wrench.moment + (wrench.point - sole.translation).cross(wrench.force));
      wrenches[model.link(wrench.link).name] = KDL::Wrench(KDL::Vector(force.x(), force.y(), force.z()),
                                                           KDL::Vector(moment.x(), moment.y(), moment.z()));
    }
    ASSERT_GE(solver.CartToJnt(q, zero, zero, wrenches, torques), 0);
    computeStaticTorques(model, data, cases.configurations[c], cases.gravity, cases.wrenches[c], expected);
    EXPECT_LT((kdlTorques() - expected).cwiseAbs().maxCoeff(), torqueTolerance) << "static, case " << c;
    largestStaticTorque = std::max(largestStaticTorque, expected.cwiseAbs().maxCoeff());
  }
  // The cases load the joints (a standing robot's knees hold N·m): agreement on zeros would prove nothing.
  EXPECT_GT(largestStaticTorque, 1.0);
}

INSTANTIATE_TEST_SUITE_P(Trees, KdlAgreement, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "loadedLinks" : "allLinks"; });
} // namespace
