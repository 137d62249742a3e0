#pragma once
// The robot's kinematic model and its self-collision shapes (selfCollision.toml), posed by measured joint angles:
// what the simulator's evaluations judge a run by (smallest pair distance, link poses, centre of mass).
#include "Framework/ConfigFiles.h"
#include "Framework/RobotDescription.h"
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Collision/BodyDistances.h"
#include "Tools/Collision/BodyOnModel.h"
#include "Tools/Kinematics/Data.h"

#include <string>
#include <vector>

namespace nao
{
struct PosedBody
{
  explicit PosedBody(const ConfigFiles& files);

  /// The links' poses and every shape pair's distance at `angles` (rad, measured); with `centerOfMass` also
  /// data.centerOfMass.
  void pose(const JointArray<float>& angles, bool centerOfMass = false);
  /// The pair with the smallest signed distance at the last pose, -1 without pairs.
  int closestPair() const;
  /// m, that pair's signed distance (< 0: inside the body).
  double pairDistance(int pair) const;
  /// "lHand-torso".
  std::string pairName(int pair) const;
  const math::Pose& linkPose(int link) const { return data.linkPoses[static_cast<std::size_t>(link)]; }

  RobotDescription robot;
  kinematics::Data data;
  collision::BodyOnModel body;
  collision::BodyData distances;

private:
  std::vector<math::Pose> poses_;
  Eigen::VectorXd q_;
};
} // namespace nao
