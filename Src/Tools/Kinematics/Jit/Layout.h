#pragma once
// Where the generated code reads and writes: offsets (in doubles) into one workspace buffer. Every 3-vector
// takes four doubles (x, y, z, 0) at a 32-byte boundary, so that one AVX register or two SSE registers move
// it, and the fourth lane stays zero. All positions are fixed when the model is compiled; the code has them
// as displacements.
#include "Tools/Kinematics/Model.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nao::kinematics::jit
{
inline constexpr std::size_t vectorStride = 4; ///< doubles per stored 3-vector
inline constexpr std::size_t poseStride = 16;  ///< doubles per pose: rotation columns 0, 1, 2, translation

struct Layout
{
  /// Throws ModelError for more than 64 contact links.
  Layout(const Model& model, std::span<const int> contactLinks);

  /// The distinct revolute joint values, angle j = angleMultipliers[j] * q[angleCoordinates[j]] +
  /// angleOffsets[j] (rad). Mimics with the same value (Body::sameAngleAs) share one, so each sine and cosine
  /// is computed once. Padded to angleCapacity with angle 0.
  std::vector<int> angleCoordinates;
  std::vector<double> angleMultipliers, angleOffsets;
  std::size_t angleCount = 0;
  std::size_t angleCapacity = 0;  ///< angleCount rounded up to the sine/cosine batch
  std::vector<int> bodyAngleSlot; ///< per body, index of its angle; -1 unless revolute
  std::size_t sines = 0, cosines = 0;

  /// Per-evaluation inputs, each 3-vector written as two 16-byte halves (x, y) and (z, 0) by the caller:
  /// gravity (m/s^2), then per contact link its point (m), force (N) and moment about the point (N*m).
  std::size_t inputs = 0;
  static constexpr std::size_t inputsPerContact = 3;
  std::size_t contactInput(std::size_t contact) const
  {
    return inputs + (1 + inputsPerContact * contact) * vectorStride;
  }

  /// Gravity g and its cycled components (g.yzx, g.zxy) for cross products, computed by the kernel.
  std::size_t gravity = 0;

  std::vector<int> contactLinks;
  /// Each distinct set (bit mask over contactLinks) of contacts that act below some joint. Per set, computed
  /// by the kernel: total force (N), its cycled components, total moment about the base origin (N*m).
  std::vector<std::uint64_t> contactSets;
  std::size_t contactSetData = 0;
  static constexpr std::size_t contactSetStride = 4 * vectorStride;
  /// Per body: index into contactSets, -1 if no contact acts below its joint.
  std::vector<int> bodyContactSet;

  std::size_t centerOfMass = 0;         ///< m
  std::vector<std::size_t> bodyPose;    ///< per body, poseStride doubles
  std::vector<std::size_t> jointAxis;   ///< per body; an axis-aligned joint's axis is a rotation column
  std::vector<std::size_t> firstMoment; ///< per body: mass * centre of mass in the base frame (kg*m)
  std::vector<std::size_t> linkRotationColumns; ///< per link, 3 columns; a body's when the placement has none
  std::vector<std::size_t> linkTranslation;     ///< per link; the body's when the placement is the identity
  std::size_t zero = 0;                         ///< a zero vector: the base's joint axis

  /// One joint on the way from a body to the base, as the point Jacobian needs it.
  struct JacobianStep
  {
    std::uint32_t axis;   ///< offset of the joint axis
    std::uint32_t origin; ///< offset of the joint origin (the body's translation)
    std::uint32_t column; ///< the coordinate
    bool prismatic;
    bool firstInColumn; ///< no earlier step (nearer the body) has the same coordinate: assign, not add
    double multiplier;
  };
  std::vector<JacobianStep> jacobianSteps;
  std::vector<std::uint32_t>
      jacobianPathBegin; ///< per body, into jacobianSteps; body b ends where b + 1 begins

  std::size_t size = 0; ///< doubles in the workspace

  std::size_t contactSetOffset(int set) const
  {
    return contactSetData + static_cast<std::size_t>(set) * contactSetStride;
  }

private:
  /// One sin/cos slot per independent revolute angle (mimic joints share their source's).
  void assignAngleSlots(const Model& model);
  /// Per body, the set of contact links it is an ancestor of (its bit mask, shared).
  void assignContactSets(const Model& model);
  /// The offset of every block in the data area, each at a multiple of four doubles.
  void allocateBlocks(const Model& model);
  /// Per body, the joints on its path to the root as Jacobian columns.
  void buildJacobianPaths(const Model& model);
};
} // namespace nao::kinematics::jit
