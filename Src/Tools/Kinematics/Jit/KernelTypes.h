#pragma once
// The signature and the options of a generated kernel, without asmjit.
#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace nao::kinematics::jit
{
/// A generated function. q: one entry per coordinate; workspace: laid out by Layout, with the sines, cosines,
/// gravity and contact data of this evaluation filled in; tau: one entry per coordinate (written by torque
/// kernels).
using Kernel = void (*)(const double* q, double* workspace, double* tau);

/// What a kernel computes. Every kernel with a forward pass stores the body poses and joint axes.
struct KernelSpec
{
  bool forwardPass = true;     ///< body poses from q; false: use the poses and first moments already stored
  bool linkPoses = false;      ///< the pose of every link not rigidly equal to its body
  bool centerOfMass = false;   ///< per-body first moments and the whole-body centre of mass
  bool gravityTorques = false; ///< G(q) with a fixed base into tau
  bool contactTorques = false; ///< tau -= J_c^T W_c for the compiled contacts (tau is written either way)
};

/// An output that does not depend on q (e.g. the axis column of a joint on the base): the generator leaves it
/// out of the code and the workspace gets it once when it is created.
struct ConstantOutput
{
  std::size_t offset; ///< doubles into the workspace
  Eigen::Vector3d value;
};
} // namespace nao::kinematics::jit
