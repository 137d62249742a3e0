#pragma once
// The robot description the modeling modules share: Config/Robots/<robot>/nao-v6.urdf (or Default's) with the
// robot's mass calibration, loaded with q in LoLA joint order (q[j] is Joint j; RHipYawPitch mimics
// LHipYawPitch).
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Infrastructure/Pose3.h"
#include "Tools/Kinematics/Model.h"
#include "Tools/Math/Pose.h"

namespace nao
{
/// Loads the model (outside the motion thread: module constructors). Throws StartupError naming the file.
kinematics::Model loadNaoModel();

/// The body each LoLA joint moves, for reading its pose from kinematics::Data.
JointArray<int> jointBodies(const kinematics::Model& model);

Pose3 toPose3(const math::Pose& pose);
} // namespace nao
