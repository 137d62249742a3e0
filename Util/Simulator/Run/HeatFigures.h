#pragma once
// How fast and how well a run's leg currents fell once the robot held its posture: the figures of B-Human's
// heat adjustment (NaoFacts.md BHDOC: every leg joint below 300 mA within 10 s, most below 50 mA), from a run's
// samples.
#include "Util/Simulator/Run/SimulationTypes.h"

#include <vector>

namespace nao
{
struct HeatFigures
{
  double allLegsBelowHeating =
      -1;                    ///< s after holdStart: first sample with every leg joint < 300 mA; −1: never
  double mostLegsQuiet = -1; ///< s after holdStart: first sample with ≥ 80 % of leg joints < 50 mA; −1: never
  double shareAboveHeatingLater = 0; ///< 0..1 of the samples from holdStart + 10 s with a leg joint ≥ 300 mA
  double legWarming = 0; ///< K, highest rise of a leg joint's reported temperature, first to last sample
};

inline constexpr double quietCurrent = 0.05; ///< A, "below 50 mA"
inline constexpr double quietShare = 0.8;    ///< of the leg joints
inline constexpr double settleAllowance =
    10.0; ///< s after holdStart from which shareAboveHeatingLater counts

/// `holdStart`: s at which the scenario's first posture is reached (SimulationResult::holdStart).
HeatFigures heatFigures(const std::vector<RunSample>& samples, double holdStart);
} // namespace nao
