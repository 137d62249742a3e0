#pragma once
// The team view: several robots' key values in one table, one row per robot (--team host:port, repeatable), each
// robot on a link of its own: its state, its hottest joint, the joint drawing the highest current, the heat
// adjustment's state (EnergySaving) and the minutes until its first joint reaches temperature status 1
// (ThermalBudget, thermalBudgetCell), sampled twice a second; the state says when the robot is not upright
// (FallDownState: "falling", "fallen", "lifted").
#include "Util/DebugGui/RobotLink.h"
#include "Util/DebugGui/SeriesStore.h"
#include <QTableWidget>
#include <memory>

namespace nao::gui
{
class TeamView : public QTableWidget
{
public:
  explicit TeamView(QWidget* parent = nullptr);
  ~TeamView() override;
  /// Adds a row and connects to the robot.
  void addRobot(const LinkTarget& target);
  /// Collects what the links received and updates the rows (the main window's timer calls it).
  void pump();
  int robotCount() const { return static_cast<int>(robots_.size()); }
  /// The text of a robot's column ("state", "hottest joint", "highest current", "heat adjustment",
  /// "minutes left"), for tests.
  QString cell(int robot, const QString& column) const;
  /// What a robot's link received: the latest value of each leaf it samples (JointSensorData, EnergySaving,
  /// ThermalBudget, FallDownState), for tests.
  const SeriesStore& store(int robot) const { return robots_.at(static_cast<std::size_t>(robot))->store; }

private:
  struct Robot
  {
    std::string name; ///< host:port
    std::unique_ptr<RobotLink> link;
    SeriesStore store;
    std::string scenario, error;
    std::string heatProvider;   ///< EnergySaving's provider ("off ...", "" when the robot has none)
    std::string budgetProvider; ///< ThermalBudget's provider, the same way
    bool ready = false;
  };
  void show(std::size_t row);
  std::vector<std::unique_ptr<Robot>> robots_;
};
} // namespace nao::gui
