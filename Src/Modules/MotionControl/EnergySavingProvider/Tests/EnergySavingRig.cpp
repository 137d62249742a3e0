#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
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
  void update(StiffnessJointRequest& request) { request = inputs().request; }
};
MAKE_MODULE(ScriptedStiffnessRequest);

class ScriptedRobotModel : public Module<ScriptedRobotModel, Requires<FrameInfo>, Provides<RobotModel>>
{
public:
  void update(RobotModel& model) { model.centerOfMass = inputs().centerOfMass; }
};
MAKE_MODULE(ScriptedRobotModel);

class ScriptedEnergySavingRequest
    : public Module<ScriptedEnergySavingRequest, Requires<FrameInfo>, Provides<EnergySavingRequest>>
{
public:
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
  return true;
}

void ScriptedBody::send(const JointRequest& request)
{
  if (plant) plant->respond(request, inputs());
}

EnergySavingRig::EnergySavingRig(RigOptions options)
    : controller(ConfigLocation{NAO_CONFIG_DIR, "Default"}, blackboard, motion)
{
  Inputs& in = inputs();
  in = Inputs{};
  in.request = standRequest();
  in.measured = in.request.angles;
  in.energySaving = requestAll(EnergySavingPosture::stand);
  const SourcePosition here{"EnergySavingRig", 1, 1};
  const char* stage = options.energySavingOn ? "EnergySavingProvider" : "off";
  controller.start({{"StiffnessJointRequest", "ScriptedStiffnessRequest", here},
                    {"RobotModel", "ScriptedRobotModel", here},
                    {"EnergySavingRequest", "ScriptedEnergySavingRequest", here},
                    {"FilteredCurrent", "FilteredCurrentProvider", here},
                    {"JointRequest", stage, here},
                    {"EnergySaving", options.energySavingOn ? "EnergySavingProvider" : "off", here}},
                   "energy-saving-test");
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

void EnergySavingRig::setParameter(const std::string& keyPath, const std::string& value)
{
  const std::string error = controller.setParameter("EnergySavingProvider", keyPath, value);
  if (!error.empty()) throw std::runtime_error(error);
}
} // namespace nao::energytest
