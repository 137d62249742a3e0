// G(q) against the gradient of the potential energy and against closed-form torques.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Kinematics/Tests/TestModels.h"
#include "Tools/Kinematics/UrdfLoader.h"

#include <gtest/gtest.h>

namespace nao::kinematics::test
{
namespace
{
constexpr double step = 1e-6;

Eigen::VectorXd gravityTorques(const Model& model, Data& data, const Eigen::VectorXd& q,
                               const Eigen::Vector3d& g)
{
  Eigen::VectorXd tau(model.coordinateCount());
  computeGravityTorques(model, data, q, g, tau);
  return tau;
}

/// Checks G(q) = dV/dq with V from the links' own inertials and link poses (no body merging).
void expectGradientOfPotential(const Model& model, const Eigen::Vector3d& gravity, int trials, unsigned seed)
{
  Data data(model);
  Data scratch(model);
  std::mt19937 random(seed);
  for (int trial = 0; trial < trials; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    const Eigen::VectorXd tau = gravityTorques(model, data, q, gravity);
    for (int k = 0; k < model.coordinateCount(); ++k)
    {
      const auto energy = [&](const Eigen::VectorXd& x)
      { return Eigen::VectorXd::Constant(1, potentialEnergy(model, scratch, x, gravity)); };
      const double expected = centralDifference(energy, q, k, step)[0];
      EXPECT_NEAR(tau[k], expected, 1e-7)
          << model.name() << " coordinate " << model.coordinates()[static_cast<std::size_t>(k)].name;
    }
  }
}

TEST(GravityTorques, NaoEqualsGradientOfPotentialEnergy)
{
  expectGradientOfPotential(loadNao(), Eigen::Vector3d(0, 0, -9.81), 40, 1);
}

TEST(GravityTorques, NaoTiltedGravityEqualsGradientOfPotentialEnergy)
{
  expectGradientOfPotential(loadNao(), Eigen::Vector3d(1.5, -2.0, -9.5), 20, 2);
}

TEST(GravityTorques, MixedRobotEqualsGradientOfPotentialEnergy)
{
  // Prismatic, general axes, rotated placements, continuous joint, mimic with multiplier -2 and offset.
  expectGradientOfPotential(buildModel(mixedRobotUrdf()), Eigen::Vector3d(0.3, 0.5, -9.8), 40, 3);
}

TEST(GravityTorques, Ur3EqualsGradientOfDenavitHartenbergPotential)
{
  const Model model = buildModel(ur3Urdf());
  Data data(model);
  const Eigen::Vector3d gravity(0, 0, -9.81);
  // Potential from the DH table alone: V = -sum m_i g . (DH frame i * CoM_i).
  const auto energy = [&](const Eigen::VectorXd& theta)
  {
    double v = 0.0;
    for (int i = 0; i < 6; ++i)
      v -= ur3Masses()[static_cast<std::size_t>(i)] *
           gravity.dot(ur3DhFrame(theta, i + 1) * ur3CentersOfMass()[static_cast<std::size_t>(i)]);
    return Eigen::VectorXd::Constant(1, v);
  };
  std::mt19937 random(4);
  for (int trial = 0; trial < 50; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    const Eigen::VectorXd tau = gravityTorques(model, data, q, gravity);
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(tau[k], centralDifference(energy, q, k, step)[0], 1e-7) << "joint " << k + 1;
  }
}

TEST(GravityTorques, PlanarArmMatchesClosedForm)
{
  const Model model = buildModel(planarArmUrdf());
  Data data(model);
  const double g = 9.81;
  std::mt19937 random(5);
  for (int trial = 0; trial < 50; ++trial)
  {
    const Eigen::VectorXd theta = randomConfiguration(model, random);
    const Eigen::VectorXd tau = gravityTorques(model, data, theta, Eigen::Vector3d(0, 0, -g));
    // Positive rotation about y lowers the arm: link i points along (cos phi_i, 0, -sin phi_i), phi_i = sum
    // theta. V = sum m_i g z_i, so tau_j = dV/dtheta_j = -g sum_{i>=j} m_i (sum_{j<=k<i} l_k cos phi_k +
    // l_i/2 cos phi_i).
    std::array<double, 4> phi{};
    for (std::size_t i = 0; i < 4; ++i)
      phi[i] = (i == 0 ? 0.0 : phi[i - 1]) + theta[static_cast<Eigen::Index>(i)];
    for (std::size_t j = 0; j < 4; ++j)
    {
      double expected = 0.0;
      for (std::size_t i = j; i < 4; ++i)
      {
        double lever = planarLengths[i] / 2 * std::cos(phi[i]);
        for (std::size_t k = j; k < i; ++k)
          lever += planarLengths[k] * std::cos(phi[k]);
        expected -= g * planarMasses[i] * lever;
      }
      EXPECT_NEAR(tau[static_cast<Eigen::Index>(j)], expected, 1e-12) << "joint " << j;
    }
  }
}

TEST(GravityTorques, HorizontalArmNeedsTorqueThatLiftsIt)
{
  // Sign convention (Conventions.h): the motor holds the load. A horizontal planar arm falls towards positive
  // theta, so the holding torque is negative, and its size is the weight times the lever arms.
  const Model model = buildModel(planarArmUrdf());
  Data data(model);
  const Eigen::VectorXd tau =
      gravityTorques(model, data, Eigen::VectorXd::Zero(4), Eigen::Vector3d(0, 0, -9.81));
  const double lastLink = 9.81 * planarMasses[3] * planarLengths[3] / 2;
  EXPECT_NEAR(tau[3], -lastLink, 1e-12);
  EXPECT_LT(tau[0], tau[1]);
}

TEST(GravityTorques, NaoMimicHipCarriesTheSumOfBothLegs)
{
  const Model model = loadNao();
  Data data(model);
  std::mt19937 random(6);
  const Eigen::VectorXd q = randomConfiguration(model, random);
  const Eigen::VectorXd tau = gravityTorques(model, data, q, Eigen::Vector3d(0, 0, -9.81));
  // Each hip-yaw-pitch joint alone: the moment of its leg's weight about its own axis.
  double sum = 0.0;
  for (const char* joint : {"LHipYawPitch", "RHipYawPitch"})
  {
    const int body = model.findBodyOfJoint(joint);
    Eigen::Vector3d moment = Eigen::Vector3d::Zero();
    for (int i = 0; i < model.linkCount(); ++i)
      if (model.isAncestorOrSelf(body, model.link(i).body))
      {
        const Link& link = model.link(i);
        const Eigen::Vector3d c = data.bodyPoses[static_cast<std::size_t>(link.body)] *
                                  (link.placement * link.inertial.centerOfMass);
        moment += (c - data.bodyPoses[static_cast<std::size_t>(body)].translation)
                      .cross(link.inertial.mass * Eigen::Vector3d(0, 0, -9.81));
      }
    sum -= data.jointAxes[static_cast<std::size_t>(body)].dot(moment);
  }
  EXPECT_NEAR(tau[model.coordinateIndex("LHipYawPitch")], sum, 1e-12);
}
} // namespace
} // namespace nao::kinematics::test
