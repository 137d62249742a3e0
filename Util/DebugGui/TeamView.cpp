#include "Util/DebugGui/TeamView.h"
#include "Util/DebugGui/DisplayUnits.h"
#include "Util/DebugGui/ThermalDisplay.h"
#include <QHeaderView>

namespace nao::gui
{
namespace
{
const QStringList columns = {"robot",           "state",           "hottest joint",
                             "highest current", "heat adjustment", "minutes left"};

QString q(const std::string& text)
{
  return QString::fromStdString(text);
}
} // namespace

TeamView::TeamView(QWidget* parent) : QTableWidget(parent)
{
  setColumnCount(static_cast<int>(columns.size()));
  setHorizontalHeaderLabels(columns);
  horizontalHeader()->setStretchLastSection(true);
  verticalHeader()->hide();
  setEditTriggers(QAbstractItemView::NoEditTriggers);
}

TeamView::~TeamView() = default;

void TeamView::addRobot(const LinkTarget& target)
{
  auto robot = std::make_unique<Robot>();
  Robot* self = robot.get();
  self->name = target.host + ":" + std::to_string(target.port);
  self->link = std::make_unique<RobotLink>(
      target,
      [self](const debug::ListReply& list)
      {
        self->ready = true;
        self->error.clear();
        self->scenario = list.scenario;
        for (const auto& representation : list.representations)
        {
          self->store.setFields(representation.name, representation.fields);
          // Twice a second is enough to read; the joints always, the heat adjustment where the robot runs it.
          if (representation.name == "EnergySaving") self->heatProvider = representation.provider;
          if (representation.name == "ThermalBudget") self->budgetProvider = representation.provider;
          if (representation.provider.empty() || representation.provider.starts_with("off")) continue;
          if (representation.name == "JointSensorData" || representation.name == "EnergySaving" ||
              representation.name == "ThermalBudget" || representation.name == "FallDownState")
            self->link->retain(representation.name, 2);
        }
      },
      [self](const std::string& message) { self->error = message; });
  robots_.push_back(std::move(robot));
  setRowCount(static_cast<int>(robots_.size()));
  for (int column = 0; column < columnCount(); ++column)
    setItem(rowCount() - 1, column, new QTableWidgetItem);
  show(robots_.size() - 1);
}

void TeamView::pump()
{
  for (std::size_t row = 0; row < robots_.size(); ++row)
  {
    Robot& robot = *robots_[row];
    const std::vector<Sample> samples = robot.link->pump();
    for (const Sample& sample : samples)
      robot.store.setLatest(sample);
    show(row);
  }
}

void TeamView::show(std::size_t row)
{
  const Robot& robot = *robots_[row];
  QString state = robot.ready ? (robot.link->connected() ? "connected, scenario " + q(robot.scenario)
                                                         : QString("connection lost"))
                              : QString("connecting …");
  const std::string fall = robot.store.latest("FallDownState.state");
  if (robot.ready && !fall.empty() && fall != "upright" && fall != "staggering") state += ", " + q(fall);
  if (!robot.error.empty()) state = "error: " + q(robot.error);
  // The hottest joint and the highest current: a JointSensorData leaf per joint, in the file units (°C, mA).
  QString hottest, highest;
  double hottestValue = -1e9, highestValue = -1;
  const auto found = robot.store.fields().find("JointSensorData");
  if (found != robot.store.fields().end())
    for (const FieldDescription& field : found->second)
    {
      const bool temperature = field.path.starts_with("temperatures.");
      if (!temperature && !field.path.starts_with("currents.")) continue;
      const auto value = numericValue(robot.store.latest("JointSensorData." + field.path), "float");
      if (!value) continue;
      const DisplayUnit unit = displayUnit(field.unit);
      const QString joint = q(field.path.substr(field.path.find('.') + 1));
      const QString text =
          QString("%1 %2 %3").arg(joint).arg(*value * unit.scale, 0, 'f', 1).arg(q(unit.symbol));
      if (temperature && *value > hottestValue)
      {
        hottestValue = *value;
        hottest = text;
      }
      if (!temperature && std::abs(*value) > highestValue)
      {
        highestValue = std::abs(*value);
        highest = text;
      }
    }
  std::string heat = robot.store.latest("EnergySaving.state");
  // A robot that runs no heat adjustment says so ("off" in its scenario, or no such representation at all).
  if (heat.empty() && robot.ready)
    heat = robot.heatProvider.empty() || robot.heatProvider.starts_with("off") ? "not running" : "…";
  // Minutes until the first joint reaches status 1 (ThermalBudget), where the robot runs ThermalBudgetProvider.
  ThermalCell budget = thermalBudgetCell(robot.store);
  if (robot.ready && (robot.budgetProvider.empty() || robot.budgetProvider.starts_with("off")))
    budget = {"not running", QColor(), "no ThermalBudgetProvider in this robot's scenario"};
  const QStringList texts = {q(robot.name), state, hottest, highest, q(heat), budget.text};
  for (int column = 0; column < texts.size(); ++column)
    if (item(static_cast<int>(row), column)->text() != texts[column])
      item(static_cast<int>(row), column)->setText(texts[column]);
  QTableWidgetItem* minutes = item(static_cast<int>(row), static_cast<int>(columns.size()) - 1);
  minutes->setToolTip(budget.toolTip);
  minutes->setBackground(budget.colour.isValid() ? QBrush(budget.colour) : QBrush());
}

QString TeamView::cell(int robot, const QString& column) const
{
  const int index = static_cast<int>(columns.indexOf(column));
  if (robot < 0 || robot >= rowCount() || index < 0) return {};
  return item(robot, index)->text();
}
} // namespace nao::gui
