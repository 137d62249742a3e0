// SelfCollisionProvider alone in a ModuleHarness, with a robot that follows its command exactly: the stand passes
// bit for bit, NAOqi's LArm example is stopped outside the torso (and enters it without protection), a request
// that cannot be met holds the chain, the groups switch live, a limp chain makes the stiff side move, nothing
// allocates per frame, and a bad shapes file names its line.
#include "Modules/MotionControl/SelfCollisionProvider/Tests/SelfCollisionRig.h"
#include "Tools/Streams/TomlFiles.h"
#include "Tools/Testing/AllocationCounter.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::selfcollisiontest;

TEST(SelfCollisionProvider, TheStandPassesBitForBitWithNoConstraint)
{
  Harness h; // Config/Modules/SelfCollisionProvider.toml: every group protected
  const JointArray<float> stand = standPosture();
  for (int f = 0; f < 5; ++f)
  {
    step(h, stand, stand);
    EXPECT_EQ(h.output<CollisionFreeJointRequest>().angles, stand);
    EXPECT_EQ(h.output<SelfCollision>().status, SelfCollisionStatus::free);
    EXPECT_EQ(h.output<SelfCollision>().constrainedPairs, 0u);
    EXPECT_EQ(h.output<SelfCollision>().modifiedJoints, 0u);
  }
  EXPECT_GT(h.output<SelfCollision>().pairCount, 40u);
  EXPECT_GT(h.output<SelfCollision>().minDistance, 0.f);
}

TEST(SelfCollisionProvider, NaoqisLArmExampleStopsOutsideTheTorsoAndEntersItWithoutProtection)
{
  const SelfCollisionParameters on = protecting({&SelfCollisionProtection::LArm});
  Harness protectedArm(on);
  const float withProtection = play(protectedArm, naoqiArm(false), naoqiArm(true), 100);
  EXPECT_GE(withProtection, on.safetyDistance - 1e-3f);
  EXPECT_NE(protectedArm.output<CollisionFreeJointRequest>().angles, naoqiArm(true)) << "the arm was stopped";
  EXPECT_EQ(protectedArm.output<SelfCollision>().status, SelfCollisionStatus::optimal);
  EXPECT_GT(protectedArm.output<SelfCollision>().activePairs, 0u);
  EXPECT_EQ(protectedArm.output<SelfCollision>().modifiedJoints & ~0b1111100u, 0u)
      << "only LArm joints change";

  Harness unprotected(protecting({&SelfCollisionProtection::RArm}));
  const float without = play(unprotected, naoqiArm(false), naoqiArm(true), 100);
  EXPECT_LT(without, -0.002f) << "the example drives the hand into the torso";
  EXPECT_EQ(unprotected.output<CollisionFreeJointRequest>().angles, naoqiArm(true));
}

TEST(SelfCollisionProvider, TheClosestCollisionFreeRequestFollowsTheRestOfTheCommand)
{
  // At the stop the arm is as close to the request as the constraint allows: the QP's optimum. Moving the
  // request back out of the body is followed at once, bit for bit once the arm is free again.
  Harness h(protecting({&SelfCollisionProtection::Arms}));
  play(h, naoqiArm(false), naoqiArm(true), 100);
  const JointArray<float> stopped = h.output<CollisionFreeJointRequest>().angles;
  play(h, stopped, naoqiArm(false), 50);
  EXPECT_EQ(h.output<CollisionFreeJointRequest>().angles, naoqiArm(false));
  EXPECT_EQ(h.output<SelfCollision>().status, SelfCollisionStatus::free);
}

TEST(SelfCollisionProvider, ARequestThatCannotBeMetHoldsTheChain)
{
  // The arm starts 3 mm inside the torso (protection was off); moving out needs more than the allowed step of
  // 0.1° per frame, so the QP is infeasible and the involved joints hold where they are.
  SelfCollisionParameters p = protecting({&SelfCollisionProtection::LArm});
  p.maxStep = 0.1 * SelfCollisionParameters::degree;
  p.damping = 1.0;
  Harness h(p);
  Harness probe(protecting({}));
  JointArray<float> inside = naoqiArm(true);
  inside[Joint::HeadYaw] = 0.3f;
  step(probe, inside, inside);
  ASSERT_LT(probe.output<SelfCollision>().minDistance, -0.002f);
  JointArray<float> request = inside;
  request[Joint::HeadYaw] = 0.301f; // a step within maxStep
  step(h, request, inside);
  EXPECT_EQ(h.output<SelfCollision>().status, SelfCollisionStatus::infeasible);
  const JointArray<float>& sent = h.output<CollisionFreeJointRequest>().angles;
  for (Joint j : {Joint::LShoulderPitch, Joint::LShoulderRoll, Joint::LElbowYaw, Joint::LElbowRoll})
    EXPECT_EQ(sent[j], inside[j]) << name(j);
  EXPECT_EQ(sent[Joint::HeadYaw], 0.301f) << "a chain in no constrained pair follows its request";
}

TEST(SelfCollisionProvider, GroupsSwitchLiveLikeSetCollisionProtectionEnabled)
{
  Harness h(protecting({&SelfCollisionProtection::RArm}));
  play(h, naoqiArm(false), naoqiArm(true), 60);
  EXPECT_EQ(h.output<CollisionFreeJointRequest>().angles, naoqiArm(true))
      << "RArm only: LArm is not protected";
  EXPECT_LT(h.output<SelfCollision>().minDistance, 0.f);
  h.parameters().protection.Arms = true; // the arm is inside: it is pushed out at the damper's rate
  JointArray<float> sent = h.output<CollisionFreeJointRequest>().angles;
  for (int f = 0; f < 60; ++f)
  {
    step(h, naoqiArm(true), sent);
    sent = h.output<CollisionFreeJointRequest>().angles;
  }
  step(h, naoqiArm(true), sent);
  EXPECT_GE(h.output<SelfCollision>().minDistance, 0.005f - 1e-3f);
  EXPECT_EQ(h.output<SelfCollision>().protectedChains, 2 | 4);
}

TEST(SelfCollisionProvider, ALimpArmMakesTheStiffSideMove)
{
  // Both arms forward, the right forearm bent inward in front of the chest; the limp left forearm is pushed
  // inward onto it (its measurement follows the push). The left arm cannot move away, so the right one yields.
  Harness h(protecting({&SelfCollisionProtection::Arms}));
  JointArray<float> start = standPosture();
  start[Joint::LShoulderPitch] = start[Joint::RShoulderPitch] = 0.f;
  start[Joint::LShoulderRoll] = start[Joint::RShoulderRoll] = 0.f;
  start[Joint::LElbowRoll] = 0.f;
  start[Joint::RElbowRoll] = 85.f * degree;
  start[Joint::LWristYaw] = start[Joint::RWristYaw] = 0.f;
  JointArray<float> goal = start;
  goal[Joint::LElbowRoll] = -88.5f * degree;
  JointArray<float> stiffness{};
  stiffness.fill(1.f);
  for (Joint j :
       {Joint::LShoulderPitch, Joint::LShoulderRoll, Joint::LElbowYaw, Joint::LElbowRoll, Joint::LWristYaw})
    stiffness[j] = 0.f;
  JointArray<float> sent = start;
  for (int f = 0; f <= 60; ++f)
  {
    const JointArray<float> pushed = blend(start, goal, std::min(1.f, f / 40.f));
    JointArray<float> measured = sent;
    measured[Joint::LElbowRoll] = pushed[Joint::LElbowRoll];
    h.input<FallSafeJointRequest>().angles = start;
    h.input<FallSafeJointRequest>().stiffnesses = stiffness;
    h.input<JointSensorData>().angles = measured;
    h.run();
    sent = h.output<CollisionFreeJointRequest>().angles;
    EXPECT_EQ(sent[Joint::LElbowRoll], start[Joint::LElbowRoll]) << "a limp joint's request passes";
  }
  // The right arm yields until its joint ranges end (then the QP is infeasible and it holds: a limp arm pushed
  // all the way through cannot be escaped).
  float yielded = 0.f;
  for (Joint j : {Joint::RShoulderPitch, Joint::RShoulderRoll, Joint::RElbowYaw, Joint::RElbowRoll})
    yielded = std::max(yielded, std::abs(sent[j] - start[j]));
  EXPECT_GT(yielded, 0.1f) << "the stiff right arm moved";
}

TEST(SelfCollisionProvider, ConstrainedFramesAllocateNothing)
{
  Harness h(protecting({&SelfCollisionProtection::Arms, &SelfCollisionProtection::Head,
                        &SelfCollisionProtection::LLeg, &SelfCollisionProtection::RLeg}));
  play(h, naoqiArm(false), naoqiArm(true), 20, 0); // first frames: warm-up of everything lazily sized
  JointArray<float> sent = h.output<CollisionFreeJointRequest>().angles;
  int constrainedFrames = 0;
  nao::test::ThreadAllocationCount count;
  for (int f = 0; f < 50; ++f)
  {
    // Pushing into the torso and back: constrained, optimal and free frames.
    h.input<FallSafeJointRequest>().angles = blend(naoqiArm(false), naoqiArm(true), 1.f - (f % 10) / 40.f);
    h.input<JointSensorData>().angles = sent;
    h.run();
    sent = h.output<CollisionFreeJointRequest>().angles;
    constrainedFrames += h.output<SelfCollision>().constrainedPairs > 0;
  }
  EXPECT_EQ(count.allocations(), 0u);
  EXPECT_GT(constrainedFrames, 5);
}

TEST(SelfCollisionShapes, BadInputNamesFileLineAndKey)
{
  const auto errorOf = [](const char* text)
  {
    try
    {
      SelfCollisionShapes::fromTable(streams::parseToml(text, "bad.toml"));
    }
    catch (const streams::ConfigError& error)
    {
      return error;
    }
    ADD_FAILURE() << "no error for " << text;
    return streams::ConfigError(streams::ConfigIssue{});
  };
  const streams::ConfigError radius =
      errorOf("[shapes.a]\nlink = \"torso\"\ncenter = [0, 0, 0]\nradius = -1\n");
  EXPECT_EQ(radius.file, "bad.toml");
  EXPECT_EQ(radius.line, 4);
  EXPECT_EQ(radius.keyPath, "shapes.a.radius");
  const streams::ConfigError point =
      errorOf("[shapes.a]\nlink = \"torso\"\nstart = [0, 0]\nend = [0, 0, 1]\nradius = 1\n");
  EXPECT_EQ(point.line, 3);
  EXPECT_EQ(point.keyPath, "shapes.a.start");
  const streams::ConfigError key =
      errorOf("[shapes.a]\nlink = \"torso\"\ncentre = [0, 0, 0]\nradius = 0.1\n");
  EXPECT_EQ(key.line, 3);
  EXPECT_EQ(key.keyPath, "shapes.a.centre");
  const streams::ConfigError pair = errorOf(
      "excludedLinkPairs = [[\"torso\"]]\n[shapes.a]\nlink = \"torso\"\ncenter = [0, 0, 0]\nradius = 0.1\n");
  EXPECT_EQ(pair.line, 1);
  EXPECT_EQ(pair.keyPath, "excludedLinkPairs[0]");
}

TEST(SelfCollisionShapes, TheDefaultFileLoadsWithPositions)
{
  const SelfCollisionShapes shapes = SelfCollisionShapes::load(testConfigFiles());
  EXPECT_EQ(shapes.shapes.size(), 16u);
  EXPECT_NE(shapes.shapes[0].where.find("selfCollision.toml:"), std::string::npos);
}

TEST(SelfCollisionShapes, ARobotOverlayChangesOneShape)
{
  const auto root = std::filesystem::temp_directory_path() / "nao-selfcollision-overlay";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "Robots" / "Default");
  std::filesystem::create_directories(root / "Robots" / "Nao99");
  std::filesystem::copy_file(std::filesystem::path(NAO_CONFIG_DIR) / "Robots" / "Default" /
                                 "selfCollision.toml",
                             root / "Robots" / "Default" / "selfCollision.toml");
  std::ofstream(root / "Robots" / "Nao99" / "selfCollision.toml") << "[shapes.head]\nradius = 0.07\n";
  ConfigFiles files;
  files.location = {root, "Nao99"};
  const SelfCollisionShapes overlaid = SelfCollisionShapes::load(files);
  const SelfCollisionShapes base = SelfCollisionShapes::load(testConfigFiles());
  ASSERT_EQ(overlaid.shapes.size(), base.shapes.size());
  for (std::size_t i = 0; i < base.shapes.size(); ++i)
  {
    EXPECT_EQ(overlaid.shapes[i].radius, base.shapes[i].name == "head" ? 0.07 : base.shapes[i].radius);
    EXPECT_EQ(overlaid.shapes[i].start, base.shapes[i].start);
  }
  // A shape the base file does not have is an error naming the overlay file and line.
  std::ofstream(root / "Robots" / "Nao99" / "selfCollision.toml") << "\n[shapes.tail]\nradius = 0.07\n";
  try
  {
    SelfCollisionShapes::load(files);
    ADD_FAILURE() << "an unknown shape was accepted";
  }
  catch (const streams::ConfigError& error)
  {
    EXPECT_NE(error.file.find("Nao99"), std::string::npos) << error.what();
    EXPECT_GT(error.line, 0);
  }
  std::filesystem::remove_all(root);
}
