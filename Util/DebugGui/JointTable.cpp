// The joint table of Views.h: a row per joint, a column per quantity the robot sends (request, reading, current,
// temperature, stiffness, the stages' offsets and guards, the thermal forecast, the readings' health).
#include "Util/DebugGui/Views.h"

#include "Util/DebugGui/DisplayUnits.h"
#include "Util/DebugGui/HealthDisplay.h"
#include "Util/DebugGui/ThermalDisplay.h"
#include <QHeaderView>
#include <algorithm>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}
} // namespace

JointTable::JointTable(QWidget* parent) : QTableWidget(parent)
{
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
}

std::map<std::string, float> JointTable::configure(const SeriesStore& store,
                                                   const std::map<std::string, std::string>& providers)
{
  const auto provided = [&](const std::string& representation)
  {
    if (!store.fields().contains(representation)) return false;
    const auto provider = providers.find(representation);
    return providers.empty() || (provider != providers.end() && !provider->second.empty());
  };
  // Titles without a unit: the unit and the scale come from the field list through displayUnit(), the same
  // conversion the plots make (mA, °, °C), so a cell and a plot of one sample show one number.
  const std::vector<Column> wanted = {
      {"request", "JointRequest", "angles"},
      {"measured", "JointSensorData", "angles"},
      {"current", "JointSensorData", "currents"},
      {"temperature", "JointSensorData", "temperatures"},
      {"status", "JointSensorData", "status", 1, true},
      {"stiffness request", "JointRequest", "stiffnesses"},
      {"stiffness measured", "JointSensorData", "stiffnesses"},
      {"heat offset", "EnergySaving", "offsets"},
      // The stages' guards ("do no harm"): a joint the stage made worse is held as without it, until the posture
      // changes (the README of EnergySavingProvider and of SmartStiffnessProvider).
      {"heat guard", "EnergySaving", "guard", 1, false, true, true},
      {"stiffness guard", "SmartStiffness", "guarded", 1, false, true, true},
      // JointThermalState's forecast: shown as "—" when the source lacks it.
      {"status 1 in", "JointThermalState", "hot.times", 1, false, true, false, true},
      // SensorHealth's check of each joint's readings ("trust no single reading"): shown as "—" without it.
      {"reading", "SensorHealth", "joints", 1, false, true, false, false, true},
  };
  columns_.clear();
  std::map<std::string, float> needed;
  for (Column column : wanted)
  {
    const FieldDescription* field = store.field(column.representation + "." + column.leafPrefix + ".HeadYaw" +
                                                (column.health ? ".state" : ""));
    const bool available = provided(column.representation) && field;
    if (column.thermal || column.health)
    {
      columns_.push_back(column);
      if (available) needed[column.representation] = column.health ? sensorHealthRateHz : 0;
      continue;
    }
    if (!available) continue;
    if (!column.status && !column.text)
    {
      const DisplayUnit shown = displayUnit(field->unit);
      column.scale = shown.scale;
      column.title = q(streams::labelWithUnit(column.title.toStdString(), shown.symbol));
    }
    columns_.push_back(column);
    needed[column.representation] = 0;
  }
  joints_.clear();
  if (const auto found = store.fields().find("JointSensorData"); found != store.fields().end())
    for (const FieldDescription& field : found->second)
      if (field.path.starts_with("angles.")) joints_.push_back(field.path.substr(7));
  layOut();
  return needed;
}

void JointTable::layOut()
{
  setColumnCount(static_cast<int>(columns_.size()));
  setRowCount(static_cast<int>(joints_.size()));
  QStringList titles, rows;
  for (const Column& column : columns_)
    titles << column.title;
  for (const std::string& joint : joints_)
    rows << q(joint);
  setHorizontalHeaderLabels(titles);
  setVerticalHeaderLabels(rows);
  for (int r = 0; r < rowCount(); ++r)
    for (int c = 0; c < columnCount(); ++c)
      setItem(r, c, new QTableWidgetItem(""));
  resizeColumnsToContents(); // as wide as the titles: every column in view at the window's default width
  for (std::size_t c = 0; c < columns_.size(); ++c)
    if (columns_[c].thermal) // room for its longest text, "12.3 min → 2"
      setColumnWidth(static_cast<int>(c), std::max(columnWidth(static_cast<int>(c)),
                                                   fontMetrics().horizontalAdvance("00.0 min → 0") + 12));
    else if (columns_[c].health) // room for its longest text
      setColumnWidth(static_cast<int>(c),
                     std::max(columnWidth(static_cast<int>(c)),
                              fontMetrics().horizontalAdvance("suspect: notFollowing") + 12));
}

void JointTable::refresh(const SeriesStore& store)
{
  for (std::size_t r = 0; r < joints_.size(); ++r)
  {
    QColor rowColour, thermalColour, healthColour;
    for (std::size_t c = 0; c < columns_.size(); ++c)
    {
      const Column& column = columns_[c];
      QTableWidgetItem* cellItem = item(static_cast<int>(r), static_cast<int>(c));
      if (column.thermal)
      {
        const ThermalCell thermal = thermalCell(store, joints_[r]);
        thermalColour = thermal.colour;
        if (cellItem->text() != thermal.text) cellItem->setText(thermal.text);
        if (cellItem->toolTip() != thermal.toolTip) cellItem->setToolTip(thermal.toolTip);
        continue;
      }
      if (column.health)
      {
        const HealthCell health = jointHealthCell(store, joints_[r]);
        healthColour = health.colour;
        if (cellItem->text() != health.text) cellItem->setText(health.text);
        if (cellItem->toolTip() != health.toolTip) cellItem->setToolTip(health.toolTip);
        continue;
      }
      const std::string text =
          store.latest(column.representation + "." + column.leafPrefix + "." + joints_[r]);
      QString shown = q(text);
      if (!column.status && !column.text && !text.empty())
        if (const auto value = numericValue(text, "float"))
          shown = QString::number(*value * column.scale, 'f', column.title.contains('[') ? 1 : 3);
      if (column.status)
      {
        // NaoFacts.md §18: the firmware limits the torque from `hot` on.
        if (text == "hot") rowColour = QColor(255, 230, 150);
        if (text == "veryHot") rowColour = QColor(255, 180, 120);
        if (text == "criticallyHot") rowColour = QColor(255, 120, 120);
      }
      if (cellItem->text() != shown) cellItem->setText(shown);
    }
    for (std::size_t c = 0; c < columns_.size(); ++c)
    {
      const Column& column = columns_[c];
      QTableWidgetItem* cellItem = item(static_cast<int>(r), static_cast<int>(c));
      const QString text = cellItem->text();
      // A guard that holds the joint (the stage made it worse): lilac, over the row's temperature colour.
      const bool guardHolds = column.guard && (text == "heldAtBest" || text == "heldAtZero" ||
                                               text == "restless" || text == "true");
      const QColor colour = column.thermal  ? thermalColour
                            : column.health ? healthColour
                            : guardHolds    ? QColor(220, 190, 255)
                                            : rowColour;
      cellItem->setBackground(colour.isValid() ? QBrush(colour) : QBrush());
    }
  }
}

QString JointTable::cell(const QString& joint, const QString& column) const
{
  const QTableWidgetItem* found = cellItem(joint, column);
  return found ? found->text() : QString();
}

const QTableWidgetItem* JointTable::cellItem(const QString& joint, const QString& column) const
{
  for (std::size_t r = 0; r < joints_.size(); ++r)
    for (std::size_t c = 0; c < columns_.size(); ++c)
      if (q(joints_[r]) == joint && columns_[c].title == column)
        return item(static_cast<int>(r), static_cast<int>(c));
  return nullptr;
}
} // namespace nao::gui
