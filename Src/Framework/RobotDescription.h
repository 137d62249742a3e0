#pragma once
// The robot's kinematic model: Config/Robots/<robot>/nao-v6.urdf (or Default's) with the robot's mass
// calibration, q in LoLA joint order (q[j] is Joint j; RHipYawPitch mimics LHipYawPitch). Modules that need
// it declare Loads<RobotDescription>: the framework loads it once per robot process and every such module
// reads the same immutable model, keeping its own kinematics::Data or evaluator (Pinocchio's Model/Data
// split).
#include "Framework/ConfigFiles.h"
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Kinematics/Model.h"

namespace nao
{
struct RobotDescription
{
  /// `model` must have every LoLA joint (loaded with q in LoLA order).
  explicit RobotDescription(kinematics::Model model);
  /// Throws naming the file (outside the motion thread: module creation).
  static RobotDescription load(const ConfigFiles& files);

  /// The joint's limits from the URDF (rad, rad/s, N·m).
  const kinematics::JointLimits& limits(std::size_t joint) const
  {
    return model.body(jointBodies[joint]).limits;
  }

  kinematics::Model model;
  JointArray<int> jointBodies{}; ///< the body each LoLA joint moves, for its pose and limits
};
} // namespace nao
