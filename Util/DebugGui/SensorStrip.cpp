#include "Util/DebugGui/SensorStrip.h"
#include <QHBoxLayout>
#include <QLabel>

namespace nao::gui
{
SensorStrip::SensorStrip(QWidget* parent) : QWidget(parent)
{
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->setSpacing(6);
  auto* title = new QLabel("sensors:");
  title->setToolTip(
      "SensorHealth: how far the robot trusts each sensor (SensorHealthProvider's README); the joints' "
      "readings are the joint table's \"reading\" column");
  layout->addWidget(title);
  for (const SensorLabel& sensor : sensorLabels(SeriesStore{}))
  {
    auto* label = new QLabel;
    label->setObjectName(QString::fromStdString("sensor-" + sensor.sensor));
    layout->addWidget(label);
    labels_[sensor.sensor].label = label;
  }
  layout->addStretch(1);
  refresh(SeriesStore{});
}

void SensorStrip::refresh(const SeriesStore& store)
{
  for (SensorLabel& sensor : sensorLabels(store))
  {
    Shown& shown = labels_[sensor.sensor];
    if (shown.label->text() == sensor.text && shown.shown.cell.colour == sensor.cell.colour &&
        shown.shown.cell.toolTip == sensor.cell.toolTip)
      continue; // unchanged: no restyle 60 times a second
    shown.label->setText(sensor.text);
    shown.label->setToolTip(sensor.cell.toolTip);
    // A framed chip each: a valid sensor's plain, a distrusted one's in the joint table's yellow or red.
    shown.label->setStyleSheet(
        QString("QLabel { border: 1px solid palette(mid); border-radius: 3px; padding: 1px 6px; %1 }")
            .arg(sensor.cell.colour.isValid() ? "background: " + sensor.cell.colour.name() + ";"
                                              : QString()));
    shown.shown = std::move(sensor);
  }
}

QString SensorStrip::text(const std::string& sensor) const
{
  const auto found = labels_.find(sensor);
  return found == labels_.end() ? QString() : found->second.label->text();
}

QColor SensorStrip::colour(const std::string& sensor) const
{
  const auto found = labels_.find(sensor);
  return found == labels_.end() ? QColor() : found->second.shown.cell.colour;
}

QString SensorStrip::toolTip(const std::string& sensor) const
{
  const auto found = labels_.find(sensor);
  return found == labels_.end() ? QString() : found->second.label->toolTip();
}
} // namespace nao::gui
