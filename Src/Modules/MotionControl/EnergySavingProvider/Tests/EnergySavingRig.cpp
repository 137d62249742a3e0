#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <charconv>
#include <stdexcept>

namespace nao::energytest
{
Inputs& inputs()
{
  static Inputs instance;
  return instance;
}

/// The other inputs of EnergySavingProvider, straight from `inputs()`.
class ScriptedStiffnessRequest
    : public Module<ScriptedStiffnessRequest, Requires<FrameInfo>, Provides<StiffnessJointRequest>>
{
public:
  using Module::Module;
  void update(StiffnessJointRequest& request) { request = inputs().request; }
};
MAKE_MODULE(ScriptedStiffnessRequest);

class ScriptedRobotModel : public Module<ScriptedRobotModel, Requires<FrameInfo>, Provides<RobotModel>>
{
public:
  using Module::Module;
  void update(RobotModel& model)
  {
    model.centerOfMass = inputs().centerOfMass;
    for (int axis = 0; axis < 3; ++axis)
    {
      model.leftSole.translation[axis] = inputs().leftSole[axis];
      model.rightSole.translation[axis] = inputs().rightSole[axis];
    }
  }
};
MAKE_MODULE(ScriptedRobotModel);

class ScriptedJointLimits : public Module<ScriptedJointLimits, Requires<FrameInfo>, Provides<JointLimits>>
{
public:
  using Module::Module;
  void update(JointLimits& limits) { limits = inputs().limits; }
};
MAKE_MODULE(ScriptedJointLimits);

class ScriptedJointTorques : public Module<ScriptedJointTorques, Requires<FrameInfo>, Provides<JointTorques>>
{
public:
  using Module::Module;
  void update(JointTorques& torques) { torques = inputs().torques; }
};
MAKE_MODULE(ScriptedJointTorques);

class ScriptedEnergySavingRequest
    : public Module<ScriptedEnergySavingRequest, Requires<FrameInfo>, Provides<EnergySavingRequest>>
{
public:
  using Module::Module;
  void update(EnergySavingRequest& request) { request = inputs().energySaving; }
};
MAKE_MODULE(ScriptedEnergySavingRequest);

StiffnessJointRequest standRequest()
{
  StiffnessJointRequest request;
  const std::array<float, numOfJoints> degrees = {
      0, 0,         90,       7,         0, -2.5f, -90, 0, 0,    -20.0484f, 48.0313f, -27.9829f, 0,
      0, -20.0484f, 48.0313f, -27.9829f, 0, 90,    -7,  0, 2.5f, 90,        0,        0};
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    request.angles[j] = degrees[j] * degree;
    request.stiffnesses[j] = 1.f;
  }
  return request;
}

EnergySavingRequest requestAll(EnergySavingPosture posture)
{
  EnergySavingRequest request;
  request.adjust = request.adjustLeftLeg = request.adjustRightLeg = true;
  request.adjustLeftArm = request.adjustRightArm = true;
  request.posture = posture;
  return request;
}

void FallingCurrents::heat(Joint joint, float amperes)
{
  inputs().currents[joint] = amperes;
  falling_[joint] = true;
}

void FallingCurrents::respond(const JointRequest&, Inputs& in)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (falling_[j])
      in.currents[j] = std::copysign(std::max(0.f, std::abs(in.currents[j]) - perFrame), in.currents[j]);
}

bool ScriptedBody::waitForSensors(BodySensors& sensors)
{
  const Inputs& in = inputs();
  sensors.frameInfo.frameNumber = frame_;
  sensors.frameInfo.time = frame_ * frameTime;
  ++frame_;
  sensors.joints.angles = in.measured;
  sensors.joints.currents = in.currents;
  sensors.fsr.left.totalWeight = in.leftFootWeight;
  sensors.fsr.right.totalWeight = in.rightFootWeight;
  sensors.inertial.angles = in.torsoAngles;
  return true;
}

void ScriptedBody::send(const JointRequest& request)
{
  if (plant) plant->respond(request, inputs());
}

EnergySavingRig::EnergySavingRig(RigOptions options)
    : controller(ConfigLocation{NAO_CONFIG_DIR, "Default"}, blackboard, motion), module_(options.module),
      guard_(options.guard)
{
  Inputs& in = inputs();
  in = Inputs{};
  in.request = standRequest();
  in.measured = in.request.angles;
  in.energySaving = requestAll(EnergySavingPosture::stand);
  in.limits.min.fill(-std::numbers::pi_v<float>);
  in.limits.max.fill(std::numbers::pi_v<float>);
  in.limits.min[Joint::LHand] = in.limits.min[Joint::RHand] = 0.f;
  in.limits.max[Joint::LHand] = in.limits.max[Joint::RHand] = 1.f;
  const SourcePosition here{"EnergySavingRig", 1, 1};
  const std::string stage = options.energySavingOn ? module_ : "off";
  controller.start({{"StiffnessJointRequest", "ScriptedStiffnessRequest", here},
                    {"RobotModel", "ScriptedRobotModel", here},
                    {"JointLimits", "ScriptedJointLimits", here},
                    {"JointTorques", "ScriptedJointTorques", here},
                    {"EnergySavingRequest", "ScriptedEnergySavingRequest", here},
                    {"FilteredCurrent", "FilteredCurrentProvider", here},
                    {"JointRequest", stage, here},
                    {"EnergySaving", stage, here}},
                   "energy-saving-test");
  if (options.energySavingOn && options.ruleNumbers) setRuleNumbers();
}

void EnergySavingRig::frame()
{
  if (!motion.runFrame()) throw std::runtime_error("the motion loop stopped");
  controller.service();
}

void EnergySavingRig::runFor(double seconds)
{
  const double end = time() + seconds - 1e-9;
  while (time() < end)
    frame();
}

bool EnergySavingRig::runUntilState(EnergySavingState target, double maxSeconds)
{
  return runUntil([&] { return state() == target; }, maxSeconds);
}

bool EnergySavingRig::runUntilNextRound(double maxSeconds)
{
  const std::uint32_t rounds = energy().rounds;
  return runUntil([&] { return energy().rounds != rounds; }, maxSeconds);
}

bool EnergySavingRig::roundAt(Joint joint, float amperes)
{
  inputs().currents[joint] = amperes;
  return runUntilNextRound();
}

void EnergySavingRig::setParameter(const std::string& keyPath, const std::string& value)
{
  const std::string error = controller.setParameter(module_, keyPath, value);
  if (!error.empty()) throw std::runtime_error(keyPath + ": " + error);
}

void EnergySavingRig::setParameter(const std::string& keyPath, double value)
{
  char text[32];
  const auto end =
      std::to_chars(text, text + sizeof text, value).ptr; // shortest text that reads back exactly
  std::string toml(text, end);
  if (toml.find_first_of(".e") == std::string::npos) toml += ".0"; // a TOML float, not an integer
  setParameter(keyPath, toml);
}

void EnergySavingRig::setParameter(const std::string& keyPath, int value)
{
  setParameter(keyPath, std::to_string(value));
}

void EnergySavingRig::setRuleNumbers()
{
  const bool ours = module_ == "EnergySavingProvider";
  setParameter("motionChangeWaitTime", rule::motionChangeWaitTime);
  setParameter("adjustWaitTime", ours ? rule::adjustWaitTime : rule::bHumanAdjustWaitTime);
  setParameter("resetTime", rule::resetTime);
  setParameter("baseOffsetFadeInTime", rule::baseOffsetFadeInTime);
  setParameter("maxBaseOffset", rule::maxBaseOffset);
  setParameter("legCurrentThreshold", rule::legCurrentThreshold);
  setParameter("legCurrentThresholdLargeOffset", rule::legCurrentThresholdLargeOffset);
  setParameter("armCurrentThreshold", rule::armCurrentThreshold);
  setParameter("largeOffset", rule::largeOffset);
  setParameter("maxOffset", rule::maxOffset);
  setParameter("largeOffsetJointsForReset", rule::largeOffsetJointsForReset);
  setParameter("stepsBeforeEmergencyStep", rule::stepsBeforeEmergencyStep);
  setParameter("maxGearStepLegs", rule::maxGearStepLegs);
  setParameter("maxGearStepArms", rule::maxGearStepArms);
  setParameter("minGearStep", rule::minGearStep);
  setParameter("accurateFineStepFraction", rule::accurateFineStepFraction);
  setParameter("groundContactWeight", rule::groundContactWeight);
  setParameter("groundContactDebounceTime", rule::groundContactDebounceTime);
  setParameter("centerOfMassMin[0]", rule::centerOfMassMin[0]);
  setParameter("centerOfMassMin[1]", rule::centerOfMassMin[1]);
  setParameter("centerOfMassMax[0]", rule::centerOfMassMax[0]);
  setParameter("centerOfMassMax[1]", rule::centerOfMassMax[1]);
  setParameter("guard.enabled", guard_ ? "true" : "false");
  if (!ours) return;
  setParameter("agreementBand", rule::agreementBand);
  setParameter("minSearchStepFraction", rule::minSearchStepFraction);
  setParameter("loadDirectionTorque", rule::loadDirectionTorque);
  setParameter("searchCurrentTolerance", rule::searchCurrentTolerance);
  setParameter("stalledRoundsToSettle", rule::stalledRoundsToSettle);
  setParameter("handOverRounds", rule::handOverRounds);
  setParameter("pusherAboveRounds", rule::pusherAboveRounds);
  setParameter("maxSag", rule::maxSag);
}
} // namespace nao::energytest
