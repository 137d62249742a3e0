// Each feature's Jacobian against central differences of the feature itself on the NAO, at random postures.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Tests/TestModels.h"
#include "Tools/TaskStack/Features/Features.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace nao;
using namespace nao::taskstack;

namespace
{
Eigen::VectorXd randomPosture(const kinematics::Model& model, std::mt19937& random)
{
  Eigen::VectorXd q(model.coordinateCount());
  for (int i = 1; i < model.bodyCount(); ++i)
  {
    const auto& limits = model.body(i).limits;
    std::uniform_real_distribution<double> within(limits.lower, limits.upper);
    q[model.body(i).coordinate] = within(random);
  }
  return q;
}

/// Central differences of a feature (3 numbers) over every coordinate.
FeatureJacobian centralDifferences(const kinematics::Model& model, kinematics::Data& data,
                                   const Eigen::VectorXd& q, const std::function<Eigen::Vector3d()>& feature)
{
  const double h = 1e-6;
  FeatureJacobian jacobian(3, q.size());
  for (int j = 0; j < q.size(); ++j)
  {
    Eigen::VectorXd shifted = q;
    shifted[j] += h;
    kinematics::forwardKinematics(model, data, shifted);
    kinematics::updateCenterOfMass(model, data);
    const Eigen::Vector3d plus = feature();
    shifted[j] -= 2 * h;
    kinematics::forwardKinematics(model, data, shifted);
    kinematics::updateCenterOfMass(model, data);
    jacobian.col(j) = (plus - feature()) / (2 * h);
  }
  kinematics::forwardKinematics(model, data, q);
  kinematics::updateCenterOfMass(model, data);
  return jacobian;
}

struct NaoFixture : ::testing::Test
{
  kinematics::Model model = kinematics::test::loadNao();
  kinematics::Data data{model};
  FeatureScratch scratch{model.coordinateCount()};
  FeatureJacobian jacobian{3, model.coordinateCount()};
  std::mt19937 random{44};
  int leftSole = model.linkIndex("l_sole"), rightSole = model.linkIndex("r_sole"),
      leftWrist = model.linkIndex("l_wrist"), head = model.linkIndex("Head"),
      torso = model.linkIndex("torso");

  void at(const Eigen::VectorXd& q)
  {
    kinematics::forwardKinematics(model, data, q);
    kinematics::updateCenterOfMass(model, data);
  }
};
} // namespace

TEST_F(NaoFixture, RelativePositionJacobianMatchesDifferences)
{
  const Eigen::Vector3d point(0.05, -0.01, 0.02); // m, off the link origin
  for (int trial = 0; trial < 10; ++trial)
  {
    const Eigen::VectorXd q = randomPosture(model, random);
    for (const auto& pair : {std::pair{leftWrist, leftSole}, {rightSole, leftSole}, {head, torso}})
    {
      const auto link = pair.first,
                 reference = pair.second; // lambdas capture variables, not bindings (clang 14)
      at(q);
      relativePosition(model, data, link, point, reference, scratch, jacobian);
      const FeatureJacobian expected = centralDifferences(
          model, data, q,
          [&] { return relativePosition(model, data, link, point, reference, scratch, jacobian); });
      relativePosition(model, data, link, point, reference, scratch, jacobian);
      EXPECT_LE((jacobian - expected).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial << " link " << link;
    }
  }
}

TEST_F(NaoFixture, RelativeOrientationJacobianIsTheRelativeAngularVelocity)
{
  for (int trial = 0; trial < 10; ++trial)
  {
    const Eigen::VectorXd q = randomPosture(model, random);
    for (const auto& pair : {std::pair{leftWrist, leftSole}, {rightSole, leftSole}, {head, torso}})
    {
      const auto link = pair.first,
                 reference = pair.second; // lambdas capture variables, not bindings (clang 14)
      at(q);
      const Eigen::Matrix3d r0 = relativeOrientation(model, data, link, reference, scratch, jacobian);
      // The rotation error from r0 is 0 at q and its derivative is the relative angular velocity.
      const FeatureJacobian expected = centralDifferences(
          model, data, q,
          [&] {
            return rotationError(relativeOrientation(model, data, link, reference, scratch, jacobian), r0);
          });
      relativeOrientation(model, data, link, reference, scratch, jacobian);
      EXPECT_LE((jacobian - expected).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial << " link " << link;
    }
  }
}

TEST_F(NaoFixture, CenterOfMassJacobianMatchesDifferences)
{
  for (int trial = 0; trial < 10; ++trial)
  {
    const Eigen::VectorXd q = randomPosture(model, random);
    for (int reference : {torso, leftSole, rightSole})
    {
      at(q);
      const FeatureJacobian expected = centralDifferences(
          model, data, q, [&] { return relativeCenterOfMass(model, data, reference, scratch, jacobian); });
      const Eigen::Vector3d com = relativeCenterOfMass(model, data, reference, scratch, jacobian);
      EXPECT_LE((jacobian - expected).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial;
      // The value itself: the base-frame centre of mass seen from the reference.
      const auto& pose = data.linkPoses[static_cast<std::size_t>(reference)];
      EXPECT_LE((com - pose.rotation.transpose() * (data.centerOfMass - pose.translation)).norm(), 1e-14);
    }
  }
}

TEST_F(NaoFixture, RotationErrorIsTheAxisAngleToTheTarget)
{
  const Eigen::Matrix3d target = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  const Eigen::Matrix3d rotation =
      Eigen::AngleAxisd(0.2, Eigen::Vector3d::UnitX()).toRotationMatrix() * target;
  EXPECT_LE((rotationError(rotation, target) - Eigen::Vector3d(0.2, 0, 0)).norm(), 1e-15);
  EXPECT_LE(rotationError(target, target).norm(), 1e-15);
}

TEST_F(NaoFixture, DistanceRowMatchesDifferencesOfTheWitnessGap)
{
  for (int trial = 0; trial < 10; ++trial)
  {
    const Eigen::VectorXd q = randomPosture(model, random);
    at(q);
    // Witness points fixed in their links (to first order the shapes' witness points do not slide: Features.h).
    const Eigen::Vector3d inWrist(0.02, 0.0, 0.0), inTorso(0.03, 0.04, 0.05);
    const auto& wristPose = data.linkPoses[static_cast<std::size_t>(leftWrist)];
    const auto& torsoPose = data.linkPoses[static_cast<std::size_t>(torso)];
    const Eigen::Vector3d normal = (wristPose * inWrist - torsoPose * inTorso).normalized(); // from torso (A)
    Eigen::RowVectorXd row(model.coordinateCount());
    distanceRow(model, data, torso, torsoPose * inTorso, leftWrist, wristPose * inWrist, normal, scratch,
                row);
    const FeatureJacobian expected =
        centralDifferences(model, data, q,
                           [&]
                           {
                             const double gap =
                                 normal.dot(data.linkPoses[static_cast<std::size_t>(leftWrist)] * inWrist -
                                            data.linkPoses[static_cast<std::size_t>(torso)] * inTorso);
                             return Eigen::Vector3d(gap, 0, 0);
                           });
    EXPECT_LE((row - expected.row(0)).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial;
  }
}
