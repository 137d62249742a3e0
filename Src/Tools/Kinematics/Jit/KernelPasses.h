#pragma once
// The two passes of a generated kernel over one shared context (internal to KernelGenerator.cpp).
#include "Tools/Kinematics/Jit/KernelTypes.h"
#include "Tools/Kinematics/Jit/Layout.h"
#include "Tools/Kinematics/Jit/VectorEmitter.h"
#include "Tools/Kinematics/Model.h"

#include <vector>

namespace nao::kinematics::jit
{
/// What both passes need while one kernel is generated.
struct KernelContext
{
  KernelContext(x86::Compiler& compiler, InstructionSet instructionSet, const Model& model,
                const Layout& layout, const KernelSpec& spec, std::vector<ConstantOutput>& constantOutputs)
      : cc(compiler), v(compiler, instructionSet), model(model), layout(layout), spec(spec),
        constantOutputs(constantOutputs)
  {
  }

  x86::Mem at(std::size_t offset) const { return x86::ptr(workspace, static_cast<std::int32_t>(offset * 8)); }
  x86::Mem vectorAt(std::size_t offset, std::size_t index) const { return at(offset + index * vectorStride); }

  x86::Compiler& cc;
  VectorEmitter v;
  const Model& model;
  const Layout& layout;
  const KernelSpec& spec;
  std::vector<ConstantOutput>& constantOutputs;
  x86::Gp q, workspace, tau; ///< the kernel's arguments
};

/// From the base outwards: body poses, joint axes, first moments (for the backward pass) and link poses.
void emitForwardPass(KernelContext& context);

/// From the leaves inwards: subtree first moments, the centre of mass and the joint torques.
void emitBackwardPass(KernelContext& context);
} // namespace nao::kinematics::jit
