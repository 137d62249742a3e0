#include "Util/Simulator/Run/SensorFaults.h"

#include "Tools/Streams/ClosestName.h"
#include "Tools/Streams/TomlFiles.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace nao
{
namespace
{
constexpr const char* faultsFile = "Sim/faults.toml";

[[noreturn]] void fail(const std::string& key, const std::string& message)
{
  throw streams::ConfigError(streams::ConfigIssue{faultsFile, 0, 0, key, message});
}

/// The reading `index` of `key` as a float (Status: its integer).
float read(const LolaSensorFrame& frame, LolaSensorKey key, std::size_t index)
{
  switch (key)
  {
  case LolaSensorKey::Position:
    return frame.position[index];
  case LolaSensorKey::Stiffness:
    return frame.stiffness[index];
  case LolaSensorKey::Temperature:
    return frame.temperature[index];
  case LolaSensorKey::Current:
    return frame.current[index];
  case LolaSensorKey::Status:
    return static_cast<float>(frame.status[index]);
  case LolaSensorKey::Accelerometer:
    return frame.accelerometer[index];
  case LolaSensorKey::Gyroscope:
    return frame.gyroscope[index];
  case LolaSensorKey::Angles:
    return frame.angles[index];
  case LolaSensorKey::FSR:
    return frame.fsr[index];
  case LolaSensorKey::Touch:
    return frame.touch[index];
  case LolaSensorKey::Battery:
    return frame.battery[index];
  }
  return 0.f;
}

float* slot(LolaSensorFrame& frame, LolaSensorKey key, std::size_t index)
{
  switch (key)
  {
  case LolaSensorKey::Position:
    return &frame.position[index];
  case LolaSensorKey::Stiffness:
    return &frame.stiffness[index];
  case LolaSensorKey::Temperature:
    return &frame.temperature[index];
  case LolaSensorKey::Current:
    return &frame.current[index];
  case LolaSensorKey::Accelerometer:
    return &frame.accelerometer[index];
  case LolaSensorKey::Gyroscope:
    return &frame.gyroscope[index];
  case LolaSensorKey::Angles:
    return &frame.angles[index];
  case LolaSensorKey::FSR:
    return &frame.fsr[index];
  case LolaSensorKey::Touch:
    return &frame.touch[index];
  case LolaSensorKey::Battery:
    return &frame.battery[index];
  case LolaSensorKey::Status:
    break;
  }
  return nullptr;
}

void write(LolaSensorFrame& frame, LolaSensorKey key, std::size_t index, float value)
{
  if (key == LolaSensorKey::Status)
    frame.status[index] = static_cast<std::int32_t>(std::lround(value)); // validated: set or hold, 0..3
  else
    *slot(frame, key, index) = value;
}

/// The indices a change names: its elements, or every element of its key.
std::vector<std::size_t> indicesOf(const FaultChange& change)
{
  std::vector<std::size_t> indices;
  if (change.elements.empty())
    for (std::size_t k = 0; k < elementCount(change.key); ++k)
      indices.push_back(k);
  for (const int element : change.elements)
    indices.push_back(static_cast<std::size_t>(element));
  return indices;
}

void validateChange(const FaultChange& change, const std::string& key)
{
  const std::size_t count = elementCount(change.key);
  std::vector<int> seen;
  for (const int element : change.elements)
  {
    if (element < 0 || static_cast<std::size_t>(element) >= count)
      fail(key + ".elements", std::to_string(element) + " is not an element of " +
                                  std::string(streams::enumName(change.key)) + " (0.." +
                                  std::to_string(count - 1) + ")");
    if (std::find(seen.begin(), seen.end(), element) != seen.end())
      fail(key + ".elements", std::to_string(element) + " is named twice");
    seen.push_back(element);
  }
  if (change.offValue.size() > 1) fail(key + ".offValue", "one value ([] for the true reading)");
  if (change.offTime > 0 && change.onTime < 0.5 * lolaFrameSeconds)
    fail(key + ".onTime", "with an off phase the change acts for at least one frame (0.012 s)");
  if (change.duration > 0 && change.duration < 0.5 * lolaFrameSeconds)
    fail(key + ".duration", "0 (to the end) or at least one frame (0.012 s)");
  if (change.key != LolaSensorKey::Status) return;
  // LoLA sends Status as integers 0..3 (NaoFacts.md §2): only a status can be set, or the reading held.
  if (change.mode != FaultMode::set && change.mode != FaultMode::hold)
    fail(key + ".mode",
         "a Status is set (to 0..3) or held, not " + std::string(streams::enumName(change.mode)));
  const auto isStatus = [](double v) { return v == std::round(v) && v >= 0 && v <= 3; };
  if (change.mode == FaultMode::set && !isStatus(change.value))
    fail(key + ".value", "a Status is a whole number 0..3");
  if (!change.offValue.empty() && !isStatus(change.offValue.front()))
    fail(key + ".offValue", "a Status is a whole number 0..3");
}
} // namespace

std::size_t elementCount(LolaSensorKey key)
{
  switch (key)
  {
  case LolaSensorKey::Position:
  case LolaSensorKey::Stiffness:
  case LolaSensorKey::Temperature:
  case LolaSensorKey::Current:
  case LolaSensorKey::Status:
    return lolaJointCount;
  case LolaSensorKey::Accelerometer:
  case LolaSensorKey::Gyroscope:
    return 3;
  case LolaSensorKey::Angles:
    return 2;
  case LolaSensorKey::FSR:
    return 8;
  case LolaSensorKey::Touch:
    return 14;
  case LolaSensorKey::Battery:
    return 4;
  }
  return 0;
}

SensorFaults loadSensorFaults(const std::filesystem::path& configDirectory)
{
  SensorFaults faults;
  streams::loadFromTable(streams::loadTomlFile(configDirectory / "Sim" / "faults.toml"), faults);
  validate(faults);
  return faults;
}

void validate(const SensorFaults& faults)
{
  std::vector<std::string> names;
  for (const InjectedFault& fault : faults.faults)
  {
    const std::string key = "faults." + fault.name;
    if (fault.name.empty()) fail("faults.name", "every fault needs a name");
    if (std::find(names.begin(), names.end(), fault.name) != names.end())
      fail(key, "a second fault of this name");
    names.push_back(fault.name);
    if (fault.reason.empty()) fail(key + ".reason", "every fault says why a real NAO could read so");
    if (fault.changes.empty()) fail(key + ".changes", "a fault changes at least one reading");
    for (std::size_t c = 0; c < fault.changes.size(); ++c)
      validateChange(fault.changes[c], key + ".changes[" + std::to_string(c) + "]");
  }
}

const InjectedFault& findFault(const SensorFaults& faults, const std::string& name)
{
  std::vector<std::string> known;
  for (const InjectedFault& fault : faults.faults)
  {
    if (fault.name == name) return fault;
    known.push_back(fault.name);
  }
  std::string list;
  for (const std::string& k : known)
    list += (list.empty() ? "" : ", ") + k;
  throw std::runtime_error("sensor fault '" + name + "' is not in Sim/faults.toml" +
                           streams::didYouMean(name, known) + " (known: " + (list.empty() ? "none" : list) +
                           ")");
}

SensorFaultInjector::SensorFaultInjector(InjectedFault fault, double onset, double frameTime)
    : fault_(std::move(fault)), onset_(onset), frameTime_(frameTime), held_(fault_.changes.size())
{
}

long SensorFaultInjector::frames(double seconds) const
{
  return seconds <= 0 ? 0 : std::max(1L, std::lround(seconds / frameTime_));
}

void SensorFaultInjector::apply(double time, LolaSensorFrame& frame)
{
  // Frames count from the first one at or after the onset, one per call.
  if (time < onset_ - 1e-9) return;
  for (std::size_t c = 0; c < fault_.changes.size(); ++c)
  {
    if (framesApplied_ == 0)
      for (const std::size_t index : indicesOf(fault_.changes[c]))
        held_[c].push_back(read(frame, fault_.changes[c].key, index));
    applyChange(c, framesApplied_, frame);
  }
  ++framesApplied_;
}

void SensorFaultInjector::applyChange(std::size_t c, long frame, LolaSensorFrame& lola)
{
  const FaultChange& change = fault_.changes[c];
  const long duration = frames(change.duration);
  if (duration > 0 && frame >= duration) return;
  const long on = frames(change.onTime), off = frames(change.offTime);
  const bool acting = off == 0 || frame % (on + off) < on;
  if (!acting && change.offValue.empty()) return;
  const std::vector<std::size_t> indices = indicesOf(change);
  for (std::size_t k = 0; k < indices.size(); ++k)
  {
    const std::size_t index = indices[k];
    const float reading = read(lola, change.key, index);
    float value = reading;
    if (!acting)
      value = static_cast<float>(change.offValue.front());
    else if (change.mode == FaultMode::set)
      value = static_cast<float>(change.value);
    else if (change.mode == FaultMode::add)
      value = reading + static_cast<float>(change.value);
    else if (change.mode == FaultMode::scale)
      value = reading * static_cast<float>(change.value);
    else if (change.mode == FaultMode::hold)
      value = held_[c][k];
    else
      value = std::numeric_limits<float>::quiet_NaN();
    write(lola, change.key, index, value);
  }
}

FaultEvent SensorFaultInjector::event() const
{
  FaultEvent event{fault_.name, onset_, -1.0};
  double end = 0;
  for (const FaultChange& change : fault_.changes)
  {
    if (change.duration <= 0) return event; // one change lasts to the end of the run
    end = std::max(end, static_cast<double>(frames(change.duration)) * frameTime_);
  }
  event.end = onset_ + end;
  return event;
}
} // namespace nao
