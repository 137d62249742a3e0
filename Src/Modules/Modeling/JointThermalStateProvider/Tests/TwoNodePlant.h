#pragma once
// The thermal tests' plant, NOT JointThermalStateProvider's model: a winding and the housing it heats, each its own
// node with its own constants (JointThermalStateProviderTests, the ripple, the persistence and the staleness tests).
#include <cmath>

namespace nao::testing
{
/// The test's plant, NOT the provider's model: a winding heated by I² (per ampere² `windingRise` K above the
/// housing at steady state, time constant windingTime) and a housing it heats (`housingRise` K/A² above ambient,
/// time constant housingTime). The sensor reads the housing, or the winding (as the simulator's does).
struct TwoNodePlant
{
  double windingRise = 15, windingTime = 20;  // K/A², s
  double housingRise = 30, housingTime = 900; // K/A², s
  double ambient = 24;                        // °C
  double winding = 24, housing = 24;          // °C
  bool reportsWinding = false;

  double reported() const { return reportsWinding ? winding : housing; }

  void step(double dt, double squaredCurrent)
  {
    // Heat flows in W per unit of the winding's loss: conductances 1/windingRise and 1/housingRise.
    const double toHousing = (winding - housing) / windingRise;
    winding += dt * (squaredCurrent - toHousing) / (windingTime / windingRise);
    housing += dt * (toHousing - (housing - ambient) / housingRise) / (housingTime / housingRise);
  }
  /// s until the reported node reaches `threshold` at a constant current (∞ beyond 10 h).
  double timeTo(double threshold, double squaredCurrent) const
  {
    TwoNodePlant copy = *this;
    for (double t = 0; t < 36000; t += 0.012)
    {
      if (copy.reported() >= threshold) return t;
      copy.step(0.012, squaredCurrent);
    }
    return INFINITY;
  }
  /// s until the reported node is below `threshold` at a constant current (∞ beyond 10 h).
  double timeBelow(double threshold, double squaredCurrent) const
  {
    TwoNodePlant copy = *this;
    for (double t = 0; t < 36000; t += 0.012)
    {
      if (copy.reported() < threshold) return t;
      copy.step(0.012, squaredCurrent);
    }
    return INFINITY;
  }
};
} // namespace nao::testing
