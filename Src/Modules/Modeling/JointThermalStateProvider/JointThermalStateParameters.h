#pragma once
// The numbers of JointThermalStateProvider (Config/Modules/JointThermalStateProvider.toml; the reasoning behind each
// is in README.md, "Priors and noise"). No thermal constant of the NAO is public (NaoFacts.md §16, §18): the priors
// are wide guesses the fit moves away from, and the status thresholds are NOT firmware facts.
#include "Tools/Streams/Field.h"

namespace nao
{
struct JointThermalStateParameters
{
  // Priors of the model dT/dt = (T_amb + k·I² − T)/τ; the filter starts every joint there.
  float rise = 25.f;
  float riseFactor = 3.f;
  float timeConstant = 600.f;
  float timeConstantFactor = 3.f;
  float ambient = 25.f;
  float ambientStdDev = 8.f;
  // The reading and the model's trust.
  float temperatureStep = 1.f;
  float sensorNoise = 0.4f;
  float temperatureDrift = 0.003f;
  float riseDrift = 1e-6f;
  float timeConstantDrift = 1e-6f;
  float ambientDrift = 1e-4f;
  float gate = 5.f;
  int maxRejections = 10;
  // Bounds that keep the fit physical.
  float minRise = 0.5f;
  float maxRise = 500.f;
  float minTimeConstant = 10.f;
  float maxTimeConstant = 20000.f;
  float minAmbient = -10.f;
  float maxAmbient = 60.f;
  // Bad input.
  float minTemperature = 0.f;
  float maxTemperature = 130.f;
  float maxCurrent = 5.f;
  float maxStepTime = 60.f;
  // The present load.
  float loadWindow = 10.f;
  // Prior thresholds of the statuses: B-Human's LED display thresholds (NaoFacts.md §18), not the firmware's.
  float hotThreshold = 50.f;
  float veryHotThreshold = 65.f;
  float criticallyHotThreshold = 75.f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& streams::field("rise", rise)
        .range(0.5, 500.0)
        .doc("prior of k in K/A²: steady-state rise above ambient per squared ampere (a guess, README)");
    ar& streams::field("riseFactor", riseFactor)
        .range(1.0, 100.0)
        .doc("one standard deviation of the prior of k, as a factor (3: k within 8..75 K/A² at 1 sigma)");
    ar& streams::field("timeConstant", timeConstant)
        .unit(Unit::seconds)
        .range(10.0, 20000.0)
        .doc("prior of the time constant tau (small DC motors' housings: minutes, README)");
    ar& streams::field("timeConstantFactor", timeConstantFactor)
        .range(1.0, 100.0)
        .doc("one standard deviation of the prior of tau, as a factor");
    ar& streams::field("ambient", ambient)
        .unit(Unit::degreesCelsius)
        .range(-10.0, 60.0)
        .doc("prior of T_amb, where a joint settles without current (a room)");
    ar& streams::field("ambientStdDev", ambientStdDev)
        .unit(Unit::kelvins)
        .range(0.1, 50.0)
        .doc("one standard deviation of the prior of T_amb");
    ar& streams::field("temperatureStep", temperatureStep)
        .unit(Unit::kelvins)
        .range(0.0, 10.0)
        .doc("the reading's resolution (LoLA: whole degrees); variance step²/12 of uniform rounding");
    ar& streams::field("sensorNoise", sensorNoise)
        .unit(Unit::kelvins)
        .range(0.01, 10.0)
        .doc("standard deviation of the reading beyond its rounding, also covering rounding errors repeated "
             "over consecutive readings");
    ar& streams::field("temperatureDrift", temperatureDrift)
        .range(0.0, 10.0)
        .doc("K²/s, process noise of T: what a first-order model misses of the real plant");
    ar& streams::field("riseDrift", riseDrift)
        .range(0.0, 1.0)
        .doc("1/s, random walk of ln k (wear, friction)");
    ar& streams::field("timeConstantDrift", timeConstantDrift)
        .range(0.0, 1.0)
        .doc("1/s, random walk of ln(1/tau)");
    ar& streams::field("ambientDrift", ambientDrift)
        .range(0.0, 10.0)
        .doc("K²/s, random walk of T_amb (the room, the heat of the robot's inside)");
    ar& streams::field("gate", gate)
        .range(1.0, 100.0)
        .doc("a reading more than this many standard deviations off the prediction is ignored");
    ar& streams::field("maxRejections", maxRejections)
        .range(0, 1000)
        .doc("after this many ignored readings of a joint in a row the filter believes them again");
    ar& streams::field("minRise", minRise).range(0.01, 500.0).doc("K/A², lower bound of k");
    ar& streams::field("maxRise", maxRise).range(0.01, 10000.0).doc("K/A², upper bound of k");
    ar& streams::field("minTimeConstant", minTimeConstant)
        .unit(Unit::seconds)
        .range(1.0, 100000.0)
        .doc("lower bound of tau");
    ar& streams::field("maxTimeConstant", maxTimeConstant)
        .unit(Unit::seconds)
        .range(1.0, 100000.0)
        .doc("upper bound of tau");
    ar& streams::field("minAmbient", minAmbient)
        .unit(Unit::degreesCelsius)
        .range(-50.0, 100.0)
        .doc("lower bound of T_amb");
    ar& streams::field("maxAmbient", maxAmbient)
        .unit(Unit::degreesCelsius)
        .range(-50.0, 100.0)
        .doc("upper bound of T_amb");
    ar& streams::field("minTemperature", minTemperature)
        .unit(Unit::degreesCelsius)
        .range(-50.0, 200.0)
        .doc("a reading below is implausible and ignored (a broken sensor reads -40)");
    ar& streams::field("maxTemperature", maxTemperature)
        .unit(Unit::degreesCelsius)
        .range(-50.0, 300.0)
        .doc("a reading above is implausible and ignored (the firmware cuts a motor long before)");
    ar& streams::field("maxCurrent", maxCurrent)
        .unit(Unit::amperes)
        .range(0.1, 100.0)
        .doc("a current's magnitude is clamped to this (heat goes with I², whatever the sign)");
    ar& streams::field("maxStepTime", maxStepTime)
        .unit(Unit::seconds)
        .range(0.1, 3600.0)
        .doc(
            "a longer gap between two steps of a joint (a stalled process) is predicted over this much only");
    ar& streams::field("loadWindow", loadWindow)
        .unit(Unit::seconds)
        .range(0.3, 60.0)
        .doc("the present load is the mean I² over this long (in steps of 0.3 s)");
    ar& streams::field("hotThreshold", hotThreshold)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("prior threshold of status 1 (B-Human's LED display threshold, not a firmware fact)");
    ar& streams::field("veryHotThreshold", veryHotThreshold)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("prior threshold of status 2 (B-Human's LED display threshold, not a firmware fact)");
    ar& streams::field("criticallyHotThreshold", criticallyHotThreshold)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("prior threshold of status 3 (B-Human's LED display threshold, not a firmware fact)");
  }
};
} // namespace nao
