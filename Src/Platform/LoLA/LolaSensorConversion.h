#pragma once
// From a decoded LoLA sensor frame to the representations the body fills (pure, no I/O, no allocation).
#include "Platform/LoLA/LolaProtocol.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/TouchData.h"

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
};

/// Fills `readings` from `frame`: angles rad, currents A, temperatures °C, status, stiffnesses; FSR readings
/// kg per foot with totals, centre of pressure (m, ankle frame; weights below 0 count as 0) and contact; the
/// IMU with our sign conventions (LolaProtocol.h); the battery from [charge, status, current, temperature]; the
/// touch sensors as they come (a value that is not finite becomes 0: not pressed).
/// Returns false and names the value in `error` if a value the modules use is not finite or a Status lies
/// outside 0..3; `readings` is then left unchanged, so a bad frame never reaches a module.
bool convertSensorFrame(const LolaSensorFrame& frame, const LolaConversionParameters& parameters,
                        LolaBodyReadings& readings, FixedString<159>& error);

/// Centre of pressure (m) of the four readings (kg) of one foot at `positions`; {0, 0} when they sum to 0.
std::array<float, 2> centerOfPressure(std::span<const float, 4> readingsKg,
                                      std::span<const std::array<float, 2>, 4> positions);
} // namespace nao
