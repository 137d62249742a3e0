// FSR readings to sole loads, the fallbacks when they contradict gravity, and the torques that follow.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/FsrContact.h"
#include "Tools/Kinematics/Tests/TestModels.h"

#include <gtest/gtest.h>
#include <limits>

namespace nao::kinematics::test
{
namespace
{
using Readings = std::array<float, fsrCount>;

class FsrContact : public ::testing::Test
{
protected:
  FsrContact()
  {
    updateBodyPoses(model, data, q);
    updateCenterOfMass(model, data);
  }

  ContactEstimate estimate(const Readings& readings) const
  {
    return estimateContact(model, data, gravity, feet, layout, readings, parameters);
  }

  Model model = loadNao();
  Data data{model};
  Eigen::VectorXd q = Eigen::VectorXd::Zero(25);
  Eigen::Vector3d gravity{0, 0, -9.81};
  FeetSupport feet = FeetSupport::fromLinks(model);
  FsrLayout layout = naoFsrLayout(model, feet);
  FsrContactParameters parameters;
};

TEST_F(FsrContact, LayoutIsGeometryTableInSoleFrame)
{
  // geometry.md section 4 (mm, ankle frame = sole frame in x, y), LoLA order.
  const std::array<Eigen::Vector2d, fsrCount> expected{
      Eigen::Vector2d(70.25, 29.9),   Eigen::Vector2d(70.25, -23.1), Eigen::Vector2d(-30.25, 29.9),
      Eigen::Vector2d(-29.65, -19.1), Eigen::Vector2d(70.25, 23.1),  Eigen::Vector2d(70.25, -29.9),
      Eigen::Vector2d(-29.65, 19.1),  Eigen::Vector2d(-30.25, -29.9)};
  for (std::size_t i = 0; i < fsrCount; ++i)
    EXPECT_TRUE(layout.positions[i].isApprox(expected[i] * 0.001, 1e-12)) << i;
}

TEST_F(FsrContact, MeasuredShareAndCenterOfPressureScaledToWeight)
{
  // 3 kg on the left front pair, 1 kg spread evenly on the right: shares 3/4 and 1/4 whatever the total.
  const Readings readings{1.5f, 1.5f, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f};
  const ContactEstimate result = estimate(readings);
  EXPECT_EQ(result.model, ContactModel::fsr);
  EXPECT_NEAR(result.soles[0].weightFraction, 0.75, 1e-12);
  EXPECT_NEAR(result.soles[1].weightFraction, 0.25, 1e-12);
  EXPECT_TRUE(
      result.soles[0].centerOfPressure.isApprox(Eigen::Vector2d(0.07025, (0.0299 - 0.0231) / 2), 1e-12));
  const Eigen::Vector2d rightCentroid =
      (layout.positions[4] + layout.positions[5] + layout.positions[6] + layout.positions[7]) / 4;
  EXPECT_TRUE(result.soles[1].centerOfPressure.isApprox(rightCentroid, 1e-12));
  EXPECT_NEAR(result.normalForce[0] + result.normalForce[1], model.totalMass() * 9.81, 1e-9);
  EXPECT_NEAR(result.fsrTotal, 4.0, 1e-6);
}

TEST_F(FsrContact, OneFootUnloadedGetsNoShare)
{
  const Readings readings{0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 2.0f, 1.0f, 1.0f};
  const ContactEstimate result = estimate(readings);
  EXPECT_EQ(result.model, ContactModel::fsr);
  EXPECT_EQ(result.soles[0].weightFraction, 0.0);
  EXPECT_EQ(result.soles[0].centerOfPressure, Eigen::Vector2d::Zero());
  EXPECT_NEAR(result.soles[1].weightFraction, 1.0, 1e-12);
}

TEST_F(FsrContact, LiftedRobotHasNoContact)
{
  const Readings readings{0.02f, 0.0f, 0.05f, 0.01f, 0.0f, 0.03f, 0.0f, 0.02f};
  const ContactEstimate result = estimate(readings);
  EXPECT_EQ(result.model, ContactModel::noContact);
  EXPECT_EQ(result.normalForce[0] + result.normalForce[1], 0.0);
}

TEST_F(FsrContact, NanFallsBackToCenterOfMassProjection)
{
  Readings readings{0.7f, 0.7f, 0.7f, 0.7f, 0.7f, 0.7f, 0.7f, 0.7f};
  readings[5] = std::numeric_limits<float>::quiet_NaN();
  const ContactEstimate result = estimate(readings);
  EXPECT_EQ(result.model, ContactModel::comProjection);
  // Zero posture: the CoM is 0.2 mm left of the middle between soles 100 mm apart (geometry.md section 1).
  const double leftShare = 0.5 + data.centerOfMass.y() / 0.1;
  EXPECT_NEAR(result.soles[0].weightFraction, leftShare, 1e-12);
  EXPECT_NEAR(result.soles[0].weightFraction + result.soles[1].weightFraction, 1.0, 1e-15);
  EXPECT_GT(result.soles[0].weightFraction, 0.5);
}

TEST_F(FsrContact, ImplausibleTotalsAndBrokenSensorsFallBack)
{
  EXPECT_EQ(estimate({1.6f, 0, 0, 0, 0, 0, 0, 0}).model, ContactModel::comProjection) << "30 % of the weight";
  EXPECT_EQ(estimate({5, 5, 5, 5, 0, 0, 0, 0}).model, ContactModel::comProjection)
      << "20 kg on a 5.4 kg robot";
  EXPECT_EQ(estimate({1, 1, 1, 1, 1, -3, 1, 1}).model, ContactModel::comProjection) << "negative reading";
  EXPECT_EQ(estimate({0, 0, 0, 0, 0, 0, 0, 50}).model, ContactModel::comProjection) << "saturated sensor";
  EXPECT_EQ(estimate({0.7f, 0.7f, 0.7f, 0.7f, 0.6f, 0.6f, 0.6f, 0.6f}).model, ContactModel::fsr)
      << "plausible";
}

TEST_F(FsrContact, CenterOfMassShareFollowsTheSoleTheRobotLeansOn)
{
  // Lean left: hip roll turns both legs so the torso (and CoM) moves over the left sole.
  q[model.coordinateIndex("LHipRoll")] = -0.15;
  q[model.coordinateIndex("RHipRoll")] = -0.15;
  updateBodyPoses(model, data, q);
  updateCenterOfMass(model, data);
  const ContactEstimate result = estimate({std::numeric_limits<float>::quiet_NaN(), 0, 0, 0, 0, 0, 0, 0});
  const Eigen::Vector3d left = linkPose(model, data, feet.leftSole).translation;
  const Eigen::Vector3d right = linkPose(model, data, feet.rightSole).translation;
  // Independent: in the horizontal plane, the share is where the CoM lies along right -> left.
  const Eigen::Vector2d span = (left - right).head<2>();
  const double expected = (data.centerOfMass - right).head<2>().dot(span) / span.squaredNorm();
  EXPECT_NEAR(result.soles[0].weightFraction, std::clamp(expected, 0.0, 1.0), 1e-12);
}

TEST_F(FsrContact, TorquesFollowTheEstimatedModel)
{
  Eigen::VectorXd tau(25), expected(25);
  const ContactEstimate lifted = estimate(Readings{});
  computeTorquesFromContactEstimate(model, data, q, gravity, feet, lifted, tau);
  computeGravityTorques(model, data, q, gravity, expected);
  EXPECT_EQ(tau, expected);

  const ContactEstimate measured = estimate({1.5f, 1.5f, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f});
  SoleWrenches wrenches;
  computeTorquesFromContactEstimate(model, data, q, gravity, feet, measured, tau, &wrenches);
  computeStandingTorques(model, data, q, gravity, feet, measured.soles, expected);
  EXPECT_EQ(tau, expected);
  EXPECT_NEAR(wrenches[0].force.z(), measured.normalForce[0], 1e-9);
  EXPECT_NEAR(wrenches[1].force.z(), measured.normalForce[1], 1e-9);
}
} // namespace
} // namespace nao::kinematics::test
