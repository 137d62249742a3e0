#pragma once
// From a decoded LoLA sensor frame to the representations the body fills (pure, no I/O, no allocation).
#include "Platform/LoLA/LolaProtocol.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/TouchData.h"
#include "Representations/Sensing/UnreadableReadings.h"

namespace nao
{
/// FSR positions (m), (x, y) in the ankle frame on the sole plane, LoLA order (NaoFacts.md §12; the right
/// foot is not an exact mirror of the left).
inline constexpr std::array<std::array<float, 2>, 8> naoV6FsrPositions = {{
    {0.07025f, 0.0299f},   // LFoot FrontLeft
    {0.07025f, -0.0231f},  // LFoot FrontRight
    {-0.03025f, 0.0299f},  // LFoot RearLeft
    {-0.02965f, -0.0191f}, // LFoot RearRight
    {0.07025f, 0.0231f},   // RFoot FrontLeft
    {0.07025f, -0.0299f},  // RFoot FrontRight
    {-0.02965f, 0.0191f},  // RFoot RearLeft
    {-0.03025f, -0.0299f}, // RFoot RearRight
}};

struct LolaConversionParameters
{
  /// kg; a foot whose total reading exceeds this has pressure (about 4 % of the robot's weight: lifted feet
  /// of real robots read a few hundred grams at most)
  float contactThresholdKg = 0.2f;
  std::array<std::array<float, 2>, 8> fsrPositions = naoV6FsrPositions; ///< m, see naoV6FsrPositions
};

/// What one sensor frame becomes.
struct LolaBodyReadings
{
  JointSensorData joints;
  FsrSensorData fsr;
  InertialSensorData inertial;
  BatteryData battery;
  TouchData touch;
  UnreadableReadings unreadable; ///< which values of the last frame were held instead of read
};

/// Fills `readings` from `frame`: angles rad, currents A, temperatures °C, status, stiffnesses; FSR readings
/// kg per foot with totals, centre of pressure (m, ankle frame; weights below 0 count as 0) and contact; the
/// IMU with our sign conventions (LolaProtocol.h); the battery from [charge, status, current, temperature]; the
/// touch sensors as they come. A value that is not finite (or a Status outside 0..3) costs only itself: it keeps
/// its last good value in `readings` (an unreadable touch sensor reads 0: not pressed), is marked in
/// `readings.unreadable`, and the first of them is named in `error`. Returns the number of unreadable values.
std::size_t convertSensorFrame(const LolaSensorFrame& frame, const LolaConversionParameters& parameters,
                               LolaBodyReadings& readings, FixedString<159>& error);

/// Centre of pressure (m) of the four readings (kg) of one foot at `positions`; {0, 0} when they sum to 0.
std::array<float, 2> centerOfPressure(std::span<const float, 4> readingsKg,
                                      std::span<const std::array<float, 2>, 4> positions);
} // namespace nao
