#include "Util/DebugGui/PoseFromStore.h"
#include "Util/DebugGui/HealthDisplay.h"
#include "Util/DebugGui/ThermalDisplay.h"
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>

namespace nao::gui
{
namespace
{
/// The number in the store's latest text of `name`, or nothing.
std::optional<float> latestNumber(const SeriesStore& store, const std::string& name)
{
  const std::string text = store.latest(name);
  if (text.empty()) return std::nullopt;
  float value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}
} // namespace

RobotPose poseFromStore(const SeriesStore& store)
{
  RobotPose pose;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    pose.angles[j] =
        latestNumber(store, "JointSensorData.angles." + std::string(jointNames[j])).value_or(0.f);
  // The filtered orientation (InertialDataFilter) while it is valid; LoLA's own angles otherwise.
  const std::string filtered = store.latest("InertialData.valid");
  const auto filteredRoll = latestNumber(store, "InertialData.angles[0]");
  const auto filteredPitch = latestNumber(store, "InertialData.angles[1]");
  const auto roll = latestNumber(store, "InertialSensorData.angles[0]");
  const auto pitch = latestNumber(store, "InertialSensorData.angles[1]");
  if ((filtered == "true" || filtered == "1") && filteredRoll && filteredPitch)
    pose.torsoAngles = std::array<float, 2>{*filteredRoll, *filteredPitch};
  else if (roll && pitch)
    pose.torsoAngles = std::array<float, 2>{*roll, *pitch};
  if (const std::string valid = store.latest("LimbStiffness.valid"); valid == "true" || valid == "1")
  {
    LimbStiffness stiffness;
    stiffness.valid = true;
    for (std::size_t limb = 0; limb < numOfLimbs; ++limb)
    {
      const std::string prefix = "LimbStiffness.limbs." + std::string(streams::enumName(limbAt(limb))) + ".";
      LimbEllipsoid& ellipsoid = stiffness.limbs[limb];
      for (std::size_t i = 0; i < 9; ++i)
      {
        const auto get = [&](const std::string& leaf, std::size_t index)
        { return latestNumber(store, prefix + leaf + "[" + std::to_string(index) + "]").value_or(NAN); };
        if (i < 3)
        {
          ellipsoid.values[i] = get("values", i);
          ellipsoid.endpoint[i] = get("endpoint", i);
        }
        ellipsoid.vectors[i] = get("vectors", i);
      }
    }
    pose.stiffness = stiffness;
  }
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (const auto estimate = estimatedTemperature(store, std::string(jointNames[j])))
    {
      pose.temperatureColours[j] = temperatureColour((*estimate)[0], (*estimate)[1]);
      const QColor colour = thermalCell(store, std::string(jointNames[j])).colour;
      if (colour.isValid())
        pose.timeLeftColours[j] = {static_cast<float>(colour.redF()), static_cast<float>(colour.greenF()),
                                   static_cast<float>(colour.blueF()), 1.0f};
    }
  pose.healthColours = healthColours(store);
  pose.truth = truePoseFromStore(store);
  return pose;
}

std::optional<TruePose> truePoseFromStore(const SeriesStore& store)
{
  const auto x = latestNumber(store, "truth.torso.x");
  if (!x) return std::nullopt;
  TruePose truth;
  truth.position = {*x, latestNumber(store, "truth.torso.y").value_or(0.f),
                    latestNumber(store, "truth.torso.z").value_or(0.f)};
  const char* const angles[] = {"roll", "pitch", "yaw"};
  for (std::size_t i = 0; i < 3; ++i)
    truth.rollPitchYaw[i] = latestNumber(store, std::string("truth.torso.") + angles[i]).value_or(0.f);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    truth.angles[j] = latestNumber(store, "truth.angles." + std::string(jointNames[j])).value_or(0.f);
  return truth;
}

std::string truthLabel(const SeriesStore& store)
{
  const std::optional<TruePose> truth = truePoseFromStore(store);
  if (!truth) return {};
  // The torso's tilt from upright: the angle between its z axis and the world's.
  const double tilt =
      std::acos(std::clamp(std::cos(truth->rollPitchYaw[0]) * std::cos(truth->rollPitchYaw[1]), -1.0, 1.0));
  const int degrees = static_cast<int>(std::lround(tilt * 180 / std::numbers::pi));
  if (tilt > fallenTilt && truth->position.z() < lyingHeight)
    return "truth: on the ground (tilt " + std::to_string(degrees) + "°)";
  if (tilt > uprightTilt) return "truth: tilted " + std::to_string(degrees) + "°";
  return "truth: upright";
}

std::string fallStateLabel(const SeriesStore& store)
{
  const std::string state = store.latest("FallDownState.state");
  if (state.empty()) return {};
  // What confirmed the fall besides the gyroscope (FallDownStateDetector's README): kept until the next fall.
  const std::string witness = store.latest("FallDownState.witness");
  const std::string confirmed = witness.empty() || witness == "none" ? "" : " (" + witness + ")";
  if (state == "falling")
  {
    const std::string direction = store.latest("FallDownState.direction");
    return (direction.empty() || direction == "none" ? state : state + " " + direction) + confirmed;
  }
  if (state == "fallen")
  {
    const std::string side = store.latest("FallDownState.side");
    return (side.empty() || side == "none" ? state : state + " on " + side) + confirmed;
  }
  return state;
}
} // namespace nao::gui
