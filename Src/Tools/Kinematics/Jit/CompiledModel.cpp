#include "Tools/Kinematics/Jit/CompiledModel.h"

#include "Tools/Kinematics/Jit/JitError.h"
#include "Tools/Kinematics/Jit/KernelGenerator.h"
#include "Tools/Kinematics/ModelError.h"

#include <asmjit/core.h>
#include <cstring>
#include <new>
#include <string>

namespace nao::kinematics::jit
{
struct CompiledModel::Code
{
  asmjit::JitRuntime runtime; ///< owns the executable memory of the kernels
};

namespace
{
KernelSpec specOf(CompiledModel::KernelId id, bool hasContacts)
{
  using Id = CompiledModel::KernelId;
  KernelSpec spec;
  spec.linkPoses = id == Id::forwardKinematics || id == Id::forwardKinematicsAndCenterOfMass;
  spec.centerOfMass = id == Id::forwardKinematicsAndCenterOfMass || id == Id::centerOfMass ||
                      id == Id::gravityTorques || id == Id::staticTorques;
  spec.gravityTorques =
      id == Id::gravityTorques || id == Id::staticTorques || id == Id::torquesFromStoredPoses;
  spec.contactTorques = hasContacts && (id == Id::staticTorques || id == Id::torquesFromStoredPoses);
  spec.forwardPass = id != Id::torquesFromStoredPoses;
  return spec;
}

void storeVector(double* destination, const Eigen::Vector3d& value)
{
  destination[0] = value.x();
  destination[1] = value.y();
  destination[2] = value.z();
  destination[3] = 0.0;
}
} // namespace

CompiledModel::CompiledModel(const Model& model, const CompileOptions& options)
    : model_(&model), layout_(model, options.contactLinks)
{
  for (const int link : options.contactLinks)
    if (link < 0 || link >= model.linkCount())
      throw ModelError("contact link index " + std::to_string(link) + " is not a link of model '" +
                       std::string(model.name()) + "'");
  const std::optional<InstructionSet> instructionSet = hostInstructionSet(options.allowAvx2);
  if (!instructionSet) throw JitError("this CPU cannot run the generated kinematics code: it needs SSE4.1");
  instructionSet_ = *instructionSet;

  code_ = std::make_unique<Code>();
  for (std::size_t k = 0; k < kernelCount; ++k)
  {
    asmjit::CodeHolder holder;
    holder.init(code_->runtime.environment());
    generateKernel(holder, model, layout_, specOf(static_cast<KernelId>(k), !options.contactLinks.empty()),
                   instructionSet_, constantOutputs_);
    codeBytes_ += holder.codeSize();
    const asmjit::Error error = code_->runtime.add(&kernels_[k], &holder);
    if (error != asmjit::kErrorOk)
      throw JitError(std::string("asmjit could not place the generated code in executable memory: ") +
                     asmjit::DebugUtils::errorAsString(error));
  }
}

CompiledModel::~CompiledModel() = default;

Workspace::Workspace(const CompiledModel& compiled) : balanceScratch_(compiled.model())
{
  const Layout& layout = compiled.layout();
  const std::size_t bytes = (layout.size * sizeof(double) + 63) / 64 * 64;
  values_.reset(static_cast<double*>(std::aligned_alloc(64, bytes)));
  if (!values_) throw std::bad_alloc();
  std::memset(values_.get(), 0, bytes);

  // What the code never writes: outputs that do not depend on q, the base's pose (identity) and first moment,
  // and the links fixed to the base.
  for (const ConstantOutput& constant : compiled.constantOutputs())
    storeVector(values_.get() + constant.offset, constant.value);
  const Model& model = compiled.model();
  double* values = values_.get();
  const std::size_t base = layout.bodyPose[0];
  for (int k = 0; k < 3; ++k)
    storeVector(values + base + static_cast<std::size_t>(k) * vectorStride, Eigen::Vector3d::Unit(k));
  const Inertial& baseInertial = model.body(0).inertial;
  storeVector(values + layout.firstMoment[0], baseInertial.mass * baseInertial.centerOfMass);
  for (int l = 0; l < model.linkCount(); ++l)
  {
    const Link& link = model.link(l);
    if (link.body != 0 || link.placementIsIdentity) continue;
    const std::size_t index = static_cast<std::size_t>(l);
    storeVector(values + layout.linkTranslation[index], link.placement.translation);
    if (!link.placementRotationIsIdentity)
      for (int k = 0; k < 3; ++k)
        storeVector(values + layout.linkRotationColumns[index] + static_cast<std::size_t>(k) * vectorStride,
                    link.placement.rotation.col(k));
  }
}
} // namespace nao::kinematics::jit
