#pragma once
// The robot description the modeling modules share: Config/Robots/<robot>/nao-v6.urdf (or Default's) with the
// robot's mass calibration, loaded with q in LoLA joint order (q[j] is Joint j; RHipYawPitch mimics
// LHipYawPitch).
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Infrastructure/Pose3.h"
#include "Tools/Kinematics/Jit/Evaluators.h"
#include "Tools/Kinematics/Model.h"
#include "Tools/Math/Pose.h"

namespace nao
{
/// Loads the model (outside the motion thread: module constructors). Throws StartupError naming the file.
kinematics::Model loadNaoModel();

/// The body each LoLA joint moves, for reading its pose from kinematics::Data.
JointArray<int> jointBodies(const kinematics::Model& model);

Pose3 toPose3(const math::Pose& pose);

/// Which code computes kinematics and torques: the JIT (machine code specialised to the model, the fastest,
/// x86-64 only), the Eigen reference, or automatic (the JIT where it runs, else Eigen).
enum class KinematicsBackendChoice : std::uint8_t
{
  automatic,
  eigen,
  jit,
};
inline constexpr std::array<std::string_view, 3> kinematicsBackendChoiceNames = {"automatic", "eigen", "jit"};
inline std::span<const std::string_view> enumNames(KinematicsBackendChoice)
{
  return kinematicsBackendChoiceNames;
}

/// Options for an evaluator of this backend; `eigen` never compiles anything.
kinematics::EvaluatorOptions evaluatorOptions(KinematicsBackendChoice choice, bool allowAvx2);
/// Options for the evaluator a module builds beside its Eigen one so that the backend can be switched live
/// without allocating: the chosen backend, or `automatic` when Eigen is chosen now (the JIT is then ready if
/// switched to).
kinematics::EvaluatorOptions switchableEvaluatorOptions(KinematicsBackendChoice choice, bool allowAvx2);
} // namespace nao
