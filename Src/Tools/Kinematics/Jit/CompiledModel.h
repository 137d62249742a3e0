#pragma once
// A Model compiled to machine code once at load (asmjit), and the preallocated workspace the code works in:
// the same Model/Data split as the Eigen path. The algorithms over both are in JitKinematics.h.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Jit/InstructionSet.h"
#include "Tools/Kinematics/Jit/KernelTypes.h"
#include "Tools/Kinematics/Jit/Layout.h"
#include "Tools/Kinematics/Model.h"

#include <array>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

namespace nao::kinematics::jit
{
struct CompileOptions
{
  bool allowAvx2 = true; ///< false forces the SSE4.1 code the NAO runs, e.g. to test it on a PC
  std::vector<int>
      contactLinks; ///< links that contact wrenches act on, in the order they are passed (the soles)
};

class CompiledModel
{
public:
  /// The kernels; each fills part of the workspace (see JitKinematics.h for which outputs are current).
  enum class KernelId : std::uint8_t
  {
    bodyPoses,                        ///< body poses and joint axes
    forwardKinematics,                ///< body poses, joint axes, link poses
    forwardKinematicsAndCenterOfMass, ///< the same and the centre of mass
    centerOfMass,                     ///< body poses, joint axes, first moments, centre of mass
    gravityTorques,                   ///< centerOfMass and G(q)
    staticTorques,                    ///< centerOfMass and G(q) - sum J_c^T W_c
    torquesFromStoredPoses,           ///< G(q) - sum J_c^T W_c from what centerOfMass stored
  };
  static constexpr std::size_t kernelCount = 7;

  /// Generates the code (milliseconds). Throws JitError if this CPU cannot run it or asmjit fails, ModelError
  /// for bad contact links. `model` must outlive this object.
  explicit CompiledModel(const Model& model, const CompileOptions& options = {});
  ~CompiledModel();
  CompiledModel(const CompiledModel&) = delete;
  CompiledModel& operator=(const CompiledModel&) = delete;

  const Model& model() const { return *model_; }
  const Layout& layout() const { return layout_; }
  InstructionSet instructionSet() const { return instructionSet_; }
  std::span<const int> contactLinks() const { return layout_.contactLinks; }
  Kernel kernel(KernelId id) const { return kernels_[static_cast<std::size_t>(id)]; }
  std::size_t codeBytes() const { return codeBytes_; } ///< machine code and constants of all kernels
  /// Outputs that do not depend on q, written into every new workspace instead of by the code.
  std::span<const ConstantOutput> constantOutputs() const { return constantOutputs_; }

private:
  struct Code;
  const Model* model_;
  Layout layout_;
  InstructionSet instructionSet_ = InstructionSet::sse41;
  std::unique_ptr<Code> code_;
  std::array<Kernel, kernelCount> kernels_{};
  std::size_t codeBytes_ = 0;
  std::vector<ConstantOutput> constantOutputs_;
};

/// What the generated code reads and writes for one CompiledModel, allocated once (32-byte aligned).
class Workspace
{
public:
  explicit Workspace(const CompiledModel& compiled);

  double* values() { return values_.get(); }
  const double* values() const { return values_.get(); }

  /// Eigen-side copy of the few poses balanceSoleWrenches() reads, so that the standing torques use exactly
  /// the Eigen definition of the balanced sole wrenches.
  Data& balanceScratch() { return balanceScratch_; }

private:
  struct Free
  {
    void operator()(double* pointer) const { std::free(pointer); }
  };
  std::unique_ptr<double[], Free> values_;
  Data balanceScratch_;
};
} // namespace nao::kinematics::jit
