#pragma once
// Emits straight-line machine code for one model: no loops, no branches, no look-ups. Joint axes, placements,
// masses and centres of mass are constants in the code; axis-aligned joints update only the two rotation
// columns that turn, identity placement rotations cost nothing, and the sines/cosines come precomputed
// (SinCos.h).
#include "Tools/Kinematics/Jit/InstructionSet.h"
#include "Tools/Kinematics/Jit/KernelTypes.h"
#include "Tools/Kinematics/Jit/Layout.h"
#include "Tools/Kinematics/Model.h"

#include <asmjit/core.h>

namespace nao::kinematics::jit
{
/// Adds the kernel's code to `code` (initialised for the host environment). Throws JitError on asmjit errors.
/// Outputs that turn out constant are added to constantOutputs (once) instead of being written by the code.
/// `listing`, if given, receives the assembly (for inspecting what the register allocator made of it).
void generateKernel(asmjit::CodeHolder& code, const Model& model, const Layout& layout,
                    const KernelSpec& spec, InstructionSet instructionSet,
                    std::vector<ConstantOutput>& constantOutputs, asmjit::Logger* listing = nullptr);
} // namespace nao::kinematics::jit
