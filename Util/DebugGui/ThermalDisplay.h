#pragma once
// How the GUI shows JointThermalState (Src/Modules/Modeling/JointThermalStateProvider/README.md): the joint table's
// "status 1 in" cell (minutes to the first temperature status a joint has not reached, its colour and a tooltip with
// the estimate, the thresholds and their sources) and the 3D view's temperature colour of a joint's link. Both read
// the store's latest JointThermalState leaves, so a live robot and a log's frame look the same.
#include "Util/DebugGui/SeriesStore.h"
#include <QColor>
#include <QString>
#include <array>
#include <optional>

namespace nao::gui
{
/// Minutes left above which a joint is green, and below which it is red (yellow between): status 1 is 10 and 2
/// minutes away.
inline constexpr double thermalGreenSeconds = 600, thermalRedSeconds = 120;
/// °C at which the 3D view's temperature overlay is blue; red is at the joint's status-1 threshold.
inline constexpr double thermalBlueTemperature = 25;

struct ThermalCell
{
  /// "12 min", "4.5 min → 2", "∞", "now", "learning" (the module does not trust its forecast yet), "—" (no
  /// JointThermalState or no estimate yet)
  QString text;
  QColor colour; ///< green, yellow or red; grey while learning; invalid without an estimate
  QString toolTip;
};

/// The "status 1 in" cell of `joint` from the store's latest JointThermalState.
ThermalCell thermalCell(const SeriesStore& store, const std::string& joint);

/// The team view's "minutes left" cell from the store's latest ThermalBudget (ThermalBudgetProvider's README):
/// "12 min LKneePitch" (the first joint to reach status 1 at the present load), "∞" (none does), prefixed "rest: "
/// when the module says the robot should rest; "learning" (grey, the minutes in the tooltip) while the limiting
/// forecast is not trusted; "—" without an estimate, "…" before the first sample. Colours as thermalCell's; the
/// tooltip adds the minutes if it sat down now and the hottest joint.
ThermalCell thermalBudgetCell(const SeriesStore& store);

/// RGBA (0..1) of a joint at `temperature` °C: blue at thermalBlueTemperature, red at `threshold` and above, through
/// violet between.
std::array<float, 4> temperatureColour(double temperature, double threshold);

/// The estimated temperature and status-1 threshold (°C) of `joint` in the store, when it has an estimate.
std::optional<std::array<double, 2>> estimatedTemperature(const SeriesStore& store, const std::string& joint);
} // namespace nao::gui
