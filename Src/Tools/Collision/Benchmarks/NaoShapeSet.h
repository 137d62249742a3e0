#pragma once
// A NAO-like self-collision set for the benchmarks: 15 shapes on the NAO's links and the 40 pairs a
// protected-arms configuration checks, with link poses of random joint configurations in which no pair
// penetrates (a robot whose arms are kept out of its body). Shape sizes are rough, not a calibrated model.
#include "Tools/Collision/BodyDistances.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Testing/NaoUrdf.h"

#include <random>
#include <string>
#include <vector>

namespace nao::collision::benchmark
{
struct NaoShapeSet
{
  static constexpr std::size_t configurationCount =
      64; ///< cycled so that no single configuration is measured

  kinematics::Model robot = kinematics::buildModel(nao::test::naoUrdfText());
  BodyModel body = makeBody(robot);
  std::vector<std::vector<math::Pose>> linkPoses; ///< per configuration, every link of `robot`

  NaoShapeSet()
  {
    kinematics::Data data(robot);
    BodyData distances(body);
    std::mt19937 random(2024);
    while (linkPoses.size() < configurationCount)
    {
      Eigen::VectorXd q(robot.coordinateCount());
      for (int k = 0; k < q.size(); ++k)
      {
        const auto& limits = robot.body(robot.coordinates()[static_cast<std::size_t>(k)].body).limits;
        q[k] = std::uniform_real_distribution<double>(limits.lower, limits.upper)(random);
      }
      kinematics::forwardKinematics(robot, data, q);
      computeBodyDistances(body, distances, data.linkPoses);
      if (distances.pairDistances[static_cast<std::size_t>(closestPair(distances))].distance > 0.0)
        linkPoses.push_back(data.linkPoses);
    }
  }

  static BodyModel makeBody(const kinematics::Model& robot)
  {
    std::vector<LinkShape> shapes;
    const auto add = [&](const char* name, const char* link, ShapeKind kind, Eigen::Vector3d start,
                         Eigen::Vector3d end, double radius)
    {
      shapes.push_back({name, robot.linkIndex(link), kind, start, end, radius});
      return static_cast<int>(shapes.size()) - 1;
    };
    const auto sphere = [&](const char* name, const char* link, Eigen::Vector3d center, double radius)
    { return add(name, link, ShapeKind::sphere, center, center, radius); };
    const auto capsule =
        [&](const char* name, const char* link, Eigen::Vector3d start, Eigen::Vector3d end, double radius)
    { return add(name, link, ShapeKind::capsule, start, end, radius); };
    const int torsoUpper = sphere("torsoUpper", "torso", {-0.01, 0.0, 0.06}, 0.06);
    const int torsoLower = sphere("torsoLower", "torso", {-0.01, 0.0, -0.02}, 0.055);
    const int head = sphere("head", "Head", {0.0, 0.0, 0.055}, 0.065);
    const int hip[2] = {sphere("lHip", "LThigh", {0.0, 0.0, 0.0}, 0.045),
                        sphere("rHip", "RThigh", {0.0, 0.0, 0.0}, 0.045)};
    const int thigh[2] = {capsule("lThigh", "LThigh", {0.0, 0.0, -0.02}, {0.0, 0.0, -0.09}, 0.04),
                          capsule("rThigh", "RThigh", {0.0, 0.0, -0.02}, {0.0, 0.0, -0.09}, 0.04)};
    const int tibia[2] = {capsule("lTibia", "LTibia", {0.0, 0.0, -0.01}, {0.0, 0.0, -0.09}, 0.035),
                          capsule("rTibia", "RTibia", {0.0, 0.0, -0.01}, {0.0, 0.0, -0.09}, 0.035)};
    const int bicep[2] = {capsule("lBicep", "LBicep", {0.02, 0.0, 0.0}, {0.09, 0.0, 0.0}, 0.03),
                          capsule("rBicep", "RBicep", {0.02, 0.0, 0.0}, {0.09, 0.0, 0.0}, 0.03)};
    const int foreArm[2] = {capsule("lForeArm", "LForeArm", {0.0, 0.0, 0.0}, {0.05, 0.0, 0.0}, 0.028),
                            capsule("rForeArm", "RForeArm", {0.0, 0.0, 0.0}, {0.05, 0.0, 0.0}, 0.028)};
    const int hand[2] = {sphere("lHand", "l_gripper", {-0.01, 0.0, 0.0}, 0.03),
                         sphere("rHand", "r_gripper", {-0.01, 0.0, 0.0}, 0.03)};
    std::vector<ShapePair> pairs;
    for (int side = 0; side < 2; ++side)
    {
      for (const int arm : {foreArm[side], hand[side]})
      {
        for (const int other :
             {torsoUpper, torsoLower, head, thigh[0], thigh[1], tibia[0], tibia[1], hip[side]})
          pairs.push_back({arm, other});
      }
      pairs.push_back({bicep[side], head});
      pairs.push_back({bicep[side], torsoLower});
    }
    for (const int left : {foreArm[0], hand[0]})
      for (const int right : {foreArm[1], hand[1]})
        pairs.push_back({left, right});
    return BodyModel(robot.linkCount(), std::move(shapes), std::move(pairs)); // 2 * (16 + 2) + 4 = 40 pairs
  }
};

inline const NaoShapeSet& naoShapeSet()
{
  static const NaoShapeSet set;
  return set;
}
} // namespace nao::collision::benchmark
