// Property test on the model: random request streams for every chain (random targets within the joint ranges,
// played at random speeds up to the NAO's fastest joint, with random holds), the robot following its command
// exactly. With every group protected no pair ever ends a frame below 0; with protection off the same streams
// do penetrate, so the test can fail.
#include "Framework/RobotDescription.h"
#include "Modules/MotionControl/SelfCollisionProvider/Tests/SelfCollisionRig.h"

#include <gtest/gtest.h>
#include <random>

using namespace nao;
using namespace nao::selfcollisiontest;

namespace
{
constexpr int streamsPerChain = 2000; ///< x 5 chains = 10,000 streams
constexpr int targetsPerStream = 3;

struct Outcome
{
  float smallest = 1.f;       ///< m, the smallest distance any frame ended with
  int penetratingStreams = 0; ///< streams with a frame below 0
};

/// The joints a chain's random stream moves.
std::vector<Joint> chainJoints(int chain)
{
  switch (chain)
  {
  case 0:
    return {Joint::HeadYaw, Joint::HeadPitch};
  case 1:
    return {Joint::LShoulderPitch, Joint::LShoulderRoll, Joint::LElbowYaw, Joint::LElbowRoll,
            Joint::LWristYaw};
  case 2:
    return {Joint::RShoulderPitch, Joint::RShoulderRoll, Joint::RElbowYaw, Joint::RElbowRoll,
            Joint::RWristYaw};
  case 3:
    return {Joint::LHipRoll, Joint::LHipPitch, Joint::LKneePitch, Joint::LAnklePitch, Joint::LAnkleRoll};
  default:
    return {Joint::RHipRoll, Joint::RHipPitch, Joint::RKneePitch, Joint::RAnklePitch, Joint::RAnkleRoll};
  }
}

Outcome runStreams(const SelfCollisionParameters& parameters)
{
  Harness h(parameters);
  LoadedInputs inputs(testConfigFiles());
  const RobotDescription& robot = inputs.get<RobotDescription>();
  std::mt19937 random(13);
  Outcome outcome;
  const float maxStepPerFrame = 7.f * 0.012f; // rad: 7 rad/s, about the NAO's fastest joint, per 12 ms frame
  for (int chain = 0; chain < 5; ++chain)
  {
    const std::vector<Joint> joints = chainJoints(chain);
    for (int stream = 0; stream < streamsPerChain; ++stream)
    {
      JointArray<float> request = standPosture();
      JointArray<float> sent = request;
      step(h, request, sent); // a fresh start from the stand: the stream's first frame sets the reference
      bool penetrated = false;
      for (int k = 0; k < targetsPerStream; ++k)
      {
        JointArray<float> goal = request;
        for (Joint j : joints)
        {
          const auto& limits = robot.limits(index(j));
          goal[j] = std::uniform_real_distribution<float>(static_cast<float>(limits.lower),
                                                          static_cast<float>(limits.upper))(random);
        }
        float largest = 0.f;
        for (Joint j : joints)
          largest = std::max(largest, std::abs(goal[j] - request[j]));
        const float speed = std::uniform_real_distribution<float>(0.1f, 1.f)(random);
        const int frames = std::max(1, static_cast<int>(std::ceil(largest / (speed * maxStepPerFrame))));
        const int hold = std::uniform_int_distribution<int>(0, 10)(random);
        const JointArray<float> from = request;
        for (int f = 1; f <= frames + hold; ++f)
        {
          request = blend(from, goal, std::min(1.f, static_cast<float>(f) / static_cast<float>(frames)));
          step(h, request, sent);
          sent = h.output<CollisionFreeJointRequest>().angles;
          // The distance reported is that of the previous frame's command (the reference it linearises at).
          const float d = h.output<SelfCollision>().minDistance;
          outcome.smallest = std::min(outcome.smallest, d);
          penetrated = penetrated || d < 0.f;
        }
      }
      outcome.penetratingStreams += penetrated;
      // Back to the stand for the next stream, through the module so that it stays consistent.
      for (int f = 0; f < 40; ++f)
      {
        step(h, blend(request, standPosture(), std::min(1.f, f / 30.f)), sent);
        sent = h.output<CollisionFreeJointRequest>().angles;
      }
    }
  }
  return outcome;
}
} // namespace

TEST(SelfCollisionProperty, ProtectedStreamsNeverPenetrateAndUnprotectedOnesDo)
{
  const Outcome on = runStreams(protecting({&SelfCollisionProtection::Arms, &SelfCollisionProtection::Head,
                                            &SelfCollisionProtection::LLeg, &SelfCollisionProtection::RLeg}));
  const Outcome off = runStreams(protecting({}));
  RecordProperty("smallestOn_mm", std::to_string(on.smallest * 1000.f));
  RecordProperty("smallestOff_mm", std::to_string(off.smallest * 1000.f));
  std::printf("smallest distance: on %.2f mm, off %.2f mm; penetrating streams on %d, off %d of %d\n",
              on.smallest * 1000.f, off.smallest * 1000.f, on.penetratingStreams, off.penetratingStreams,
              5 * streamsPerChain);
  EXPECT_GE(on.smallest, 0.f);
  EXPECT_EQ(on.penetratingStreams, 0);
  EXPECT_GT(off.penetratingStreams, 5 * streamsPerChain / 20) << "the streams do reach into the body";
  EXPECT_LT(off.smallest, -0.01f);
}
