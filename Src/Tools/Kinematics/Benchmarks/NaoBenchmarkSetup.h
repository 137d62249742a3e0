#pragma once
// The NAO model, random standing configurations and their balanced sole wrenches, shared by the Eigen and KDL
// benchmarks so that both compute exactly the same cases.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Kinematics/UrdfLoader.h"

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace nao::kinematics::benchmark
{
inline std::string naoUrdfText()
{
  std::ifstream stream(std::string(NAO_CONFIG_DIR) + "/Robots/Default/nao-v6.urdf");
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

struct NaoCases
{
  static constexpr std::size_t count = 64; ///< cycled so that no single configuration is measured

  Model model = buildModel(naoUrdfText());
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
} // namespace nao::kinematics::benchmark
