#include "Util/DebugGui/HealthDisplay.h"
#include "Representations/Sensing/SensorHealth.h"
#include <algorithm>
#include <cmath>

namespace nao::gui
{
namespace
{
// The joint table's yellow and red (ThermalDisplay.cpp): one meaning of a colour across the table.
const QColor suspectColour(255, 230, 110), failedColour(255, 120, 120);

constexpr std::string_view representation = "SensorHealth";

/// What a fault means for this kind of reading (SensorHealthProvider's README, "The checks"); `sensor` is a Sensor's
/// name, or "" for a joint.
QString faultMeaning(std::string_view sensor, std::string_view fault)
{
  struct Meaning
  {
    std::string_view sensor, fault;
    const char* text;
  };
  // The specific meanings first; a sensor of "*" is any sensor or joint.
  static constexpr Meaning meanings[] = {
      {"gyroscope", "outOfRange", "a rate beyond its range (about 500 °/s)"},
      {"gyroscope", "disagrees",
       "the turn it measured while the torso was still tilts gravity otherwise than the "
       "accelerometer saw"},
      {"accelerometer", "outOfRange",
       "a component beyond its range, or its norm far from g for longer than any "
       "motion lasts"},
      {"accelerometer", "disagrees", "at rest, its tilt disagrees with the soles' on the floor"},
      {"imuAngles", "disagrees",
       "at rest, LoLA's Angles disagree with the tilt of the accelerometer or the soles"},
      {"leftFsr", "stuck", "the foot's four readings repeat exactly (dead or disconnected FSRs)"},
      {"rightFsr", "stuck", "the foot's four readings repeat exactly (dead or disconnected FSRs)"},
      {"leftFsr", "outOfRange", "a reading below zero or beyond the FSR's range"},
      {"rightFsr", "outOfRange", "a reading below zero or beyond the FSR's range"},
      {"battery", "outOfRange", "a charge outside 0..1"},
      {"battery", "jump",
       "the charge moved by more than the battery's current drew: the believed charge is "
       "counted from the current"},
      {"chestButton", "heldTooLong",
       "pressed longer than any press (3 s): stuck, or held down; no press counts"},
      {"chestButton", "flapping", "it bounces, changing too often within a second; no press counts"},
      {"", "notFinite", "an angle, current or temperature reading is NaN or infinite"},
      {"", "outOfRange", "a temperature status outside 0..3"},
      {"", "flapping", "its temperature status changes more often than a winding's temperature can"},
      {"", "jump", "its temperature jumped by more in one frame than a winding's can"},
      {"*", "notFinite", "a reading is NaN or infinite"},
      {"*", "outOfRange", "a reading beyond what the sensor can measure"},
      {"*", "stuck", "the very same reading for longer than its noise allows"},
      {"*", "jump", "changed faster than physics allows"},
      {"*", "disagrees", "contradicts an independent sensor"},
      {"*", "heldTooLong", "held longer than any press"},
      {"*", "flapping", "changes more often than the quantity can"},
      {"*", "notFollowing",
       "the angle reading stays put while its stiff motor's request moved (a stuck encoder)"},
  };
  for (const Meaning& meaning : meanings)
    if ((meaning.sensor == sensor || meaning.sensor == "*") && meaning.fault == fault) return meaning.text;
  return "the check that failed last";
}

/// The cell of the check whose leaves start with `prefix` ("SensorHealth.joints.LKneePitch."); `subject` names it
/// in the tooltip, `sensor` is its Sensor's name ("" for a joint).
HealthCell healthCell(const SeriesStore& store, const std::string& prefix, const QString& subject,
                      std::string_view sensor)
{
  HealthCell cell{"—", QColor(), ""};
  if (!store.fields().contains(std::string(representation)))
  {
    cell.toolTip =
        "no SensorHealth from this source (SensorHealthProvider runs in the default graph; a log holds "
        "it when its scenario's [Log] representations name it)";
    return cell;
  }
  const std::string state = store.latest(prefix + "state");
  if (state.empty())
  {
    cell.toolTip = subject + ": no SensorHealth sample yet";
    return cell;
  }
  const std::string fault = store.latest(prefix + "fault");
  const std::string usable = store.latest(prefix + "usable");
  const auto since = numericValue(store.latest(prefix + "since"), "float");
  const QString when = since && *since > 0 ? QString(" since %1 s").arg(*since, 0, 'f', 2) : QString();
  const QString faultName = QString::fromStdString(fault);
  if (state == "valid")
  {
    const bool glitch = usable == "false" || usable == "0";
    cell.text = glitch ? "glitch" : "ok";
    cell.toolTip =
        subject + ": valid" + when + " (its readings agree with physics and with the other sensors)";
    if (glitch)
      cell.toolTip +=
          "\nthis frame's value is unusable (unreadable or beyond range): the body keeps its last good "
          "value; a glitch that lasts fails the sensor";
    return cell;
  }
  const bool failed = state == "failed";
  cell.text = QString::fromStdString(state) + ": " + faultName;
  cell.colour = failed ? failedColour : suspectColour;
  cell.toolTip =
      subject + ": " + QString::fromStdString(state) + when + "\n" + faultName + ": " +
      faultMeaning(sensor, fault) + "\n" +
      (failed ? "failed: wrong for longer than a glitch; left out of every decision until it agrees "
                "again for the module's recoverAfter"
              : "suspect: a check failed lately; no decision rests on it; valid again after the "
                "module's recoverAfter without a finding");
  return cell;
}

/// People's names of SensorHealth's sensors.
QString sensorTitle(std::string_view sensor)
{
  if (sensor == "imuAngles") return "IMU angles";
  if (sensor == "leftFsr") return "left FSRs";
  if (sensor == "rightFsr") return "right FSRs";
  if (sensor == "chestButton") return "chest button";
  return QString::fromUtf8(sensor.data(), static_cast<qsizetype>(sensor.size()));
}

/// What the subject line of a sensor's tooltip says it is.
QString sensorSubject(std::string_view sensor)
{
  if (sensor == "imuAngles") return "IMU angles (LoLA's Angles: the IMU board's own roll and pitch)";
  if (sensor == "leftFsr" || sensor == "rightFsr") return sensorTitle(sensor) + " (the sole's four FSRs)";
  if (sensor == "chestButton") return "chest button (LoLA's Touch 0)";
  return sensorTitle(sensor);
}

std::array<float, 4> rgba(const QColor& colour)
{
  return {static_cast<float>(colour.redF()), static_cast<float>(colour.greenF()),
          static_cast<float>(colour.blueF()), 1.0f};
}
} // namespace

HealthCell jointHealthCell(const SeriesStore& store, const std::string& joint)
{
  return healthCell(store, std::string(representation) + ".joints." + joint + ".",
                    QString::fromStdString(joint) + "'s readings (angle, current, temperature, status)", "");
}

std::vector<SensorLabel> sensorLabels(const SeriesStore& store)
{
  std::vector<SensorLabel> labels;
  for (const std::string_view name : streams::enumNamesOf<Sensor>)
  {
    SensorLabel label{std::string(name), sensorTitle(name), {}};
    label.cell = healthCell(store, std::string(representation) + ".sensors." + label.sensor + ".",
                            sensorSubject(name), name);
    if (name == "battery")
    {
      // The charge the robot believes, not the reading: what its low-battery sit-down decides on.
      if (const auto charge = numericValue(store.latest("SensorHealth.batteryCharge"), "float"))
      {
        label.text += QString(" %1 %").arg(*charge * 100, 0, 'f', 0);
        label.cell.toolTip +=
            QString("\ncharge the robot believes: %1 % (the reading while it agrees with the "
                    "battery's current, else counted from that current)")
                .arg(*charge * 100, 0, 'f', 1);
      }
      label.text += label.cell.text == "ok" ? QString() : " " + label.cell.text;
    }
    else
      label.text += " " + label.cell.text;
    // "failed: stuck" reads "failed (stuck)" after a sensor's name, as the robot's stderr says it.
    if (const qsizetype colon = label.text.indexOf(": "); colon >= 0)
      label.text = label.text.left(colon) + " (" + label.text.mid(colon + 2) + ")";
    labels.push_back(std::move(label));
  }
  return labels;
}

JointArray<std::optional<std::array<float, 4>>> healthColours(const SeriesStore& store)
{
  JointArray<std::optional<std::array<float, 4>>> colours{};
  if (!store.fields().contains(std::string(representation))) return colours;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (const QColor colour = jointHealthCell(store, std::string(jointNames[j])).colour; colour.isValid())
      colours[j] = rgba(colour);
  // The foot is the ankle roll's link: a distrusted foot's FSRs colour it, a failed one over a suspect joint.
  for (const auto& [joint, sensor] :
       {std::pair{Joint::LAnkleRoll, "leftFsr"}, std::pair{Joint::RAnkleRoll, "rightFsr"}})
  {
    const QColor fsr =
        healthCell(store, "SensorHealth.sensors." + std::string(sensor) + ".", "", sensor).colour;
    if (fsr.isValid() && (!colours[joint] || fsr == failedColour)) colours[joint] = rgba(fsr);
  }
  return colours;
}

std::vector<std::pair<QString, QColor>> distrustedSensorLines(const SeriesStore& store)
{
  std::vector<std::pair<QString, QColor>> lines;
  for (const SensorLabel& label : sensorLabels(store))
    if (label.cell.colour.isValid())
    {
      // The corner names the sensor and its finding; the battery's charge is the strip's.
      const QString state = label.cell.text.section(": ", 0, 0), fault = label.cell.text.section(": ", 1);
      lines.emplace_back(sensorTitle(label.sensor) + " " + state + " (" + fault + ")", label.cell.colour);
    }
  return lines;
}
} // namespace nao::gui
