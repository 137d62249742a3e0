// The per-robot mass calibration overlay: loading, effect on the model, and errors naming file:line:column
// and key.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/MassCalibration.h"
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

std::string defaultCalibrationPath()
{
  return std::string(NAO_CONFIG_DIR) + "/Robots/Default/massCalibration.toml";
}

Model naoWith(const MassCalibration& calibration)
{
  ModelOptions options;
  options.coordinateOrder = lolaJointOrder();
  options.massCalibration = calibration;
  return loadModel(naoUrdfPath(), options);
}

std::string errorOf(const std::string& toml)
{
  try
  {
    naoWith(parseMassCalibration(toml, "cal.toml"));
  }
  catch (const ModelError& error)
  {
    return error.what();
  }
  ADD_FAILURE() << "no ModelError for:\n" << toml;
  return {};
}

TEST(MassCalibration, DefaultFileListsEveryMassiveLinkWithZeros)
{
  const MassCalibration calibration = loadMassCalibration(defaultCalibrationPath());
  const Model plain = loadNao();
  int massiveLinks = 0;
  for (const Link& link : plain.links())
    massiveLinks += link.inertial.mass > 0.0;
  EXPECT_EQ(static_cast<int>(calibration.links.size()), massiveLinks);
  for (const LinkMassCalibration& entry : calibration.links)
  {
    EXPECT_EQ(entry.extraMass, 0.0) << entry.link;
    EXPECT_EQ(entry.centerOfMassOffset, Eigen::Vector3d::Zero()) << entry.link;
    EXPECT_GT(plain.link(plain.linkIndex(entry.link)).inertial.mass, 0.0) << entry.link;
  }
  const Model calibrated = naoWith(calibration);
  EXPECT_EQ(calibrated.totalMass(), plain.totalMass());
}

TEST(MassCalibration, ExtraMassAndOffsetMoveTheWholeBodyCenterOfMass)
{
  const Model plain = loadNao();
  const Model heavier = naoWith(parseMassCalibration(
      "[links]\ntorso = { extraMassKg = 0.1, comOffsetMm = [10, 0, -5.5] }\nHead = { extraMassKg = -0.05 }\n",
      "cal.toml"));
  EXPECT_NEAR(heavier.totalMass(), plain.totalMass() + 0.05, 1e-12);
  const Link& torso = heavier.link(heavier.linkIndex("torso"));
  EXPECT_NEAR(torso.inertial.mass, 1.04956 + 0.1, 1e-12);
  EXPECT_TRUE(
      torso.inertial.centerOfMass.isApprox(Eigen::Vector3d(-0.00413 + 0.010, 0, 0.04342 - 0.0055), 1e-12));

  Data plainData(plain), heavierData(heavier);
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(25);
  updateBodyPoses(plain, plainData, q);
  updateBodyPoses(heavier, heavierData, q);
  // Expected first moment: the old one, minus the old torso and head terms, plus the new ones (torso = base
  // frame; the head's link frame is at the neck, 126.5 mm up, at zero posture).
  const Eigen::Vector3d neck(0, 0, 0.1265);
  const Eigen::Vector3d headCom = neck + Eigen::Vector3d(0.00109, 0.00146, 0.05719);
  const Eigen::Vector3d expected = plain.totalMass() * updateCenterOfMass(plain, plainData) -
                                   1.04956 * Eigen::Vector3d(-0.00413, 0, 0.04342) +
                                   1.14956 * Eigen::Vector3d(0.00587, 0, 0.03792) - 0.05 * headCom;
  EXPECT_TRUE((heavier.totalMass() * updateCenterOfMass(heavier, heavierData)).isApprox(expected, 1e-12));
}

TEST(MassCalibration, SyntaxErrorNamesLineAndColumn)
{
  EXPECT_THAT(errorOf("[links]\ntorso = { extraMassKg = }\n"), HasSubstr("cal.toml:2:"));
}

TEST(MassCalibration, WrongTypeNamesTheKey)
{
  EXPECT_THAT(errorOf("[links]\ntorso = { extraMassKg = \"heavy\" }\n"),
              AllOf(HasSubstr("cal.toml:2:"), HasSubstr("links.torso.extraMassKg"), HasSubstr("number")));
}

TEST(MassCalibration, MisspelledKeyNamesTheKey)
{
  EXPECT_THAT(errorOf("[links]\ntorso = { comOffset = [0, 0, 0] }\n"),
              AllOf(HasSubstr("cal.toml:2:"), HasSubstr("links.torso.comOffset"), HasSubstr("unknown key")));
}

TEST(MassCalibration, OffsetNeedsThreeComponents)
{
  EXPECT_THAT(errorOf("[links]\n\ntorso = { comOffsetMm = [1, 2] }\n"),
              AllOf(HasSubstr("cal.toml:3:"), HasSubstr("links.torso.comOffsetMm"), HasSubstr("3 numbers")));
}

TEST(MassCalibration, UnknownLinkNamesFileLineAndKey)
{
  EXPECT_THAT(errorOf("# robot 42\n[links]\nTorso = { extraMassKg = 0.1 }\n"),
              AllOf(HasSubstr("cal.toml:3:"), HasSubstr("links.Torso"), HasSubstr("no such link")));
}

TEST(MassCalibration, ValuesOutsideTheirPhysicalRangeAreRefusedWithTheRange)
{
  EXPECT_THAT(errorOf("[links]\ntorso = { extraMassKg = 1e308 }\n"),
              AllOf(HasSubstr("cal.toml:2:"), HasSubstr("links.torso.extraMassKg"),
                    HasSubstr("1e+308 is out of range [-1, 1] kg")));
  EXPECT_THAT(errorOf("[links]\ntorso = { extraMassKg = -1.5 }\n"),
              HasSubstr("-1.5 is out of range [-1, 1] kg"));
  EXPECT_THAT(errorOf("[links]\ntorso = { comOffsetMm = [0, 250, 0] }\n"),
              AllOf(HasSubstr("cal.toml:2:"), HasSubstr("links.torso.comOffsetMm"),
                    HasSubstr("250 is out of range [-100, 100] mm")));
  EXPECT_NO_THROW(naoWith(parseMassCalibration(
      "[links]\ntorso = { extraMassKg = 1.0, comOffsetMm = [100, -100, 0] }\n", "cal.toml")))
      << "the ends of the ranges are allowed";
}

TEST(MassCalibration, NegativeResultingMassIsRejected)
{
  EXPECT_THAT(errorOf("[links]\nNeck = { extraMassKg = -1.0 }\n"),
              AllOf(HasSubstr("cal.toml:2:"), HasSubstr("links.Neck"), HasSubstr("negative")));
}
} // namespace
} // namespace nao::kinematics::test
