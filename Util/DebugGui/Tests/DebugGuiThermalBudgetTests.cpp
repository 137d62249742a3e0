// The team view's "minutes left" cell (thermalBudgetCell) from ThermalBudgets the robot's own serialisation wrote:
// a trusted limit, one that says rest, one still learning, none at this load, no estimate, nothing received; and a
// joint's thermal cell (thermalCell) from a JointThermalState.
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/ThermalBudget.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include "Util/DebugGui/Tests/ReceiveRepresentation.h"
#include "Util/DebugGui/ThermalDisplay.h"

using namespace nao;
using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
const QColor red(255, 120, 120), yellow(255, 230, 110), green(150, 230, 150), grey(215, 215, 215);

ThermalBudget trustedLimit(float minutes)
{
  ThermalBudget budget;
  budget.estimated = true;
  budget.limited = true;
  budget.learning = false;
  budget.minutesLeft = minutes;
  budget.limitingJoint = Joint::LKneePitch;
  budget.hottestJoint = Joint::RAnklePitch;
  budget.hottestTemperature = 61.5f;
  budget.minutesIfSitting = 40.f;
  budget.sittingForecast = true;
  return budget;
}

ThermalCell cellOf(const ThermalBudget& budget)
{
  SeriesStore store;
  receive(store, "ThermalBudget", budget);
  return thermalBudgetCell(store);
}
} // namespace

TEST(DebugGuiThermalBudget, TheMinutesLeftCellSaysWhatTheRobotsBudgetSays)
{
  const ThermalCell later = cellOf(trustedLimit(25.f));
  EXPECT_EQ(later.text.toStdString(), "25 min LKneePitch");
  EXPECT_EQ(later.colour, green);
  EXPECT_TRUE(later.toolTip.contains("if it sat down now: 40 min")) << later.toolTip.toStdString();
  EXPECT_TRUE(later.toolTip.contains("hottest: RAnklePitch 61.5 °C")) << later.toolTip.toStdString();
  EXPECT_TRUE(later.toolTip.contains("if it stood: unknown (no stand seen yet)"))
      << later.toolTip.toStdString();
  ThermalBudget stood = trustedLimit(25.f);
  stood.standingForecast = true;
  stood.minutesIfStanding = 8.f;
  EXPECT_TRUE(cellOf(stood).toolTip.contains("if it stood: 8.0 min (at its last stand's load)"))
      << cellOf(stood).toolTip.toStdString();

  EXPECT_EQ(cellOf(trustedLimit(6.f)).colour, yellow);
  ThermalBudget rest = trustedLimit(1.5f);
  rest.shouldRest = true;
  const ThermalCell soon = cellOf(rest);
  EXPECT_EQ(soon.text.toStdString(), "rest: 1.5 min LKneePitch");
  EXPECT_EQ(soon.colour, red);

  // A learning forecast never shows a minute as if it were a promise, however short.
  ThermalBudget learning = trustedLimit(1.f);
  learning.learning = true;
  const ThermalCell guess = cellOf(learning);
  EXPECT_EQ(guess.text.toStdString(), "learning");
  EXPECT_EQ(guess.colour, grey);

  ThermalBudget never = trustedLimit(0.f);
  never.limited = false;
  never.minutesLeft = std::numeric_limits<float>::infinity();
  EXPECT_EQ(cellOf(never).text.toStdString(), "∞");
  EXPECT_EQ(cellOf(ThermalBudget{}).text.toStdString(), "—") << "no joint has an estimate";
  EXPECT_EQ(thermalBudgetCell(SeriesStore{}).text.toStdString(), "…") << "nothing received";
}

TEST(DebugGuiThermalBudget, AJointsCellShowsWhereItSettlesAndHowSureTheFitIs)
{
  JointThermalState state;
  state.valid[Joint::LKneePitch] = true;
  state.temperatures[Joint::LKneePitch] = 61.5f;
  state.temperatureStdDevs[Joint::LKneePitch] = 0.2f;
  state.rmsCurrents[Joint::LKneePitch] = 1.1f;
  state.steadyTemperatures[Joint::LKneePitch] = 85.f;
  state.steadyStdDevs[Joint::LKneePitch] = 2.5f;
  SeriesStore store;
  receive(store, "JointThermalState", state);
  const ThermalCell cell = thermalCell(store, "LKneePitch");
  EXPECT_TRUE(cell.toolTip.contains("61.5 ± 0.2 °C, at 1100 mA heading for 85.0 ± 2.5 °C"))
      << cell.toolTip.toStdString();
}
