#pragma once
// How the GUI shows SensorHealth (Src/Modules/Sensing/SensorHealthProvider/README.md): the joint table's "reading"
// cell, the sensor strip above it (the sensors that are not joints, with the charge the robot believes) and the 3D
// view's "sensor health" overlay (a distrusted joint's link, a foot whose FSRs are distrusted, the distrusted sensors
// named in its corner). All read the store's latest SensorHealth leaves, so a live robot and a log's frame look the
// same.
#include "Representations/Infrastructure/Joints.h"
#include "Util/DebugGui/SeriesStore.h"
#include <QColor>
#include <QString>
#include <array>
#include <optional>
#include <vector>

namespace nao::gui
{
/// Hz of the GUI's SensorHealth subscription: a state that is not valid lasts at least the module's recoverAfter
/// (2 s), so ten samples a second miss none, at an eighth of the cost of every frame's 130 leaves.
inline constexpr float sensorHealthRateHz = 10;

struct HealthCell
{
  /// "ok", "suspect: flapping", "failed: notFollowing", "glitch" (valid, but this frame's value unusable), "—" (no
  /// SensorHealth, or no sample yet)
  QString text;
  QColor colour; ///< yellow suspect, red failed (the joint table's thermal yellow and red); invalid otherwise
  QString toolTip; ///< the state and since when, what the fault means, what the robot does about it
};

/// The joint table's "reading" cell of `joint` (its angle, current, temperature and status readings).
HealthCell jointHealthCell(const SeriesStore& store, const std::string& joint);

/// A sensor that is not a joint, as the sensor strip shows it.
struct SensorLabel
{
  std::string sensor; ///< SensorHealth's name: "gyroscope", ..., "chestButton"
  /// "gyroscope ok", "left FSRs failed (stuck)", "battery 87 %", "battery 87 % suspect (jump)", "IMU angles —"
  QString text;
  HealthCell cell;
};

/// Every sensor of SensorHealth that is not a joint, in its order; the battery's with the charge the robot believes.
std::vector<SensorLabel> sensorLabels(const SeriesStore& store);

/// The 3D view's "sensor health" overlay: RGBA (0..1) of each distrusted joint's link in its cell's colour; an ankle
/// roll's link is the foot, coloured by the worse of that joint and the foot's FSRs. None: the link keeps its colour.
JointArray<std::optional<std::array<float, 4>>> healthColours(const SeriesStore& store);

/// The 3D view's corner lines: each distrusted sensor that is not a joint ("gyroscope failed (stuck)") in its
/// colour, in SensorHealth's order; empty when every one is valid or there is no SensorHealth.
std::vector<std::pair<QString, QColor>> distrustedSensorLines(const SeriesStore& store);
} // namespace nao::gui
