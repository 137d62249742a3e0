#pragma once
// The NAO model, random standing configurations and their balanced sole wrenches, and ten points on the body, shared
// by the Eigen, JIT and KDL benchmarks so that all compute exactly the same cases.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Testing/NaoUrdf.h"

#include <array>
#include <random>
#include <string>
#include <vector>

namespace nao::kinematics::benchmark
{
struct NaoCases
{
  static constexpr std::size_t count = 64; ///< cycled so that no single configuration is measured

  Model model = buildModel(nao::test::naoUrdfText());
  FeetSupport feet = FeetSupport::fromLinks(model);
  Eigen::Vector3d gravity{0.4, -0.3, -9.79}; ///< a slightly tilted torso
  std::vector<Eigen::VectorXd> configurations;
  std::vector<SoleWrenches> wrenches;

  NaoCases()
  {
    Data data(model);
    std::mt19937 random(2024);
    std::uniform_real_distribution<double> share(0.2, 0.8), cop(-0.02, 0.02);
    Eigen::VectorXd tau(model.coordinateCount());
    for (std::size_t i = 0; i < count; ++i)
    {
      Eigen::VectorXd q(model.coordinateCount());
      for (int k = 0; k < q.size(); ++k)
      {
        const JointLimits& limits = model.body(model.coordinates()[static_cast<std::size_t>(k)].body).limits;
        q[k] = std::uniform_real_distribution<double>(limits.lower, limits.upper)(random);
      }
      const double left = share(random);
      const SoleLoads loads{SoleLoad{left, {cop(random), cop(random)}},
                            SoleLoad{1.0 - left, {cop(random), cop(random)}}};
      SoleWrenches balanced;
      computeStandingTorques(model, data, q, gravity, feet, loads, tau, &balanced);
      configurations.push_back(q);
      wrenches.push_back(balanced);
    }
  }
};

inline const NaoCases& naoCases()
{
  static const NaoCases cases;
  return cases;
}

/// Ten points spread over the body, as a self-collision or stiffness query would ask for: a link and a point in its
/// frame (m).
struct BodyPoint
{
  const char* link;
  Eigen::Vector3d point;
};
inline const std::array<BodyPoint, 10>& tenPoints()
{
  static const std::array<BodyPoint, 10> points{
      BodyPoint{"l_sole", {0.02, 0.0, 0.0}}, {"r_sole", {0.02, 0.0, 0.0}},
      {"l_gripper", {0.0, 0.0, 0.0}},        {"r_gripper", {0.0, 0.0, 0.0}},
      {"Head", {0.0, 0.0, 0.055}},           {"LTibia", {0.0, 0.0, -0.05}},
      {"RTibia", {0.0, 0.0, -0.05}},         {"LForeArm", {0.03, 0.0, 0.0}},
      {"RForeArm", {0.03, 0.0, 0.0}},        {"torso", {0.0, 0.0, 0.02}}};
  return points;
}
} // namespace nao::kinematics::benchmark
