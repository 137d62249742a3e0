#pragma once
// The numbers of JointThermalStateProvider: the defaults below (Config/Modules/JointThermalStateProvider.toml holds
// only values that differ; the reasoning behind each is in README.md, "Priors and noise"). Per joint, the reported
// temperature is a sum of thermal nodes with fixed time constants (10, 60, 360, 2160 s: a winding's seconds to a
// housing's tens of minutes), fitted online by a linear Kalman filter, and the module forecasts the time to each
// temperature status at the present load. No thermal constant of the NAO is public (NaoFacts.md §16, §18): the priors
// are wide guesses the fit moves away from, and the status thresholds are teams' observations, not firmware facts.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"

namespace nao
{
struct JointThermalStateParameters
{
  // Priors of the model T = T_amb + Σ c_i (README.md); the filter starts every joint there.
  // rise (K/A²) is summed over the nodes: 1.2 A held → +36 K in the steady state. riseStdDev (K/A²) is the slowest
  // node's; the prior rise and the deviations are split 4:3:2:1 from the slowest node to the fastest.
  // startRiseStdDev: a robot may start warm, its first reading up to ~10 K above its ambient at 1 σ.
  float rise = 25.f;
  float riseStdDev = 50.f;
  float startRiseStdDev = 10.f;
  float ambient = 25.f;
  float ambientStdDev = 8.f;
  // The fixed-pole basis: nodes with time constants fastestTimeConstant · nodeRatio^i.
  int nodes = 4;
  float fastestTimeConstant = 10.f;
  int nodeRatio = 6; // with fastestTimeConstant 10 s (a small motor's winding): τ = 10, 60, 360, 2160 s
  // The reading and the model's trust.
  float temperatureStep = 1.f; // K: LoLA reports whole degrees, a rounding variance of 1/12 K²
  float sensorNoise = 0.4f;
  float temperatureDrift = 3e-4f; // K²/s, process noise of the node sum
  float riseDrift = 6.25e-4f;
  float ambientDrift = 1e-4f;
  // A reading more than `gate` standard deviations off is ignored until maxRejections in a row; a joint's readings
  // come every 0.3 s, so 10 are 3 s of that joint.
  float gate = 5.f;
  int maxRejections = 10;
  // Bounds that keep the fit physical.
  float maxRise = 500.f;
  float minAmbient = -10.f;
  float maxAmbient = 60.f;
  // Bad input.
  float minTemperature = 0.f;
  float maxTemperature = 130.f;
  float maxCurrent = 5.f;
  float maxStepTime = 60.f;
  // The present load and the forecast's confidence.
  float loadWindow = 10.f;
  float cycleWindow = 60.f;
  float loadChangeRatio = 2.f;
  float loadChangeFloor = 0.1f;
  float loadTrendRatio = 1.1f;
  float learningSpread = 0.25f;
  // Prior thresholds of the statuses: where teams' code says the motor boards start to reduce the stiffness (HULKs,
  // NaoFacts.md §18); the firmware does not publish them. A reported status transition teaches the real threshold; a
  // lower status reported at a higher estimate raises the prior to that estimate.
  float hotThreshold = 76.f;
  float veryHotThreshold = 80.f;
  float criticallyHotThreshold = 90.f;
  // A status transition teaches only once confirmed: it rose by one status (the temperature is continuous; a jump
  // over a status is a fault of the word), the estimate, an independent sensor, lies within statusBand of the prior,
  // and the status held for statusHoldTime. A status that falls back sooner flapped (a sensor fault, never a lesson).
  float statusBand = 20.f;
  float statusHoldTime = 3.f;
  // What a robot taught in earlier runs, per joint, °C; 0: not taught, the prior above. Never set in
  // Config/Modules/JointThermalStateProvider.toml: a robot's overlay (Config/Robots/<robot>/Modules/) holds them, and
  // `LogTool thermal LOG --overlay FILE` writes them from a log in which the robot reported the statuses.
  JointArray<float> taughtHotThresholds{};
  JointArray<float> taughtVeryHotThresholds{};
  JointArray<float> taughtCriticallyHotThresholds{};
  // The fit an earlier run ended with, kept per robot in the same overlay (README.md, "Kept across restarts"): per
  // joint each node's rise per A² (K/A², node 0 the slowest, as JointThermalState::nodeGains; 0 at every node: not
  // taught, the prior) and the robot's ambient (°C, 0: not taught, `ambient`). Valid in the basis they were fitted
  // in (nodes, fastestTimeConstant, nodeRatio). A taught joint starts at its gains with taughtRiseStdDev of them.
  JointArray<float> taughtNodeGains0{};
  JointArray<float> taughtNodeGains1{};
  JointArray<float> taughtNodeGains2{};
  JointArray<float> taughtNodeGains3{};
  float taughtAmbient = 0.f;
  // 0.3: a fit LogTool keeps has settled to a few % in its sum, but its split over neighbouring nodes is loosely
  // determined and the joint wears (riseDrift); 30 % leaves the readings room to move it within minutes, against
  // the prior's 200 % (riseStdDev 50 of 25 K/A²), which is what makes an untaught forecast wrong for minutes.
  float taughtRiseStdDev = 0.3f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    serializePrior(ar);
    serializeNoise(ar);
    serializeLoad(ar);
    serializeThresholds(ar);
    serializeTaughtFit(ar);
  }

  /// The model: its prior and its thermal nodes.
  template<class Archive>
  void serializePrior(Archive& ar)
  {
    using streams::Unit;
    ar& streams::field("rise", rise)
        .range(0.5, 500.0)
        .doc("prior of the steady-state rise above ambient per squared ampere in K/A² (sum over the nodes, a "
             "guess, README)");
    ar& streams::field("riseStdDev", riseStdDev)
        .range(0.1, 1000.0)
        .doc("K/A², one standard deviation of the prior of the slowest node's rise per squared ampere (of "
             "the others: in proportion to their prior shares)");
    ar& streams::field("startRiseStdDev", startRiseStdDev)
        .unit(Unit::kelvins)
        .range(0.1, 100.0)
        .doc("one standard deviation of the start's rise above ambient (a robot started warm)");
    ar& streams::field("ambient", ambient)
        .unit(Unit::degreesCelsius)
        .range(-10.0, 60.0)
        .doc("prior of T_amb, where a joint settles without current (a room)");
    ar& streams::field("ambientStdDev", ambientStdDev)
        .unit(Unit::kelvins)
        .range(0.1, 50.0)
        .doc("one standard deviation of the prior of T_amb");
    ar& streams::field("nodes", nodes).range(1, 4).doc("thermal nodes of the fixed-pole basis (at most 4)");
    ar& streams::field("fastestTimeConstant", fastestTimeConstant)
        .unit(Unit::seconds)
        .range(1.0, 1000.0)
        .doc("time constant of the fastest node (a small motor's winding: seconds)");
    ar& streams::field("nodeRatio", nodeRatio)
        .range(2, 20)
        .doc("each node's time constant is this many times the next faster one's (a whole number)");
  }

  /// The filter: what it believes of the readings and of the model, and its bounds.
  template<class Archive>
  void serializeNoise(Archive& ar)
  {
    using streams::Unit;
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
        .doc("K²/s, process noise of the temperature: what the fixed poles miss of the real plant");
    ar& streams::field("riseDrift", riseDrift)
        .range(0.0, 10.0)
        .doc("K²/A⁴/s, random walk of each node's rise per squared ampere (wear, friction)");
    ar& streams::field("ambientDrift", ambientDrift)
        .range(0.0, 10.0)
        .doc("K²/s, random walk of T_amb (the room, the heat of the robot's inside)");
    ar& streams::field("gate", gate)
        .range(1.0, 100.0)
        .doc("a reading more than this many standard deviations off the prediction is ignored");
    ar& streams::field("maxRejections", maxRejections)
        .range(0, 1000)
        .doc("after this many ignored readings of a joint in a row the filter believes them again");
    ar& streams::field("maxRise", maxRise)
        .range(0.01, 10000.0)
        .doc("K/A², upper bound of each node's rise per squared ampere (the lower bound is 0)");
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
        .doc("a current of larger magnitude is a faulty reading and skipped, like NaN");
    ar& streams::field("maxStepTime", maxStepTime)
        .unit(Unit::seconds)
        .range(0.1, 3600.0)
        .doc(
            "a longer gap between two steps of a joint (a stalled process) is predicted over this much only");
  }

  /// The present load and the forecast.
  template<class Archive>
  void serializeLoad(Archive& ar)
  {
    using streams::Unit;
    ar& streams::field("loadWindow", loadWindow)
        .unit(Unit::seconds)
        .range(0.3, 60.0)
        .doc("the present load is the mean I² over at least this long (in steps of 0.3 s), and a new load "
             "shows within it");
    ar& streams::field("cycleWindow", cycleWindow)
        .unit(Unit::seconds)
        .range(0.3, 60.0)
        .doc("and over at most this long since the load last changed, so that a motion that repeats within "
             "it (stepping, a keyframe loop) counts whole cycles");
    ar& streams::field("loadChangeRatio", loadChangeRatio)
        .range(1.0, 100.0)
        .doc("the load changed when the mean I² over loadWindow and over the longer window differ by more "
             "than this factor (each plus loadChangeFloor²): the window starts again from loadWindow");
    ar& streams::field("loadChangeFloor", loadChangeFloor)
        .unit(Unit::amperes)
        .range(0.0, 5.0)
        .doc("added, squared, to both means before they are compared, so that small loads do not count as "
             "changes of a large factor");
    ar& streams::field("loadTrendRatio", loadTrendRatio)
        .range(1.0, 100.0)
        .doc("the load moves when four loadWindow means in a row rise (or fall) and the last is more than "
             "this "
             "factor off the first (each plus loadChangeFloor²): the window keeps only the last two");
    ar& streams::field("learningSpread", learningSpread)
        .range(0.01, 10.0)
        .doc(
            "a forecast whose standard deviation exceeds this share of the time left is flagged as learning");
  }

  /// The temperature statuses' thresholds.
  template<class Archive>
  void serializeThresholds(Archive& ar)
  {
    using streams::Unit;
    ar& streams::field("hotThreshold", hotThreshold)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("prior threshold of status 1 (where teams' code says the boards start to reduce the stiffness)");
    ar& streams::field("veryHotThreshold", veryHotThreshold)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("prior threshold of status 2 (the same source)");
    ar& streams::field("criticallyHotThreshold", criticallyHotThreshold)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("prior threshold of status 3 (the same source)");
    ar& streams::field("statusBand", statusBand)
        .unit(Unit::kelvins)
        .range(0.0, 200.0)
        .doc("a status transition teaches only where the estimate lies within this of the status's prior; a "
             "lower status at a higher estimate raises a prior by at most this");
    ar& streams::field("statusHoldTime", statusHoldTime)
        .unit(Unit::seconds)
        .range(0.0, 600.0)
        .doc("a status transition teaches only once the status held this long; one that falls back sooner "
             "flapped and counts as a faulty status change");
    ar& streams::field("taughtHotThresholds", taughtHotThresholds)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("per joint, the status-1 threshold this robot taught in an earlier run (its overlay, LogTool "
             "thermal --overlay); 0: none, the prior");
    ar& streams::field("taughtVeryHotThresholds", taughtVeryHotThresholds)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("the same for status 2");
    ar& streams::field("taughtCriticallyHotThresholds", taughtCriticallyHotThresholds)
        .unit(Unit::degreesCelsius)
        .range(0.0, 200.0)
        .doc("the same for status 3");
  }

  /// The fit kept across restarts (the robot's overlay, LogTool thermal --overlay).
  template<class Archive>
  void serializeTaughtFit(Archive& ar)
  {
    using streams::Unit;
    ar& streams::field("taughtNodeGains0", taughtNodeGains0)
        .range(0.0, 10000.0)
        .doc("K/A², per joint, the slowest node's rise per squared ampere this robot fitted in an earlier "
             "run (its overlay, LogTool thermal --overlay); 0 at every node: none, the prior");
    ar& streams::field("taughtNodeGains1", taughtNodeGains1)
        .range(0.0, 10000.0)
        .doc("K/A², the same for the second slowest node");
    ar& streams::field("taughtNodeGains2", taughtNodeGains2)
        .range(0.0, 10000.0)
        .doc("K/A², the same for the third slowest node");
    ar& streams::field("taughtNodeGains3", taughtNodeGains3)
        .range(0.0, 10000.0)
        .doc("K/A², the same for the fourth slowest node (the fastest of 4)");
    ar& streams::field("taughtAmbient", taughtAmbient)
        .unit(Unit::degreesCelsius)
        .range(-50.0, 100.0)
        .doc("the robot's T_amb at the end of an earlier run (the median over its joints): T_amb starts "
             "there, not at the reading, with ambientStdDev (the room may differ); 0: none, ambient");
    ar& streams::field("taughtRiseStdDev", taughtRiseStdDev)
        .range(0.01, 10.0)
        .doc("one standard deviation of a taught node's rise per squared ampere at the start, as a share of "
             "it (at least of the joint's sum over the nodes / nodes)");
  }
};
} // namespace nao
