#include "Tools/Kinematics/Jit/KernelPasses.h"

#include <optional>

namespace nao::kinematics::jit
{
namespace
{
class BackwardPass
{
public:
  explicit BackwardPass(KernelContext& kernel)
      : context_(kernel), v_(kernel.v), model_(kernel.model), layout_(kernel.layout), spec_(kernel.spec)
  {
  }

  /// From the leaves to the base: subtree first moments, then each joint's torque from the loads below it.
  void emit()
  {
    const std::size_t bodies = static_cast<std::size_t>(model_.bodyCount());
    std::vector<std::optional<Vec3>> subtreeMoment(bodies);
    std::vector<std::optional<Scalar>> coordinateTorque(static_cast<std::size_t>(model_.coordinateCount()));
    std::vector<int> lowestBody(coordinateTorque.size(), 0);
    for (int i = model_.bodyCount() - 1; i > 0; --i)
      lowestBody[static_cast<std::size_t>(model_.body(i).coordinate)] = i;
    const bool torques = spec_.gravityTorques || spec_.contactTorques;
    if (torques) emitLoads();
    const Cycled gravity{context_.vectorAt(layout_.gravity, 1), context_.vectorAt(layout_.gravity, 2)};

    for (int i = model_.bodyCount() - 1; i > 0; --i)
    {
      const std::size_t index = static_cast<std::size_t>(i);
      const Body& body = model_.body(i);
      std::optional<Vec3Operand> moment;
      if (subtreeMoment[index])
      {
        if (body.inertial.mass > 0.0)
          v_.accumulate(*subtreeMoment[index], context_.at(layout_.firstMoment[index]));
        moment = *subtreeMoment[index];
      }
      else if (body.inertial.mass > 0.0)
        moment = Vec3Operand(context_.at(layout_.firstMoment[index]));

      if (torques)
      {
        const std::optional<Scalar> torque = jointTorque(body, index, moment, gravity);
        const std::size_t coordinate = static_cast<std::size_t>(body.coordinate);
        if (torque)
        {
          // A mimic joint passes multiplier * its torque on to its master coordinate.
          const Scalar contribution =
              body.multiplier == 1.0 ? *torque : v_.multiplyScalar(*torque, body.multiplier);
          if (coordinateTorque[coordinate])
            v_.accumulateScalar(*coordinateTorque[coordinate], contribution);
          else
            coordinateTorque[coordinate] = contribution;
        }
        if (lowestBody[coordinate] == i)
        {
          const x86::Mem destination = x86::ptr(context_.tau, body.coordinate * 8);
          v_.storeScalar(destination, coordinateTorque[coordinate]
                                          ? *coordinateTorque[coordinate]
                                          : v_.loadScalar(context_.at(layout_.zero)));
        }
      }

      if (moment)
      {
        std::optional<Vec3>& parentMoment = subtreeMoment[static_cast<std::size_t>(body.parent)];
        if (parentMoment)
          v_.accumulate(*parentMoment, *moment);
        else
          parentMoment = moment->inMemory ? v_.load(*moment) : moment->registers;
      }
    }

    if (spec_.centerOfMass && model_.totalMass() > 0.0)
    {
      Vec3Operand total = context_.at(layout_.firstMoment[0]);
      if (subtreeMoment[0]) total = v_.add(*subtreeMoment[0], total);
      v_.store(context_.at(layout_.centerOfMass), v_.divide(total, v_.splat(model_.totalMass())));
    }
  }

private:
  /// Gravity and the contact wrenches of this evaluation, prepared once for all joints: cycled components for
  /// the cross products, and per contact set the total force and moment about the base origin.
  void emitLoads()
  {
    const Vec3 g = v_.loadHalves(context_.at(layout_.inputs));
    const Cycled cycledGravity = v_.cycle(g);
    v_.store(context_.vectorAt(layout_.gravity, 0), g);
    v_.store(context_.vectorAt(layout_.gravity, 1), cycledGravity.yzx);
    v_.store(context_.vectorAt(layout_.gravity, 2), cycledGravity.zxy);
    if (!spec_.contactTorques || layout_.contactSets.empty()) return;
    std::vector<Vec3> forces, moments;
    for (std::size_t c = 0; c < layout_.contactLinks.size(); ++c)
    {
      const std::size_t input = layout_.contactInput(c);
      const Vec3 point = v_.loadHalves(context_.at(input));
      forces.push_back(v_.loadHalves(context_.vectorAt(input, 1)));
      moments.push_back(
          v_.loadHalves(context_.vectorAt(input, 2))); // about the point; + point x force: about the origin
      v_.accumulateCross(moments.back(), v_.cycle(point), v_.cycle(forces.back()));
    }
    for (std::size_t set = 0; set < layout_.contactSets.size(); ++set)
    {
      std::optional<Vec3> force, moment;
      for (std::size_t c = 0; c < forces.size(); ++c)
        if (layout_.contactSets[set] & (std::uint64_t{1} << c))
        {
          force = force ? v_.add(*force, forces[c]) : forces[c];
          moment = moment ? v_.add(*moment, moments[c]) : moments[c];
        }
      const std::size_t destination = layout_.contactSetOffset(static_cast<int>(set));
      const Cycled cycledForce = v_.cycle(*force);
      v_.store(context_.vectorAt(destination, 0), *force);
      v_.store(context_.vectorAt(destination, 1), cycledForce.yzx);
      v_.store(context_.vectorAt(destination, 2), cycledForce.zxy);
      v_.store(context_.vectorAt(destination, 3), *moment);
    }
  }

  /// The torque the motor needs, -a . (moment about the joint origin of all loads on the subtree), or nullopt
  /// if no load acts. The vector dotted with a is built with the opposite sign, which saves the negation.
  std::optional<Scalar> jointTorque(const Body& body, std::size_t index,
                                    const std::optional<Vec3Operand>& moment, const Cycled& gravity)
  {
    const Vec3Operand origin = context_.vectorAt(layout_.bodyPose[index], 3);
    const Vec3Operand axis = context_.at(layout_.jointAxis[index]);
    const int set = spec_.contactTorques ? layout_.bodyContactSet[index] : -1;
    const std::size_t contact = set >= 0 ? layout_.contactSetOffset(set) : 0;
    const bool gravityLoad = spec_.gravityTorques && moment && body.subtreeMass > 0.0;
    std::optional<Vec3> load;
    if (body.type == JointType::prismatic)
    {
      // Only forces push along a prismatic axis: -(M g + contact forces).
      if (gravityLoad) load = v_.multiply(context_.vectorAt(layout_.gravity, 0), v_.splat(-body.subtreeMass));
      if (set >= 0)
      {
        if (!load) load = v_.load(context_.at(layout_.zero));
        v_.accumulateNegative(*load, context_.vectorAt(contact, 0));
      }
    }
    else
    {
      if (gravityLoad)
      {
        // Gravity on the subtree about the joint origin: (first moment - M o) x g, negated.
        Vec3 offset = v_.multiply(origin, v_.splat(body.subtreeMass));
        v_.accumulateNegative(offset, *moment);
        load = v_.cross(v_.cycle(offset), gravity);
      }
      if (set >= 0)
      {
        // Contacts: moment about the base origin minus o x force, negated.
        const Cycled force{context_.vectorAt(contact, 1), context_.vectorAt(contact, 2)};
        if (load)
          v_.accumulateCross(*load, v_.cycle(v_.load(origin)), force);
        else
          load = v_.cross(v_.cycle(v_.load(origin)), force);
        v_.accumulateNegative(*load, context_.vectorAt(contact, 3));
      }
    }
    if (!load) return std::nullopt;
    return v_.dot(*load, axis);
  }

  KernelContext& context_;
  VectorEmitter& v_;
  const Model& model_;
  const Layout& layout_;
  const KernelSpec& spec_;
};
} // namespace

void emitBackwardPass(KernelContext& context)
{
  BackwardPass(context).emit();
}
} // namespace nao::kinematics::jit
