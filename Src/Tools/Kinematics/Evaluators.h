#pragma once
// The front door for modules: kinematics and static torques that run the generated code where it can (x86-64
// with SSE4.1, JIT enabled) and the Eigen reference otherwise (another CPU, JIT switched off in config). Both
// backends give the same results to rounding; nothing allocates after construction.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/Model.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Streams/Enum.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace nao::kinematics
{
namespace jit
{
class CompiledModel;
class Workspace;
} // namespace jit

NAO_ENUM(KinematicsBackend, std::uint8_t,
         automatic, ///< the JIT if this build, the CPU and asmjit manage, else Eigen
         eigen,     ///< always the Eigen reference
         jit,       ///< the JIT or an exception (jit::JitError) at construction
);

struct EvaluatorOptions
{
  KinematicsBackend backend = KinematicsBackend::automatic;
  bool allowAvx2 = true; ///< false forces the JIT's SSE4.1 code (what the NAO V6 runs)
};

/// True if this build contains the JIT and this CPU can run it.
bool jitAvailable();

/// Link poses, centre of mass and point Jacobians of one configuration at a time.
class KinematicsEvaluator
{
public:
  /// `model` must outlive the evaluator.
  explicit KinematicsEvaluator(const Model& model, const EvaluatorOptions& options = {});
  ~KinematicsEvaluator();

  bool usesJit() const { return compiled_ != nullptr; }
  std::string_view backendName() const; ///< "Eigen", "JIT SSE4.1" or "JIT AVX2+FMA"

  /// Every link's pose and the centre of mass for q.
  void update(const JointVector& q);

  math::Pose linkPose(int link) const;
  math::Pose bodyPose(int body) const;
  Eigen::Vector3d jointAxis(int body) const;
  Eigen::Vector3d centerOfMass() const; ///< m
  void computePointJacobian(int link, const Eigen::Vector3d& pointInLink,
                            Eigen::Ref<Jacobian> jacobian) const;

private:
  const Model& model_;
  Data data_;
  std::unique_ptr<jit::CompiledModel> compiled_;
  std::unique_ptr<jit::Workspace> workspace_;
};

/// Joint torques that hold a posture (Conventions.h): fixed-base gravity, or a robot standing on its two
/// soles.
class StaticTorqueEvaluator
{
public:
  /// `model` must outlive the evaluator; the JIT is specialised to the two sole links of `feet`.
  StaticTorqueEvaluator(const Model& model, const FeetSupport& feet, const EvaluatorOptions& options = {});
  ~StaticTorqueEvaluator();

  bool usesJit() const { return compiled_ != nullptr; }
  std::string_view backendName() const;

  /// G(q) with a fixed base.
  void gravityTorques(const JointVector& q, const Eigen::Vector3d& gravity, TorqueVector tau);
  /// tau = G(q) - sum J^T W for the two sole wrenches (left, right). Wrenches on other links use Eigen.
  void staticTorques(const JointVector& q, const Eigen::Vector3d& gravity, const SoleWrenches& wrenches,
                     TorqueVector tau);
  /// computeStandingTorques: sole wrenches balanced from the loads, then the static torques.
  void standingTorques(const JointVector& q, const Eigen::Vector3d& gravity, const SoleLoads& loads,
                       TorqueVector tau, SoleWrenches* wrenches = nullptr);

  Eigen::Vector3d centerOfMass() const; ///< m, of the last evaluation

private:
  const Model& model_;
  FeetSupport feet_;
  Data data_;
  std::unique_ptr<jit::CompiledModel> compiled_;
  std::unique_ptr<jit::Workspace> workspace_;
  bool lastByJit_ = false; ///< which backend computed the last result
};
} // namespace nao::kinematics
