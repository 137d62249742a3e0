// Smart stiffness (SmartStiffnessProvider) on simulated robots, from the robot's own log: while the stand is held
// the stiffness is limited; a push on the torso and a sudden arm motion (Config/Scenarios/standpush.toml) bring the
// user's stiffness back within one frame, and no robot falls that does not fall without the stage.
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SmartStiffness.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
struct Frame
{
  double time = 0;
  SmartStiffness smart;
  JointArray<float> user, sent; ///< 0..1: CollisionFreeJointRequest's and StiffnessJointRequest's stiffness
  JointArray<float> motion;     ///< rad, MotionJointRequest angles
  JointArray<float> measured;   ///< rad
};

SimulationOptions optionsFor(std::uint64_t seed, bool on, const std::string& preset = "")
{
  SimulationOptions options = test::testRunOptions(
      "standpush", 40.0 / 60.0, seed, "nao-smartstiffness-" + std::to_string(seed) + (on ? "-on" : "-off"));
  options.preset = preset;
  if (!on) options.providerOverrides.push_back({"StiffnessJointRequest", "off", {}});
  return options;
}

std::vector<Frame> framesOf(const SimulationResult& result)
{
  return test::framesOf<FrameInfo, SmartStiffness, CollisionFreeJointRequest, StiffnessJointRequest,
                        MotionJointRequest, JointSensorData>(
      result.log,
      [](const FrameInfo& info, const SmartStiffness& smart, const CollisionFreeJointRequest& user,
         const StiffnessJointRequest& sent, const MotionJointRequest& motion, const JointSensorData& measured)
      {
        return Frame{info.time, smart, user.stiffnesses, sent.stiffnesses, motion.angles, measured.angles};
      });
}

bool userEverywhere(const Frame& frame)
{
  return frame.sent == frame.user;
}
} // namespace

TEST(SmartStiffnessSimulation, PushAndArmMotionGetTheUserStiffnessWithinOneFrameAndNobodyFallsMore)
{
  for (const auto& [seed, preset] :
       {std::pair<std::uint64_t, std::string>{100, ""}, {101, ""}, {119, "worn"}})
  {
    SCOPED_TRACE("seed " + std::to_string(seed) + " " + preset);
    const SimulationResult on = runSimulation(optionsFor(seed, true, preset));
    const SimulationResult off = runSimulation(optionsFor(seed, false, preset));
    const std::vector<Frame> frames = framesOf(on);
    ASSERT_GT(frames.size(), 3000u);

    // Held stand before the push: the stage limits the legs (the knees need far less than the user's 1.0).
    bool limitedBeforePush = false;
    for (const Frame& f : frames)
      if (f.time > 12.0 && f.time < 14.9 && f.smart.state == SmartStiffnessState::active &&
          f.sent[Joint::LKneePitch] < 0.6f)
        limitedBeforePush = true;
    EXPECT_TRUE(limitedBeforePush);

    // The push (15 s): the first frame a measured joint moves faster than the stage's threshold (30 deg/s) is
    // a frame with the user's stiffness everywhere.
    constexpr float threshold = 30.f * 3.14159265f / 180.f; // rad/s
    bool pushSeen = false;
    for (std::size_t i = 1; i < frames.size(); ++i)
    {
      if (frames[i].time < 15.0 || frames[i].time > 17.0) continue;
      const float dt = static_cast<float>(frames[i].time - frames[i - 1].time);
      bool fast = false;
      for (std::size_t j = 0; j < numOfJoints; ++j)
        fast = fast || std::abs(frames[i].measured[j] - frames[i - 1].measured[j]) > threshold * dt;
      if (!fast) continue;
      pushSeen = true;
      EXPECT_TRUE(userEverywhere(frames[i]))
          << "t = " << frames[i].time << ": a joint moved, stiffness still limited";
    }
    EXPECT_TRUE(pushSeen) << "the push moved no joint faster than 30 deg/s";

    // The arm motion (25 s) and back (35 s): every frame whose request is more than the stage's requestThreshold
    // (0.5°) from where it rested has the user's stiffness everywhere, in that frame; the keyframe's ease-in moves
    // less than that in its first frames, which the stage (as for a balancer's wobble) does not count as motion.
    constexpr float requestThreshold = 0.5f * 3.14159265f / 180.f; // rad
    int motionFrames = 0, releasedLate = 0, firstMove = -1;
    float rest = frames.front().motion[Joint::LShoulderPitch];
    for (std::size_t i = 1; i < frames.size(); ++i)
    {
      const float angle = frames[i].motion[Joint::LShoulderPitch];
      if (angle == frames[i - 1].motion[Joint::LShoulderPitch])
      {
        if (frames[i].smart.state == SmartStiffnessState::active) rest = angle;
        firstMove = -1;
        continue;
      }
      if (firstMove < 0) firstMove = static_cast<int>(i);
      if (std::abs(angle - rest) <= requestThreshold) continue;
      ++motionFrames;
      EXPECT_TRUE(userEverywhere(frames[i])) << "t = " << frames[i].time << ": the request moved";
      if (!userEverywhere(frames[i - 1])) releasedLate = static_cast<int>(i) - firstMove;
    }
    EXPECT_GE(motionFrames, 40); // two 0.3 s motions, 25 frames each
    EXPECT_LE(releasedLate, 2) << "frames from the request's first change to the user's stiffness";
    RecordProperty("framesFromFirstChangeToRelease", releasedLate);

    // Falling: the torso stays as high with the stage as without it (a fallen NAO's torso is below 0.15 m).
    const bool fellOff = off.minTorsoHeight < 0.15;
    const bool fellOn = on.minTorsoHeight < 0.15;
    EXPECT_FALSE(fellOn && !fellOff) << "torso low " << on.minTorsoHeight << " m on, " << off.minTorsoHeight
                                     << " m off";
    std::filesystem::remove_all(optionsFor(seed, true).outputDirectory);
    std::filesystem::remove_all(optionsFor(seed, false).outputDirectory);
  }
}
