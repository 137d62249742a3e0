// The URDF reader against urdfdom, the reference parser (test-only dependency): every value a Model uses must be
// the same bits on the robots the tests load; and its own errors name the line.
#include "Tools/Files/BoundedFile.h"
#include "Tools/Kinematics/ModelError.h"
#include "Tools/Kinematics/Tests/TestModels.h"
#include "Tools/Kinematics/UrdfDocument.h"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

namespace nao::kinematics::test
{
namespace
{
using detail::readUrdf;
using detail::UrdfDocument;
using detail::UrdfJointType;
using ::testing::AllOf;
using ::testing::HasSubstr;

void expectSamePose(const detail::UrdfPose& ours, const urdf::Pose& reference, const std::string& what)
{
  EXPECT_EQ(ours.position.x(), reference.position.x) << what;
  EXPECT_EQ(ours.position.y(), reference.position.y) << what;
  EXPECT_EQ(ours.position.z(), reference.position.z) << what;
  EXPECT_EQ(ours.rotation.x(), reference.rotation.x) << what;
  EXPECT_EQ(ours.rotation.y(), reference.rotation.y) << what;
  EXPECT_EQ(ours.rotation.z(), reference.rotation.z) << what;
  EXPECT_EQ(ours.rotation.w(), reference.rotation.w) << what;
}

UrdfJointType typeOf(int urdfdomType)
{
  switch (urdfdomType)
  {
  case urdf::Joint::REVOLUTE:
    return UrdfJointType::revolute;
  case urdf::Joint::CONTINUOUS:
    return UrdfJointType::continuous;
  case urdf::Joint::PRISMATIC:
    return UrdfJointType::prismatic;
  case urdf::Joint::FLOATING:
    return UrdfJointType::floating;
  case urdf::Joint::PLANAR:
    return UrdfJointType::planar;
  default:
    return UrdfJointType::fixed;
  }
}

/// Every link, joint and value of `xml` as both parsers read it; returns how many joints were compared.
std::size_t expectSameAsUrdfdom(const std::string& xml)
{
  const UrdfDocument ours = readUrdf(xml, "test.urdf");
  const urdf::ModelInterfaceSharedPtr reference = urdf::parseURDF(xml);
  if (!reference) ADD_FAILURE() << "urdfdom cannot parse the test's URDF";
  if (!reference) return 0;
  EXPECT_EQ(ours.robotName, reference->getName());
  EXPECT_EQ(ours.rootLink, reference->getRoot()->name);
  EXPECT_EQ(ours.links.size(), reference->links_.size());
  EXPECT_EQ(ours.joints.size(), reference->joints_.size());
  for (const detail::UrdfLink& link : ours.links)
  {
    const urdf::LinkConstSharedPtr other = reference->getLink(link.name);
    if (!other) ADD_FAILURE() << "urdfdom has no link " << link.name;
    if (!other) continue;
    EXPECT_EQ(link.inertial.has_value(), other->inertial != nullptr) << link.name;
    if (!link.inertial || !other->inertial) continue;
    const urdf::Inertial& in = *other->inertial;
    expectSamePose(link.inertial->origin, in.origin, link.name + " inertial");
    EXPECT_EQ(link.inertial->mass, in.mass) << link.name;
    for (const auto& [a, b] : {std::pair{link.inertial->ixx, in.ixx},
                               {link.inertial->ixy, in.ixy},
                               {link.inertial->ixz, in.ixz},
                               {link.inertial->iyy, in.iyy},
                               {link.inertial->iyz, in.iyz},
                               {link.inertial->izz, in.izz}})
      EXPECT_EQ(a, b) << link.name;
  }
  for (const detail::UrdfJoint& joint : ours.joints)
  {
    const urdf::JointConstSharedPtr other = reference->getJoint(joint.name);
    if (!other) ADD_FAILURE() << "urdfdom has no joint " << joint.name;
    if (!other) continue;
    EXPECT_EQ(joint.type, typeOf(other->type)) << joint.name;
    EXPECT_EQ(joint.parent, other->parent_link_name) << joint.name;
    EXPECT_EQ(joint.child, other->child_link_name) << joint.name;
    expectSamePose(joint.origin, other->parent_to_joint_origin_transform, joint.name);
    if (joint.type != UrdfJointType::fixed)
    {
      EXPECT_EQ(joint.axis, Eigen::Vector3d(other->axis.x, other->axis.y, other->axis.z)) << joint.name;
    }
    EXPECT_EQ(joint.limits.has_value(), other->limits != nullptr) << joint.name;
    if (joint.limits && other->limits)
    {
      EXPECT_EQ(joint.limits->lower, other->limits->lower) << joint.name;
      EXPECT_EQ(joint.limits->upper, other->limits->upper) << joint.name;
      EXPECT_EQ(joint.limits->effort, other->limits->effort) << joint.name;
      EXPECT_EQ(joint.limits->velocity, other->limits->velocity) << joint.name;
    }
    EXPECT_EQ(joint.mimic.has_value(), other->mimic != nullptr) << joint.name;
    if (joint.mimic && other->mimic)
    {
      EXPECT_EQ(joint.mimic->joint, other->mimic->joint_name) << joint.name;
      EXPECT_EQ(joint.mimic->multiplier, other->mimic->multiplier) << joint.name;
      EXPECT_EQ(joint.mimic->offset, other->mimic->offset) << joint.name;
    }
  }
  return ours.joints.size();
}

TEST(UrdfDocument, NaoIsReadAsUrdfdomReadsIt)
{
  const std::string xml = files::readBoundedFile(naoUrdfPath());
  EXPECT_EQ(expectSameAsUrdfdom(xml), 62u);
  const UrdfDocument document = readUrdf(xml, "nao-v6.urdf");
  EXPECT_EQ(std::count_if(document.joints.begin(), document.joints.end(),
                          [](const detail::UrdfJoint& joint)
                          { return joint.type == UrdfJointType::revolute; }),
            26)
      << "25 LoLA joints and the mimic RHipYawPitch";
}

TEST(UrdfDocument, TestRobotsAreReadAsUrdfdomReadsThem)
{
  for (const std::string& xml : {mixedRobotUrdf(), ur3Urdf(), planarArmUrdf()})
    EXPECT_GT(expectSameAsUrdfdom(xml), 3u);
}

TEST(UrdfDocument, DefaultsAndNumberFormsAreUrdfdoms)
{
  // No origin, no axis, a continuous joint without limits, a mimic with defaults, '+' and exponents in numbers.
  const std::string xml = R"(<robot name="r"><link name="a"/><link name="b"><inertial><mass value="+1.5e0"/>
<inertia ixx="1e-3" ixy="0" ixz="-0" iyy=".5" iyz="0" izz="2."/></inertial></link><link name="c"/>
<joint name="spin" type="continuous"><parent link="a"/><child link="b"/></joint>
<joint name="follow" type="revolute"><parent link="b"/><child link="c"/><origin rpy="0.1  -0.2 3.0" xyz="1 2 3"/>
<axis xyz="0 0 1"/><limit effort="1" velocity="2"/><mimic joint="spin"/></joint></robot>)";
  expectSameAsUrdfdom(xml);
  const UrdfDocument document = readUrdf(xml, "test.urdf");
  EXPECT_EQ(document.joint("spin").axis, Eigen::Vector3d::UnitX());
  EXPECT_FALSE(document.joint("spin").limits.has_value());
  EXPECT_EQ(document.joint("follow").mimic->multiplier, 1.0);
  EXPECT_EQ(document.link("b").inertial->mass, 1.5);
}

std::string errorOf(const std::string& xml)
{
  try
  {
    readUrdf(xml, "test.urdf");
  }
  catch (const ModelError& error)
  {
    return error.what();
  }
  ADD_FAILURE() << "no ModelError for:\n" << xml;
  return {};
}

TEST(UrdfDocument, ErrorsNameTheLineAndTheElement)
{
  const std::string links = "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n";
  const std::string parentChild = R"(<parent link="a"/><child link="b"/>)";
  EXPECT_THAT(errorOf(links + "<link name=\"a\"/></robot>"),
              AllOf(HasSubstr("test.urdf:4: link 'a' is defined twice (also line 2)")));
  EXPECT_THAT(
      errorOf(links + R"(<joint name="j" type="fixed"><parent link="a"/><child link="x"/></joint></robot>)"),
      HasSubstr("test.urdf:4: joint 'j': no link 'x'"));
  EXPECT_THAT(errorOf(links + "</robot>"), AllOf(HasSubstr("2 root links"), HasSubstr("'a' (line 2)")));
  EXPECT_THAT(errorOf(links + R"(<joint name="j" type="revolute">)" + parentChild +
                      R"(<limit lower="-1" upper="1" velocity="1"/></joint></robot>)"),
              AllOf(HasSubstr("test.urdf:4: joint 'j'"), HasSubstr("'effort'")));
  EXPECT_THAT(errorOf(links + R"(<joint name="j" type="fixed">)" + parentChild +
                      "\n<origin xyz=\"1 2\"/></joint></robot>"),
              AllOf(HasSubstr("test.urdf:5: joint 'j'"), HasSubstr("2 numbers, 3 expected")));
  EXPECT_THAT(errorOf(links + R"(<joint name="j" type="fixed">)" + parentChild +
                      "<origin xyz=\"1 2 3m\"/></joint></robot>"),
              AllOf(HasSubstr("joint 'j'"), HasSubstr("'3m' is not a number")));
  EXPECT_THAT(errorOf(links + R"(<joint type="fixed">)" + parentChild + "</joint></robot>"),
              AllOf(HasSubstr("test.urdf:4: a <joint>"), HasSubstr("'name'")));
  EXPECT_THAT(errorOf(links + R"(<joint name="j" type="fixed"><parent link="a"/></joint></robot>)"),
              HasSubstr("joint 'j': has no <child>"));
  EXPECT_THAT(errorOf("<robot>\n<link name=\"a\"/></robot>"),
              HasSubstr("the robot: <robot> has no attribute 'name'"));
}
} // namespace
} // namespace nao::kinematics::test
