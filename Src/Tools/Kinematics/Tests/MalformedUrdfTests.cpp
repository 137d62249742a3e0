// A robot description the library cannot represent exactly must fail with a message naming the element.
#include "Tools/Kinematics/ModelError.h"
#include "Tools/Kinematics/Tests/TestModels.h"
#include "Tools/Kinematics/UrdfLoader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nao::kinematics::test
{
namespace
{
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string limit = R"(<limit lower="-1" upper="1" effort="1" velocity="1"/>)";
const std::string mass =
    R"(<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)";

std::string twoLinks(const std::string& joint, const std::string& childInertial = "")
{
  return "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\">" + childInertial + "</link>\n" + joint +
         "\n</robot>";
}

std::string errorOf(const std::string& urdf, const ModelOptions& options = {})
{
  try
  {
    buildModel(urdf, options, "test.urdf");
  }
  catch (const ModelError& error)
  {
    return error.what();
  }
  ADD_FAILURE() << "no ModelError for:\n" << urdf;
  return {};
}

TEST(MalformedUrdf, MissingMassNamesTheLink)
{
  const std::string urdf = R"(<robot name="r">
<link name="heavy"><inertial><origin xyz="0 0 0"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
</robot>)";
  EXPECT_THAT(errorOf(urdf),
              AllOf(HasSubstr("test.urdf:2:"), HasSubstr("<mass>"), HasSubstr("link 'heavy'")));
}

TEST(MalformedUrdf, NegativeMassNamesTheLink)
{
  const std::string urdf =
      R"(<robot name="r"><link name="ghost"><inertial><mass value="-0.5"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>)";
  EXPECT_THAT(errorOf(urdf),
              AllOf(HasSubstr("test.urdf:1"), HasSubstr("link 'ghost'"), HasSubstr("negative")));
}

TEST(MalformedUrdf, ZeroAxisNamesTheJoint)
{
  const std::string joint = R"(<joint name="spin" type="revolute"><parent link="a"/><child link="b"/>
<axis xyz="0 0 0"/>)" + limit +
                            "</joint>";
  EXPECT_THAT(errorOf(twoLinks(joint)),
              AllOf(HasSubstr("test.urdf:4"), HasSubstr("joint 'spin'"), HasSubstr("axis")));
}

TEST(MalformedUrdf, UnparsableAxisNamesTheJoint)
{
  const std::string joint = R"(<joint name="spin" type="revolute"><parent link="a"/><child link="b"/>
<axis xyz="1 x 0"/>)" + limit +
                            "</joint>";
  EXPECT_THAT(errorOf(twoLinks(joint)),
              AllOf(HasSubstr("test.urdf:5:"), HasSubstr("<axis xyz=\"1 x 0\">"), HasSubstr("joint 'spin'")));
}

TEST(MalformedUrdf, UnknownJointTypeNamesTheJointAndType)
{
  const std::string joint =
      R"(<joint name="wobble" type="twisty"><parent link="a"/><child link="b"/></joint>)";
  EXPECT_THAT(errorOf(twoLinks(joint)),
              AllOf(HasSubstr("test.urdf:4:"), HasSubstr("joint 'wobble'"), HasSubstr("'twisty'")));
}

TEST(MalformedUrdf, UnsupportedJointTypeNamesTheJoint)
{
  const std::string joint =
      R"(<joint name="table" type="planar"><parent link="a"/><child link="b"/></joint>)";
  EXPECT_THAT(errorOf(twoLinks(joint)),
              AllOf(HasSubstr("joint 'table'"), HasSubstr("planar"), HasSubstr("not supported")));
}

TEST(MalformedUrdf, LinkWithTwoParentsIsALoopNamingBothJoints)
{
  const std::string urdf = R"(<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
<joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
<joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>
<joint name="j3" type="fixed"><parent link="c"/><child link="b"/></joint>
</robot>)";
  EXPECT_THAT(errorOf(urdf), AllOf(HasSubstr("test.urdf:4"), HasSubstr("'j3'"), HasSubstr("'j1'"),
                                   HasSubstr("link 'b'"), HasSubstr("loop")));
}

TEST(MalformedUrdf, ClosedCycleWithoutRootNamesTheJointsOfTheLoop)
{
  const std::string urdf = R"(<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
<joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>
<joint name="ca" type="fixed"><parent link="c"/><child link="a"/></joint>
</robot>)";
  EXPECT_THAT(errorOf(urdf),
              AllOf(HasSubstr("'ab'"), HasSubstr("'bc'"), HasSubstr("'ca'"), HasSubstr("loop")));
}

TEST(MalformedUrdf, MimicOfUnknownJointNamesBoth)
{
  const std::string joint = R"(<joint name="follower" type="revolute"><parent link="a"/><child link="b"/>)" +
                            limit + R"(<mimic joint="leader"/></joint>)";
  EXPECT_THAT(errorOf(twoLinks(joint)), AllOf(HasSubstr("joint 'follower'"), HasSubstr("'leader'")));
}

TEST(MalformedUrdf, BrokenXmlNamesLineAndColumn)
{
  EXPECT_THAT(errorOf("<robot name=\"r\">\n<link name=\"a\">\n</robot>"),
              AllOf(HasSubstr("test.urdf:"), HasSubstr("XML error")));
}

TEST(MalformedUrdf, RevoluteWithoutLimitsNamesTheJoint)
{
  const std::string joint =
      R"(<joint name="free" type="revolute"><parent link="a"/><child link="b"/></joint>)";
  EXPECT_THAT(errorOf(twoLinks(joint)), AllOf(HasSubstr("free"), HasSubstr("limits")));
}

TEST(MalformedUrdf, CoordinateOrderMustNameEveryIndependentJointOnce)
{
  ModelOptions options;
  options.coordinateOrder = {"shoulder", "slide", "elbow"};
  EXPECT_THAT(errorOf(mixedRobotUrdf(), options), HasSubstr("lacks the independent joint 'wrist'"));
  options.coordinateOrder = {"shoulder", "slide", "elbow", "wrist", "twin_joint"};
  EXPECT_THAT(errorOf(mixedRobotUrdf(), options), HasSubstr("'twin_joint'"));
  options.coordinateOrder = {"shoulder", "shoulder"};
  EXPECT_THAT(errorOf(mixedRobotUrdf(), options), HasSubstr("twice"));
}

TEST(MalformedUrdf, WellFormedTwoLinkRobotLoads)
{
  // The control case of the tests above: the same skeleton with valid content.
  const std::string joint = R"(<joint name="spin" type="revolute"><parent link="a"/><child link="b"/>
<axis xyz="0 0 2"/>)" + limit +
                            "</joint>";
  const Model model = buildModel(twoLinks(joint, mass));
  EXPECT_EQ(model.coordinateCount(), 1);
  EXPECT_EQ(model.body(1).axisKind, AxisKind::z);
}
} // namespace
// Found by Fuzz/UrdfFuzzer: a UTF-8 sequence cut off by the end of the text made TinyXML read past its buffer
// (AddressSanitizer: heap-buffer-overflow). Such text is refused before any parser sees it, at the bad byte.
TEST(MalformedUrdf, CutOffUtf8IsRefusedAtTheByte)
{
  const std::string cutOff = "<x" + std::string(10, 'g') + "\xd3" + std::string(36, 'g') + "->\xe4";
  EXPECT_THAT(errorOf(cutOff), HasSubstr("test.urdf:1:13: not valid UTF-8 text (byte 0xd3)"));
  EXPECT_THAT(errorOf("<robot name=\"r\">\n<link name=\"a\xe4\"/></robot>"),
              HasSubstr("test.urdf:2:14: not valid UTF-8 text (byte 0xe4)"));
  EXPECT_THAT(errorOf("<robot name=\"r\xc3\xa9\">\n<link name=\"a\">\n</robot>"),
              AllOf(HasSubstr("XML error"), Not(HasSubstr("UTF-8"))));
}

} // namespace nao::kinematics::test
