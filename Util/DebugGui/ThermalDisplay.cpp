#include "Util/DebugGui/ThermalDisplay.h"
#include <algorithm>
#include <cmath>

namespace nao::gui
{
namespace
{
const char* const statusNames[] = {"hot", "veryHot", "criticallyHot"};
const char* const statusTitles[] = {"hot", "very hot", "critically hot"};

std::optional<double> number(const SeriesStore& store, const std::string& leaf)
{
  return numericValue(store.latest("JointThermalState." + leaf), "float");
}

/// "12 min" from 600 s on, "4.5 min" below, "∞" when it never gets there.
QString minutes(double seconds)
{
  if (!std::isfinite(seconds)) return "∞";
  const double value = seconds / 60;
  return QString::number(value, 'f', seconds >= thermalGreenSeconds ? 0 : 1) + " min";
}

QString degrees(double value)
{
  return QString::number(value, 'f', 1) + " °C";
}
} // namespace

std::optional<std::array<double, 2>> estimatedTemperature(const SeriesStore& store, const std::string& joint)
{
  const std::string valid = store.latest("JointThermalState.valid." + joint);
  if (valid != "true" && valid != "1") return std::nullopt;
  const auto temperature = number(store, "temperatures." + joint);
  const auto threshold = number(store, "hot.thresholds." + joint);
  if (!temperature || !threshold || !std::isfinite(*temperature)) return std::nullopt;
  return std::array<double, 2>{*temperature, *threshold};
}

ThermalCell thermalCell(const SeriesStore& store, const std::string& joint)
{
  ThermalCell cell{"—", QColor(), ""};
  if (!store.fields().contains("JointThermalState"))
  {
    cell.toolTip =
        "no JointThermalState from this source (JointThermalStateProvider runs in the default graph; "
        "a log holds it when its scenario's [Log] representations name it)";
    return cell;
  }
  const auto estimate = estimatedTemperature(store, joint);
  if (!estimate)
  {
    cell.toolTip = QString::fromStdString(joint) + ": no estimate yet (no plausible temperature reading)";
    return cell;
  }
  const double deviation = number(store, "temperatureStdDevs." + joint).value_or(NAN);
  QString tip = QString::fromStdString(joint) + ": " + QString::number((*estimate)[0], 'f', 1) + " ± " +
                QString::number(deviation, 'f', 1) + " °C, at " +
                QString::number(number(store, "rmsCurrents." + joint).value_or(NAN) * 1000, 'f', 0) +
                " mA heading for " +
                QString::number(number(store, "steadyTemperatures." + joint).value_or(NAN), 'f', 1) + " ± " +
                degrees(number(store, "steadyStdDevs." + joint).value_or(NAN));
  std::array<double, 3> times{};
  for (std::size_t s = 0; s < 3; ++s)
  {
    const std::string prefix = std::string(statusNames[s]) + ".";
    times[s] = number(store, prefix + "times." + joint).value_or(INFINITY);
    const std::string source = store.latest("JointThermalState." + prefix + "sources." + joint);
    tip += QString("\nstatus %1 (%2) at %3 (%4): %5")
               .arg(s + 1)
               .arg(statusTitles[s])
               .arg(degrees(number(store, prefix + "thresholds." + joint).value_or(NAN)))
               .arg(QString::fromStdString(source.empty() ? "?" : source))
               .arg(times[s] <= 0 ? QString("reached") : minutes(times[s]));
  }
  // The module's confidence: "learning" while the forecast's standard deviation exceeds its learningSpread of the
  // time left (right after a load step, the slow nodes not yet seen), so that no early guess shows as a red time.
  const std::string learningLeaf = store.latest("JointThermalState.learning." + joint);
  const bool learning = learningLeaf == "true" || learningLeaf == "1";
  const double spread = number(store, "timeStdDevs." + joint).value_or(NAN);
  tip += learning ? QString("\nforecast still learning (± %1)").arg(minutes(spread))
                  : QString("\nforecast ± %1").arg(minutes(spread));
  // The named posture's forecast ("if it sat down now"): when the joint is back below each status it is in.
  const std::string posture = store.latest("JointThermalState.posture.name");
  if (!posture.empty() && posture != "none" && posture != "0")
  {
    tip += QString("\nif it took the posture '%1' now: settles at %2")
               .arg(QString::fromStdString(posture))
               .arg(degrees(number(store, "posture.steadyTemperatures." + joint).value_or(NAN)));
    for (std::size_t s = 0; s < 3; ++s)
    {
      if (!(times[s] <= 0)) break; // only the statuses it is in
      const double clear =
          number(store, "posture.clearTimes." + std::to_string(s) + "." + joint).value_or(INFINITY);
      tip += QString(", below status %1 in %2").arg(s + 1).arg(minutes(clear));
    }
  }
  cell.toolTip = tip + "\n(at the present load; prior thresholds are guesses, not firmware facts)";
  // The first status not reached yet; its number when it is not 1.
  const auto next = std::find_if(times.begin(), times.end(), [](double t) { return !(t <= 0); });
  if (next == times.end())
    cell.text = "now";
  else
  {
    cell.text = minutes(*next);
    if (next != times.begin()) cell.text += QString(" → %1").arg(next - times.begin() + 1);
  }
  if (learning && next != times.end())
  {
    cell.text = "learning";
    cell.colour = QColor(215, 215, 215);
    return cell;
  }
  const double first = times[0];
  cell.colour = first <= 0 || first < thermalRedSeconds ? QColor(255, 120, 120)
                : first <= thermalGreenSeconds          ? QColor(255, 230, 110)
                                                        : QColor(150, 230, 150);
  return cell;
}

ThermalCell thermalBudgetCell(const SeriesStore& store)
{
  const auto flag = [&](const char* leaf)
  {
    const std::string value = store.latest(std::string("ThermalBudget.") + leaf);
    return value == "true" || value == "1";
  };
  const auto value = [&](const char* leaf)
  { return numericValue(store.latest(std::string("ThermalBudget.") + leaf), "float").value_or(NAN); };
  if (store.latest("ThermalBudget.estimated").empty())
    return {"…", QColor(), "no ThermalBudget received yet"};
  if (!flag("estimated")) return {"—", QColor(), "no joint has a temperature estimate yet"};
  const double left = value("minutesLeft") * 60;
  const bool limited = flag("limited");
  QString text =
      limited ? minutes(left) + " " + QString::fromStdString(store.latest("ThermalBudget.limitingJoint"))
              : QString("∞");
  QString tip = QString("until the first joint reaches status 1 at the present load: %1").arg(text);
  tip +=
      QString("\nif it sat down now: %1%2")
          .arg(minutes(value("minutesIfSitting") * 60))
          .arg(flag("sittingForecast") ? ""
                                       : " (no sitting posture forecast: the present load's, a lower bound)");
  tip += flag("standingForecast")
             ? QString("\nif it stood: %1%2")
                   .arg(minutes(value("minutesIfStanding") * 60))
                   .arg(flag("standing") ? " (it stands)" : " (at its last stand's load)")
             : QString("\nif it stood: unknown (no stand seen yet)");
  tip += QString("\nhottest: %1 %2")
             .arg(QString::fromStdString(store.latest("ThermalBudget.hottestJoint")))
             .arg(degrees(value("hottestTemperature")));
  if (flag("learning"))
    return {"learning", QColor(215, 215, 215),
            tip + "\nthe limiting forecast is still learning: not a promise"};
  if (flag("shouldRest")) text = "rest: " + text;
  const QColor colour = !limited                      ? QColor(150, 230, 150)
                        : left < thermalRedSeconds    ? QColor(255, 120, 120)
                        : left <= thermalGreenSeconds ? QColor(255, 230, 110)
                                                      : QColor(150, 230, 150);
  return {text, colour, tip};
}

std::array<float, 4> temperatureColour(double temperature, double threshold)
{
  const double span = threshold - thermalBlueTemperature;
  const double x = span > 0 && std::isfinite(temperature)
                       ? std::clamp((temperature - thermalBlueTemperature) / span, 0.0, 1.0)
                       : (temperature >= threshold ? 1.0 : 0.0);
  return {static_cast<float>(0.1 + 0.85 * x), 0.1f, static_cast<float>(0.95 - 0.85 * x), 1.0f};
}
} // namespace nao::gui
