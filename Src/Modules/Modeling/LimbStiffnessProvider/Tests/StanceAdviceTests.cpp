// Posture advice for stance (Tools/Stiffness/StanceAdvice.h) on this robot's description: the advised stand
// lowers the static model's knee and ankle torques below B-Human's stand and the high stand, is a minimum of its
// grid, and is the posture Config/Scenarios/standadvised.toml holds (README.md of this module, "Posture advice").
#include "Framework/RobotDescription.h"
#include "Framework/ScenarioScript.h"
#include "Framework/Testing/ModuleHarness.h"
#include "Tools/Stiffness/StanceAdvice.h"
#include "Tools/Stiffness/StiffnessError.h"
#include <gtest/gtest.h>
#include <iomanip>
#include <iostream>
#include <numbers>

using namespace nao;

namespace
{
constexpr double degree = std::numbers::pi / 180.0;

struct Nao
{
  RobotDescription robot = RobotDescription::load(testConfigFiles());
  const kinematics::Model& model = robot.model;
  /// The legs, soles and the stand scenarios' arms (shoulder pitch 90°, roll ±7°, elbow roll ∓2.5°, wrist yaw
  /// ∓90°), legs as given: what `Simulator stances` evaluates too.
  stiffness::NaoStance stance = stiffness::naoStance(model);
  kinematics::FeetSupport& feet = stance.feet;
  std::array<stiffness::LegPitchJoints, 2>& legs = stance.legs;
  std::array<int, 2>& ankleRolls = stance.ankleRolls;
  Eigen::VectorXd& base = stance.base;

  stiffness::StanceEvaluation evaluate(double knee, double ankle)
  {
    kinematics::Data data(model);
    Eigen::VectorXd q = base;
    return stiffness::evaluateStance(model, data, q, legs, ankleRolls, feet, {knee, ankle});
  }
};

/// The usual stands: knee from the high stand's 14° to 60°, ankle pitch -45°..0°, 0.5° grid, the centre of mass
/// at least 25 mm inside the sole's heel (50 mm behind the ankle) and toe (100 mm ahead) edges.
const stiffness::StanceRange usualRange = stiffness::usualStanceRange();

void print(const char* name, const stiffness::StanceEvaluation& e)
{
  std::cout << std::fixed << std::setprecision(2) << name << ": hip " << e.posture.hipPitch() / degree
            << "°, knee " << e.posture.kneePitch / degree << "°, ankle " << e.posture.anklePitch / degree
            << "° | torques (left) hip " << std::setprecision(3) << e.hipPitchTorques[0] << ", knee "
            << e.kneePitchTorques[0] << ", ankle pitch " << e.anklePitchTorques[0] << " N·m | squared "
            << std::setprecision(4) << e.squaredSum << " (N·m)², absolute " << e.absoluteSum << " N·m | CoM "
            << std::setprecision(1) << 1000 * e.centerOfMassX << " mm ahead of the ankles\n";
}
} // namespace

TEST(StanceAdvice, TheAdvisedStandNeedsLessKneeAndAnkleTorqueThanStandAndHighStand)
{
  Nao nao;
  const stiffness::StanceEvaluation stand = nao.evaluate(48.0313 * degree, -27.9829 * degree);
  const stiffness::StanceEvaluation highStand = nao.evaluate(14 * degree, -7 * degree);
  const stiffness::StanceEvaluation advised =
      stiffness::adviseStance(nao.model, nao.base, nao.legs, nao.ankleRolls, nao.feet, usualRange);
  print("stand     ", stand);
  print("highstand ", highStand);
  print("advised   ", advised);
  // The high stand is nearly the advice already (its knee is the range's straightest); B-Human's stand needs ten
  // times the torque.
  EXPECT_LT(advised.objective, highStand.objective);
  EXPECT_LT(advised.objective, 0.2 * stand.objective);
  for (std::size_t side = 0; side < 2; ++side)
  {
    EXPECT_LT(std::abs(advised.kneePitchTorques[side]), std::abs(stand.kneePitchTorques[side]));
    EXPECT_LT(std::abs(advised.anklePitchTorques[side]), std::abs(stand.anklePitchTorques[side]));
    EXPECT_NEAR(advised.kneePitchTorques[side], advised.kneePitchTorques[1 - side], 0.02) << "symmetric";
  }
  // A minimum of the grid: no neighbour within the range is better.
  for (const auto& [dk, da] : {std::pair{1, 0}, std::pair{-1, 0}, std::pair{0, 1}, std::pair{0, -1}})
  {
    const double knee = advised.posture.kneePitch + dk * usualRange.step;
    const double ankle = advised.posture.anklePitch + da * usualRange.step;
    if (knee < usualRange.kneeMin - 1e-9 || knee > usualRange.kneeMax + 1e-9 ||
        ankle < usualRange.ankleMin - 1e-9 || ankle > usualRange.ankleMax + 1e-9)
      continue;
    EXPECT_GE(nao.evaluate(knee, ankle).objective, advised.objective) << dk << " " << da;
  }
}

TEST(StanceAdvice, SummingAbsoluteTorquesPutsTheCentreOfMassOverTheAnkles)
{
  // Currents are linear in torque: by the absolute sum the advice moves the ankle's load to zero and keeps the
  // high stand's knee; its sum is below the high stand's and the squared advice's.
  Nao nao;
  stiffness::StanceRange absolute = usualRange;
  absolute.objective = stiffness::StanceObjective::absoluteTorques;
  const stiffness::StanceEvaluation advised =
      stiffness::adviseStance(nao.model, nao.base, nao.legs, nao.ankleRolls, nao.feet, absolute);
  const stiffness::StanceEvaluation squared =
      stiffness::adviseStance(nao.model, nao.base, nao.legs, nao.ankleRolls, nao.feet, usualRange);
  print("advised by |tau|", advised);
  EXPECT_NEAR(advised.posture.kneePitch, usualRange.kneeMin, 1e-12);
  EXPECT_LT(std::abs(advised.anklePitchTorques[0]), 0.02);
  EXPECT_LT(std::abs(advised.centerOfMassX), 0.003);
  EXPECT_LT(advised.absoluteSum, nao.evaluate(14 * degree, -7 * degree).absoluteSum);
  EXPECT_LT(advised.absoluteSum, squared.absoluteSum);
  EXPECT_DOUBLE_EQ(advised.objective, advised.absoluteSum);
  EXPECT_DOUBLE_EQ(squared.objective, squared.squaredSum);
}

TEST(StanceAdvice, TheAdvisedScenariosHoldTheAdvisedPostures)
{
  Nao nao;
  for (const auto& [scenario, objective] :
       {std::pair{"standadvised", stiffness::StanceObjective::squaredTorques},
        std::pair{"standadvisedabs", stiffness::StanceObjective::absoluteTorques}})
  {
    SCOPED_TRACE(scenario);
    stiffness::StanceRange range = usualRange;
    range.objective = objective;
    const stiffness::StanceEvaluation advised =
        stiffness::adviseStance(nao.model, nao.base, nao.legs, nao.ankleRolls, nao.feet, range);
    const ScenarioScript script = ScenarioScript::load(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios" /
                                                       (std::string(scenario) + ".toml"));
    const ScriptPose& held = script.pose("advised");
    for (const Joint side : {Joint::LHipPitch, Joint::RHipPitch})
      EXPECT_NEAR(held.angles[side], advised.posture.hipPitch(), 0.01 * degree);
    for (const Joint side : {Joint::LKneePitch, Joint::RKneePitch})
      EXPECT_NEAR(held.angles[side], advised.posture.kneePitch, 0.01 * degree);
    for (const Joint side : {Joint::LAnklePitch, Joint::RAnklePitch})
      EXPECT_NEAR(held.angles[side], advised.posture.anklePitch, 0.01 * degree);
  }
}

TEST(StanceAdvice, ARangeWithoutAStandablePostureIsNamed)
{
  Nao nao;
  stiffness::StanceRange impossible = usualRange;
  impossible.centerOfMassMinX = 0.2; // 200 mm ahead of the ankles: beyond the toes
  try
  {
    stiffness::adviseStance(nao.model, nao.base, nao.legs, nao.ankleRolls, nao.feet, impossible);
    FAIL() << "no error";
  }
  catch (const stiffness::StiffnessError& error)
  {
    EXPECT_NE(std::string(error.what()).find("centre of mass 0.2..0.075 m forward of the ankles"),
              std::string::npos)
        << error.what();
  }
}
