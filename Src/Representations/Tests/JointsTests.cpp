// The joint and limb vocabulary of Infrastructure/Joints.h: the joints' names are LoLA's, in LoLA's order,
// limbJoints gives every joint but the head's exactly one limb (LHipYawPitch both legs), the derived checks agree
// with LoLA's joint order, and JointArray and LimbArray (one EnumArray) are indexed by their enum, named by it and
// written as TOML tables keyed by those names.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/TomlFiles.h"

#include <array>
#include <gtest/gtest.h>
#include <string_view>

using namespace nao;

namespace
{
/// LoLA order (NaoFacts.md §4): head, left arm, left leg, right leg without RHipYawPitch, right arm, hands.
constexpr bool inLolaLeftArm(Joint j)
{
  return (j >= Joint::LShoulderPitch && j <= Joint::LWristYaw) || j == Joint::LHand;
}
constexpr bool inLolaRightArm(Joint j)
{
  return (j >= Joint::RShoulderPitch && j <= Joint::RWristYaw) || j == Joint::RHand;
}
constexpr bool inLolaLeftLeg(Joint j)
{
  return j >= Joint::LHipYawPitch && j <= Joint::LAnkleRoll;
}
constexpr bool inLolaRightLeg(Joint j)
{
  return j == Joint::LHipYawPitch || (j >= Joint::RHipRoll && j <= Joint::RAnkleRoll);
}
} // namespace

TEST(Limbs, EveryJointButTheHeadsBelongsToItsLimbAndTheHipYawPitchToBothLegs)
{
  for (std::size_t i = 0; i < numOfJoints; ++i)
  {
    const Joint j = jointAt(i);
    SCOPED_TRACE(std::string(name(j)));
    EXPECT_EQ(isJointOf(j, Limb::leftArm), inLolaLeftArm(j));
    EXPECT_EQ(isJointOf(j, Limb::rightArm), inLolaRightArm(j));
    EXPECT_EQ(isJointOf(j, Limb::leftLeg), inLolaLeftLeg(j));
    EXPECT_EQ(isJointOf(j, Limb::rightLeg), inLolaRightLeg(j));
    EXPECT_EQ(isLegJoint(j), inLolaLeftLeg(j) || inLolaRightLeg(j));
    EXPECT_EQ(isArmJoint(j), inLolaLeftArm(j) || inLolaRightArm(j));
    EXPECT_EQ(isHeadJoint(j), j == Joint::HeadYaw || j == Joint::HeadPitch);
    int limbs = 0;
    for (std::size_t l = 0; l < numOfLimbs; ++l)
      limbs += isJointOf(j, limbAt(l)) ? 1 : 0;
    EXPECT_EQ(limbs, j == Joint::LHipYawPitch ? 2 : isHeadJoint(j) ? 0 : 1);
  }
  static_assert(isJointOf(Joint::LHipYawPitch, Limb::rightLeg) && !isJointOf(Joint::LHand, Limb::rightArm));
}

TEST(Joints, AreNamedAndOrderedAsLolasJointArrays)
{
  // NaoFacts.md §4, written out here as the check of the names that Joint's enumerators give.
  constexpr std::array<std::string_view, 25> lolaOrder{
      "HeadYaw",    "HeadPitch",   "LShoulderPitch", "LShoulderRoll",  "LElbowYaw",
      "LElbowRoll", "LWristYaw",   "LHipYawPitch",   "LHipRoll",       "LHipPitch",
      "LKneePitch", "LAnklePitch", "LAnkleRoll",     "RHipRoll",       "RHipPitch",
      "RKneePitch", "RAnklePitch", "RAnkleRoll",     "RShoulderPitch", "RShoulderRoll",
      "RElbowYaw",  "RElbowRoll",  "RWristYaw",      "LHand",          "RHand"};
  static_assert(jointNames == lolaOrder);
  static_assert(name(Joint::LHipYawPitch) == "LHipYawPitch" && index(Joint::LHipYawPitch) == 7);
  ASSERT_EQ(jointNames.size(), lolaOrder.size());
  for (std::size_t i = 0; i < numOfJoints; ++i)
    EXPECT_EQ(name(jointAt(i)), lolaOrder[i]) << "LoLA index " << i;
  static_assert(streams::enumNamesOf<Limb> ==
                std::array<std::string_view, 4>{"leftArm", "rightArm", "leftLeg", "rightLeg"});
}

TEST(EnumArray, IsIndexedByItsEnumAndNamedByIt)
{
  JointArray<float> angles;
  angles[Joint::RKneePitch] = 0.5f;
  EXPECT_EQ(angles[index(Joint::RKneePitch)], 0.5f);
  EXPECT_EQ(angles.values[15], 0.5f);
  ASSERT_EQ(JointArray<float>::names().size(), numOfJoints);
  for (std::size_t i = 0; i < numOfJoints; ++i)
    EXPECT_EQ(JointArray<float>::names()[i], jointNames[i]);
  ASSERT_EQ(LimbArray<int>::names().size(), numOfLimbs);
  for (std::size_t i = 0; i < numOfLimbs; ++i)
    EXPECT_EQ(LimbArray<int>::names()[i], streams::enumName(limbAt(i)));
  static_assert(JointArray<float>::size() == numOfJoints && LimbArray<int>::size() == numOfLimbs);
  static_assert(std::is_same_v<JointArray<int>, EnumArray<Joint, int, numOfJoints>>);
}

namespace
{
struct PerLimb
{
  LimbArray<double> gains;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& boost::serialization::make_nvp("gains", gains);
  }
};
} // namespace

TEST(EnumArray, IsATomlTableKeyedByTheEnumsNames)
{
  PerLimb perLimb;
  streams::loadFromTable(
      streams::parseToml("[gains]\nleftArm = 1.0\nrightArm = 2.0\nleftLeg = 3.0\nrightLeg = 4.0\n",
                         "limbs.toml"),
      perLimb);
  EXPECT_EQ(perLimb.gains[Limb::leftLeg], 3.0);
  EXPECT_EQ(perLimb.gains[Limb::rightLeg], 4.0);
  const std::string written = streams::toTomlString(streams::saveToTable(perLimb));
  EXPECT_NE(written.find("rightArm = 2"), std::string::npos) << written;
  PerLimb again;
  streams::loadFromTable(streams::parseToml(written, "written.toml"), again);
  EXPECT_EQ(again.gains, perLimb.gains);
}
