#pragma once
// The sensors that are not joints at a glance, in a row above the joint table: gyroscope, accelerometer, IMU angles,
// each foot's FSRs, the battery with the charge the robot believes, the chest button; each "ok" or its state and
// fault, yellow while suspect, red when failed, its tooltip saying since when and what the fault means
// (HealthDisplay.h; "—" without SensorHealth).
#include "Util/DebugGui/HealthDisplay.h"
#include <QWidget>
#include <map>

class QLabel;

namespace nao::gui
{
class SensorStrip : public QWidget
{
public:
  explicit SensorStrip(QWidget* parent = nullptr);
  /// Shows the store's latest SensorHealth (the main window's timer calls it, and a log's timeline).
  void refresh(const SeriesStore& store);
  /// What a sensor's label shows ("gyroscope", "battery", ... as SensorHealth names them), for tests.
  QString text(const std::string& sensor) const;
  QColor colour(const std::string& sensor) const; ///< invalid while valid or without SensorHealth
  QString toolTip(const std::string& sensor) const;

private:
  struct Shown
  {
    QLabel* label = nullptr;
    SensorLabel shown;
  };
  std::map<std::string, Shown> labels_;
};
} // namespace nao::gui
