#include "Tools/Kinematics/Evaluators.h"

#if NAO_KINEMATICS_HAS_JIT
#include "Tools/Kinematics/Jit/CompiledModel.h"
#include "Tools/Kinematics/Jit/JitError.h"
#include "Tools/Kinematics/Jit/JitKinematics.h"
#endif

#include <stdexcept>

namespace nao::kinematics
{
#if !NAO_KINEMATICS_HAS_JIT
namespace jit
{
// Complete types for the unique_ptr members; never instantiated without the JIT.
class CompiledModel
{
};
class Workspace
{
};
} // namespace jit
#endif

namespace
{
/// The compiled model for `options`, or nullptr for Eigen. Throws if the JIT is demanded but impossible.
std::unique_ptr<jit::CompiledModel> compileIfWanted(const Model& model, const EvaluatorOptions& options,
                                                    const std::vector<int>& contactLinks)
{
  if (options.backend == KinematicsBackend::eigen) return nullptr;
#if NAO_KINEMATICS_HAS_JIT
  if (options.backend == KinematicsBackend::jit)
    return std::make_unique<jit::CompiledModel>(model, jit::CompileOptions{options.allowAvx2, contactLinks});
  try
  {
    // automatic: Eigen if this CPU or asmjit cannot do it (backendName() tells which one runs).
    return std::make_unique<jit::CompiledModel>(model, jit::CompileOptions{options.allowAvx2, contactLinks});
  }
  catch (const jit::JitError&)
  {
    return nullptr;
  }
#else
  (void)model;
  (void)contactLinks;
  if (options.backend == KinematicsBackend::jit)
    throw std::runtime_error("this build has no kinematics JIT (x86-64 with asmjit only)");
  return nullptr;
#endif
}

std::string_view nameOf(const jit::CompiledModel* compiled)
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled)
    return compiled->instructionSet() == jit::InstructionSet::avx2Fma ? "JIT AVX2+FMA" : "JIT SSE4.1";
#else
  (void)compiled;
#endif
  return "Eigen";
}

std::unique_ptr<jit::Workspace> workspaceFor(const jit::CompiledModel* compiled)
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled) return std::make_unique<jit::Workspace>(*compiled);
#else
  (void)compiled;
#endif
  return nullptr;
}
} // namespace

bool jitAvailable()
{
#if NAO_KINEMATICS_HAS_JIT
  return jit::hostInstructionSet().has_value();
#else
  return false;
#endif
}

KinematicsEvaluator::KinematicsEvaluator(const Model& model, const EvaluatorOptions& options)
    : model_(model), data_(model), compiled_(compileIfWanted(model, options, {})),
      workspace_(workspaceFor(compiled_.get()))
{
}

KinematicsEvaluator::~KinematicsEvaluator() = default;

std::string_view KinematicsEvaluator::backendName() const
{
  return nameOf(compiled_.get());
}

void KinematicsEvaluator::update(const JointVector& q)
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_) return jit::forwardKinematicsAndCenterOfMass(*compiled_, *workspace_, q);
#endif
  forwardKinematics(model_, data_, q);
  updateCenterOfMass(model_, data_);
}

math::Pose KinematicsEvaluator::linkPose(int link) const
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_) return jit::linkPose(*compiled_, *workspace_, link);
#endif
  return data_.linkPoses[static_cast<std::size_t>(link)];
}

math::Pose KinematicsEvaluator::bodyPose(int body) const
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_) return jit::bodyPose(*compiled_, *workspace_, body);
#endif
  return data_.bodyPoses[static_cast<std::size_t>(body)];
}

Eigen::Vector3d KinematicsEvaluator::jointAxis(int body) const
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_) return jit::jointAxis(*compiled_, *workspace_, body);
#endif
  return data_.jointAxes[static_cast<std::size_t>(body)];
}

Eigen::Vector3d KinematicsEvaluator::centerOfMass() const
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_) return jit::centerOfMass(*compiled_, *workspace_);
#endif
  return data_.centerOfMass;
}

void KinematicsEvaluator::computePointJacobian(int link, const Eigen::Vector3d& pointInLink,
                                               Eigen::Ref<Jacobian> jacobian) const
{
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_) return jit::computePointJacobian(*compiled_, *workspace_, link, pointInLink, jacobian);
#endif
  nao::kinematics::computePointJacobian(model_, data_, link, pointInLink, jacobian);
}

StaticTorqueEvaluator::StaticTorqueEvaluator(const Model& model, const FeetSupport& feet,
                                             const EvaluatorOptions& options)
    : model_(model), feet_(feet), data_(model),
      compiled_(compileIfWanted(model, options, {feet.leftSole, feet.rightSole})),
      workspace_(workspaceFor(compiled_.get()))
{
}

StaticTorqueEvaluator::~StaticTorqueEvaluator() = default;

std::string_view StaticTorqueEvaluator::backendName() const
{
  return nameOf(compiled_.get());
}

void StaticTorqueEvaluator::gravityTorques(const JointVector& q, const Eigen::Vector3d& gravity,
                                           TorqueVector tau)
{
  lastByJit_ = compiled_ != nullptr;
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_) return jit::computeGravityTorques(*compiled_, *workspace_, q, gravity, tau);
#endif
  computeGravityTorques(model_, data_, q, gravity, tau);
}

void StaticTorqueEvaluator::staticTorques(const JointVector& q, const Eigen::Vector3d& gravity,
                                          const SoleWrenches& wrenches, TorqueVector tau)
{
  // The generated code knows only the soles: wrenches on other links take the Eigen path.
  lastByJit_ = compiled_ && wrenches[0].link == feet_.leftSole && wrenches[1].link == feet_.rightSole;
#if NAO_KINEMATICS_HAS_JIT
  if (lastByJit_) return jit::computeStaticTorques(*compiled_, *workspace_, q, gravity, wrenches, tau);
#endif
  computeStaticTorques(model_, data_, q, gravity, wrenches, tau);
}

void StaticTorqueEvaluator::standingTorques(const JointVector& q, const Eigen::Vector3d& gravity,
                                            const SoleLoads& loads, TorqueVector tau, SoleWrenches* wrenches)
{
  lastByJit_ = compiled_ != nullptr;
#if NAO_KINEMATICS_HAS_JIT
  if (compiled_)
    return jit::computeStandingTorques(*compiled_, *workspace_, q, gravity, feet_, loads, tau, wrenches);
#endif
  computeStandingTorques(model_, data_, q, gravity, feet_, loads, tau, wrenches);
}

Eigen::Vector3d StaticTorqueEvaluator::centerOfMass() const
{
#if NAO_KINEMATICS_HAS_JIT
  if (lastByJit_) return jit::centerOfMass(*compiled_, *workspace_);
#endif
  return data_.centerOfMass;
}
} // namespace nao::kinematics
