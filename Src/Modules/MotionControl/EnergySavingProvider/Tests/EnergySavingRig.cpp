#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"

#include "Modules/MotionControl/BHumanEnergySavingProvider/BHumanEnergySavingProvider.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"
#include <charconv>
#include <stdexcept>

namespace nao::energytest
{
Inputs& inputs()
{
  static Inputs instance;
  return instance;
}

void resetInputs()
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
}

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

/// The module under test in its harness, whichever of the two it is.
class EnergySavingRig::Stage
{
public:
  virtual ~Stage() = default;
  virtual void run(const BodySensors& sensors, const FilteredCurrent& filtered) = 0;
  virtual const JointRequest& output() const = 0;
  virtual const EnergySaving& energy() const = 0;
  virtual void setParameter(const std::string& keyPath, const std::string& valueToml) = 0;
};

namespace
{
template<class M>
class HarnessStage : public EnergySavingRig::Stage
{
public:
  /// This frame's sensors and inputs() as the module's inputs (of the robot model only what a provider of it
  /// would set from inputs()), then the module's update.
  void run(const BodySensors& sensors, const FilteredCurrent& filtered) override
  {
    const Inputs& in = inputs();
    harness_.template input<FrameInfo>() = sensors.frameInfo;
    harness_.template input<JointSensorData>() = sensors.joints;
    harness_.template input<FsrSensorData>() = sensors.fsr;
    harness_.template input<InertialSensorData>() = sensors.inertial;
    harness_.template input<FilteredCurrent>() = filtered;
    harness_.template input<StiffnessJointRequest>() = in.request;
    RobotModel& model = harness_.template input<RobotModel>();
    model.centerOfMass = in.centerOfMass;
    for (int axis = 0; axis < 3; ++axis)
    {
      model.leftSole.translation[axis] = in.leftSole[axis];
      model.rightSole.translation[axis] = in.rightSole[axis];
    }
    harness_.template input<JointLimits>() = in.limits;
    harness_.template input<JointTorques>() = in.torques;
    harness_.template input<EnergySavingRequest>() = in.energySaving;
    harness_.template input<FallDownState>() = in.fall;
    harness_.template input<SitDown>() = in.sitDown;
    harness_.template input<FallProtection>() = in.protection;
    harness_.run();
  }
  const JointRequest& output() const override { return harness_.template output<JointRequest>(); }
  const EnergySaving& energy() const override { return harness_.template output<EnergySaving>(); }
  void setParameter(const std::string& keyPath, const std::string& valueToml) override
  {
    harness_.setParameter(keyPath, valueToml);
  }

private:
  ModuleHarness<M> harness_; // parameters from Config/Modules/<M>.toml
};

std::unique_ptr<EnergySavingRig::Stage> makeStage(const std::string& module)
{
  if (module == "EnergySavingProvider") return std::make_unique<HarnessStage<EnergySavingProvider>>();
  if (module == "BHumanEnergySavingProvider")
    return std::make_unique<HarnessStage<BHumanEnergySavingProvider>>();
  throw std::invalid_argument("EnergySavingRig: no heat adjustment module '" + module + "'");
}
} // namespace

EnergySavingRig::EnergySavingRig(RigOptions options)
    : module_(options.module), guard_(options.guard), stage_(makeStage(options.module))
{
  resetInputs();
  if (options.ruleNumbers) setRuleNumbers();
}

EnergySavingRig::~EnergySavingRig() = default;

void EnergySavingRig::frame()
{
  body_.waitForSensors(sensors_);
  filter_.input<JointSensorData>() = joints_;
  filter_.run();
  stage_->run(sensors_, filter_.output<FilteredCurrent>());
  if (plant) plant->respond(output(), inputs());
}

const EnergySaving& EnergySavingRig::energy() const
{
  return stage_->energy();
}

const JointRequest& EnergySavingRig::output() const
{
  return stage_->output();
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
  stage_->setParameter(keyPath, value);
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
