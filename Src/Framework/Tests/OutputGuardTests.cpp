// Whatever the sensors report and the modules compute, every answer the robot sends is finite and within the
// motors' range (the URDF's limits): a body reporting HeadYaw at 5 rad, a knee at 100 rad, -1e30 and NaN gets
// answers inside the limits from the first frame on, in every scenario that runs on the stand-in body.
#include "Framework/Robot.h"
#include "Framework/RobotDescription.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;

namespace
{
/// Reports absurd angles for its first frames, then plausible ones; records every answer.
class HostileBody : public Body
{
public:
  explicit HostileBody(int frames) : frames_(frames) {}
  bool waitForSensors(BodySensors& sensors) override
  {
    if (frame_ >= frames_) return false;
    sensors.frameInfo.frameNumber = static_cast<std::uint32_t>(frame_);
    sensors.frameInfo.time = frame_ * 0.012;
    for (std::size_t j = 0; j < numOfJoints; ++j)
      sensors.joints.angles[j] = 0.f;
    if (frame_ < 50 || frame_ % 7 == 0)
    {
      sensors.joints.angles[Joint::HeadYaw] = 5.f;
      sensors.joints.angles[Joint::LKneePitch] = 100.f;
      sensors.joints.angles[Joint::RKneePitch] = -1e30f;
      sensors.joints.angles[Joint::LShoulderPitch] = std::numeric_limits<float>::quiet_NaN();
      sensors.joints.angles[Joint::RHipPitch] = std::numeric_limits<float>::infinity();
    }
    for (std::size_t j = 0; j < numOfJoints; ++j)
      sensors.joints.stiffnesses[j] = 1.f;
    for (FsrFoot* foot : {&sensors.fsr.left, &sensors.fsr.right})
    {
      foot->readings.fill(0.6f);
      foot->totalWeight = 2.4f;
      foot->hasPressure = true;
    }
    ++frame_;
    return true;
  }
  void send(const JointRequest& request) override { sent.push_back(request); }
  const char* name() const override { return "Hostile"; }
  std::vector<JointRequest> sent;

private:
  int frames_;
  int frame_ = 0;
};
} // namespace

TEST(OutputGuard, EveryAnswerIsFiniteAndWithinTheJointLimitsInEveryScenario)
{
  const RobotDescription description = RobotDescription::load(ConfigFiles{{NAO_CONFIG_DIR, "Default"}, {}});
  int scenarios = 0;
  for (const char* scenario : {"standin", "stand", "highstand", "sit", "lifted", "armexample", "stepping"})
  {
    HostileBody body(200);
    RobotOptions options;
    options.config = {NAO_CONFIG_DIR, "Default"};
    options.scenario = scenario;
    Robot robot(body, options);
    robot.run();
    ASSERT_EQ(body.sent.size(), 200u) << scenario;
    int outOfRange = 0;
    for (const JointRequest& answer : body.sent)
      for (std::size_t j = 0; j < numOfJoints; ++j)
      {
        const kinematics::JointLimits& limits = description.limits(j);
        ASSERT_TRUE(std::isfinite(answer.angles[j]) && std::isfinite(answer.stiffnesses[j]))
            << scenario << " " << name(jointAt(j));
        outOfRange += limits.bounded &&
                      (answer.angles[j] < limits.lower - 1e-6 || answer.angles[j] > limits.upper + 1e-6);
        EXPECT_GE(answer.stiffnesses[j], 0.f);
        EXPECT_LE(answer.stiffnesses[j], 1.f);
      }
    EXPECT_EQ(outOfRange, 0) << scenario;
    EXPECT_GT(robot.motion().outputCorrections(), 0u) << scenario << ": the readings were out of range";
    ++scenarios;
  }
  EXPECT_EQ(scenarios, 7);
}
