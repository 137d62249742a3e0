#include "Tools/Kinematics/Jit/KernelPasses.h"

#include <array>
#include <optional>

namespace nao::kinematics::jit
{
namespace
{
/// Pose operands: registers when just computed, otherwise memory (stored poses or constants).
struct PoseOperands
{
  std::array<Vec3Operand, 3> columns;
  Vec3Operand translation;
};

int axisColumn(AxisKind kind)
{
  return kind == AxisKind::x ? 0 : kind == AxisKind::y ? 1 : 2;
}

class ForwardPass
{
public:
  explicit ForwardPass(KernelContext& kernel)
      : context_(kernel), v_(kernel.v), model_(kernel.model), layout_(kernel.layout), spec_(kernel.spec)
  {
  }

  void emit()
  {
    const bool firstMoments = spec_.centerOfMass || spec_.gravityTorques || spec_.contactTorques;
    for (int i = 1; i < model_.bodyCount(); ++i)
      emitBody(i, firstMoments);
  }

private:
  /// Stores a result; one known when generating goes to the workspace once, at its creation, instead.
  void output(std::size_t offset, const Vec3Operand& value)
  {
    if (!value.known) return v_.store(context_.at(offset), value);
    for (const ConstantOutput& existing : context_.constantOutputs)
      if (existing.offset == offset) return;
    context_.constantOutputs.push_back({offset, *value.known});
  }

  /// base + sum_k columns[k] * coefficients[k]: zero coefficients skipped, known constants summed now.
  Vec3Operand combine(const std::array<Vec3Operand, 3>& columns, const Eigen::Vector3d& coefficients,
                      const Vec3Operand* base)
  {
    Eigen::Vector3d constantPart = Eigen::Vector3d::Zero();
    std::optional<Vec3> sum;
    for (int k = 0; k < 3; ++k)
    {
      const double c = coefficients[k];
      const Vec3Operand& column = columns[static_cast<std::size_t>(k)];
      if (c == 0.0) continue;
      if (column.known)
        constantPart += c * *column.known;
      else if (!sum)
        sum = v_.multiply(column, v_.splat(c)); // fresh registers, which the terms below accumulate into
      else if (c == 1.0)
        v_.accumulate(*sum, column);
      else if (c == -1.0)
        v_.accumulateNegative(*sum, column);
      else
        v_.accumulateProduct(*sum, column, v_.splat(c));
    }
    if (base && base->known) constantPart += *base->known;
    const bool hasConstant = !constantPart.isZero();
    if (!sum)
    {
      if (base && !base->known)
        return hasConstant ? Vec3Operand(v_.add(*base, v_.constant(constantPart))) : *base;
      return v_.constant(constantPart);
    }
    if (hasConstant) v_.accumulate(*sum, v_.constant(constantPart));
    if (base && !base->known) v_.accumulate(*sum, *base);
    return *sum;
  }

  /// The parent's pose: constants for the base (identity), registers if it was the last body, else memory.
  PoseOperands parentPose(int parent) const
  {
    if (cached_ && cachedBody_ == parent) return *cached_;
    const std::size_t pose = layout_.bodyPose[static_cast<std::size_t>(parent)];
    return {{context_.vectorAt(pose, 0), context_.vectorAt(pose, 1), context_.vectorAt(pose, 2)},
            context_.vectorAt(pose, 3)};
  }

  void emitBody(int i, bool firstMoments)
  {
    const Body& body = model_.body(i);
    const std::size_t index = static_cast<std::size_t>(i);

    // Joint frame at q = 0: parent * placement; the base's pose is the identity, so its children get
    // constants.
    std::array<Vec3Operand, 3> frame{context_.at(0), context_.at(0), context_.at(0)};
    std::optional<Vec3Operand> translation;
    if (body.parent == 0)
    {
      for (int k = 0; k < 3; ++k)
        frame[static_cast<std::size_t>(k)] = v_.constant(body.placement.rotation.col(k));
      translation = v_.constant(body.placement.translation);
    }
    else
    {
      const PoseOperands parent = parentPose(body.parent);
      translation = combine(parent.columns, body.placement.translation, &parent.translation);
      if (body.placementRotationIsIdentity)
        frame = parent.columns;
      else
        for (int k = 0; k < 3; ++k)
          frame[static_cast<std::size_t>(k)] =
              combine(parent.columns, body.placement.rotation.col(k), nullptr);
    }

    PoseOperands pose{frame, *translation};
    std::optional<Vec3Operand> separateAxis;
    if (body.type == JointType::prismatic)
    {
      const Vec3Operand axis = body.axisKind == AxisKind::general
                                   ? combine(frame, body.axis, nullptr)
                                   : frame[static_cast<std::size_t>(axisColumn(body.axisKind))];
      if (body.axisKind == AxisKind::general) separateAxis = axis;
      const Splat value =
          v_.affine(v_.broadcast(x86::ptr(context_.q, body.coordinate * 8)), body.multiplier, body.offset);
      Vec3 moved = v_.multiply(axis, value);
      v_.accumulate(moved, *translation);
      pose.translation = moved;
    }
    else
      separateAxis = rotate(i, frame, pose.columns);

    const std::size_t poseOffset = layout_.bodyPose[index];
    for (std::size_t k = 0; k < 3; ++k)
      output(poseOffset + k * vectorStride, pose.columns[k]);
    output(poseOffset + 3 * vectorStride, pose.translation);
    if (separateAxis) output(layout_.jointAxis[index], *separateAxis);

    if (firstMoments && body.inertial.mass > 0.0)
    {
      // mass * (R c + t) with mass * c folded into one constant.
      const Vec3Operand moment =
          combine(pose.columns, body.inertial.mass * body.inertial.centerOfMass, nullptr);
      Vec3 sum = moment.inMemory ? v_.load(moment) : moment.registers; // combine() made fresh registers
      v_.accumulateProduct(sum, pose.translation, v_.splat(body.inertial.mass));
      v_.store(context_.at(layout_.firstMoment[index]), sum);
    }
    if (spec_.linkPoses) emitLinks(i, pose);
    cached_ = pose;
    cachedBody_ = i;
  }

  /// Columns of frame * R(axis, angle); returns the axis in the base frame if it is not a rotation column.
  std::optional<Vec3Operand> rotate(int bodyIndex, const std::array<Vec3Operand, 3>& frame,
                                    std::array<Vec3Operand, 3>& columns)
  {
    const Body& body = model_.body(bodyIndex);
    const int slot = layout_.bodyAngleSlot[static_cast<std::size_t>(bodyIndex)];
    const Splat c = v_.broadcast(context_.at(layout_.cosines + static_cast<std::size_t>(slot)));
    const Splat s = v_.broadcast(context_.at(layout_.sines + static_cast<std::size_t>(slot)));
    if (body.axisKind != AxisKind::general)
    {
      // About column k, only columns k + 1 and k + 2 turn: 4 products (AVX2) instead of a matrix product.
      const std::size_t k = static_cast<std::size_t>(axisColumn(body.axisKind));
      const std::size_t first = (k + 1) % 3, second = (k + 2) % 3;
      columns[k] = frame[k];
      Vec3 turnedFirst = v_.multiply(frame[first], c);
      v_.accumulateProduct(turnedFirst, frame[second], s);
      Vec3 turnedSecond = v_.multiply(frame[second], c);
      v_.accumulateNegativeProduct(turnedSecond, frame[first], s);
      columns[first] = turnedFirst;
      columns[second] = turnedSecond;
      return std::nullopt;
    }
    // Rodrigues, column by column: R e_k = c F e_k + s F (a x e_k) + (1 - c) a_k F a.
    const Eigen::Vector3d& a = body.axis;
    const Vec3Operand axis = combine(frame, a, nullptr);
    const Vec3 scaledAxis = v_.subtract(axis, v_.multiply(axis, c)); // (1 - c) F a
    for (int k = 0; k < 3; ++k)
    {
      const Eigen::Vector3d across = a.cross(Eigen::Vector3d::Unit(k));
      Vec3 column = v_.multiply(frame[static_cast<std::size_t>(k)], c);
      if (!across.isZero()) v_.accumulateProduct(column, combine(frame, across, nullptr), s);
      if (a[k] != 0.0) v_.accumulateProduct(column, scaledAxis, v_.splat(a[k]));
      columns[static_cast<std::size_t>(k)] = column;
    }
    return axis;
  }

  void emitLinks(int bodyIndex, const PoseOperands& pose)
  {
    for (int l = 0; l < model_.linkCount(); ++l)
    {
      const Link& link = model_.link(l);
      if (link.body != bodyIndex || link.placementIsIdentity) continue;
      const std::size_t index = static_cast<std::size_t>(l);
      output(layout_.linkTranslation[index],
             combine(pose.columns, link.placement.translation, &pose.translation));
      if (!link.placementRotationIsIdentity)
        for (std::size_t k = 0; k < 3; ++k)
          output(layout_.linkRotationColumns[index] + k * vectorStride,
                 combine(pose.columns, link.placement.rotation.col(static_cast<int>(k)), nullptr));
    }
  }

  KernelContext& context_;
  VectorEmitter& v_;
  const Model& model_;
  const Layout& layout_;
  const KernelSpec& spec_;
  std::optional<PoseOperands> cached_;
  int cachedBody_ = -1;
};
} // namespace

void emitForwardPass(KernelContext& context)
{
  ForwardPass(context).emit();
}
} // namespace nao::kinematics::jit
