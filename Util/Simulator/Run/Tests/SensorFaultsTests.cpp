// Sensor faults (Config/Sim/faults.toml): each fault of the file changes exactly what it names of the LoLA frame and
// nothing else, from its onset, for its duration; the modes do what they say (a held reading stays, a flapping one
// alternates, a one-frame glitch lasts one frame, NaN is NaN); the file's checks name the key; and a run delivers the
// faulty frame to the robot (its log) while its own outputs (CSV, summary, events, plots) say which fault ran when.
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Tools/Streams/ConfigError.h"
#include "Tools/Streams/TomlFiles.h"
#include "Tools/Testing/TemporaryFolder.h"
#include "Util/Simulator/Physics/Tests/NeutralDefaults.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/RunSummary.h"
#include "Util/Simulator/Run/SensorFaults.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
constexpr double frameTime = lolaFrameSeconds;
constexpr double onset = 1.2; ///< s: frame 100

/// A frame of readings that differ per key, element and frame, so that any change shows (Status 0..3).
LolaSensorFrame baseFrame(long frame)
{
  LolaSensorFrame lola;
  for (std::size_t k = 0; k < streams::enumCount<LolaSensorKey>; ++k)
    for (std::size_t e = 0; e < elementCount(static_cast<LolaSensorKey>(k)); ++e)
    {
      const float value =
          static_cast<float>(k) + 0.01f * static_cast<float>(e) + 0.0001f * static_cast<float>(frame);
      switch (static_cast<LolaSensorKey>(k))
      {
      case LolaSensorKey::Position:
        lola.position[e] = value;
        break;
      case LolaSensorKey::Stiffness:
        lola.stiffness[e] = value;
        break;
      case LolaSensorKey::Temperature:
        lola.temperature[e] = value;
        break;
      case LolaSensorKey::Current:
        lola.current[e] = value;
        break;
      case LolaSensorKey::Status:
        lola.status[e] = static_cast<std::int32_t>((e + static_cast<std::size_t>(frame)) % 4);
        break;
      case LolaSensorKey::Accelerometer:
        lola.accelerometer[e] = value;
        break;
      case LolaSensorKey::Gyroscope:
        lola.gyroscope[e] = value;
        break;
      case LolaSensorKey::Angles:
        lola.angles[e] = value;
        break;
      case LolaSensorKey::FSR:
        lola.fsr[e] = value;
        break;
      case LolaSensorKey::Touch:
        lola.touch[e] = value;
        break;
      case LolaSensorKey::Battery:
        lola.battery[e] = value;
        break;
      }
    }
  lola.sonar = {0.5f, 0.7f + 0.0001f * static_cast<float>(frame)};
  return lola;
}

float reading(const LolaSensorFrame& lola, LolaSensorKey key, std::size_t e)
{
  switch (key)
  {
  case LolaSensorKey::Position:
    return lola.position[e];
  case LolaSensorKey::Stiffness:
    return lola.stiffness[e];
  case LolaSensorKey::Temperature:
    return lola.temperature[e];
  case LolaSensorKey::Current:
    return lola.current[e];
  case LolaSensorKey::Status:
    return static_cast<float>(lola.status[e]);
  case LolaSensorKey::Accelerometer:
    return lola.accelerometer[e];
  case LolaSensorKey::Gyroscope:
    return lola.gyroscope[e];
  case LolaSensorKey::Angles:
    return lola.angles[e];
  case LolaSensorKey::FSR:
    return lola.fsr[e];
  case LolaSensorKey::Touch:
    return lola.touch[e];
  case LolaSensorKey::Battery:
    return lola.battery[e];
  }
  return 0.f;
}

bool names(const FaultChange& change, LolaSensorKey key, std::size_t e)
{
  if (change.key != key) return false;
  return change.elements.empty() || std::find(change.elements.begin(), change.elements.end(),
                                              static_cast<int>(e)) != change.elements.end();
}

/// What the reading of a named element must be at `frame` (counted from the onset), written out from the file's
/// words, independently of the injector: set, add, scale, hold, nan while on; offValue or the truth while off; the
/// truth after the duration.
float expected(const FaultChange& change, long frame, float truth, float atOnset)
{
  const auto frames = [](double s) { return s <= 0 ? 0L : std::max(1L, std::lround(s / frameTime)); };
  if (frames(change.duration) > 0 && frame >= frames(change.duration)) return truth;
  const long on = frames(change.onTime), off = frames(change.offTime);
  if (off > 0 && frame % (on + off) >= on)
    return change.offValue.empty() ? truth : static_cast<float>(change.offValue.front());
  switch (change.mode)
  {
  case FaultMode::set:
    return static_cast<float>(change.value);
  case FaultMode::add:
    return truth + static_cast<float>(change.value);
  case FaultMode::scale:
    return truth * static_cast<float>(change.value);
  case FaultMode::hold:
    return atOnset;
  case FaultMode::nan:
    return std::nanf("");
  }
  return truth;
}

bool same(float a, float b)
{
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

const SensorFaults& projectFaults()
{
  static const SensorFaults faults = loadSensorFaults(NAO_CONFIG_DIR);
  return faults;
}

/// The readings `fault` leaves at each frame from 0 to `frames` (the onset at frame 100).
std::vector<LolaSensorFrame> inject(const InjectedFault& fault, long frames)
{
  SensorFaultInjector injector(fault, onset, frameTime);
  std::vector<LolaSensorFrame> out;
  for (long k = 0; k < frames; ++k)
  {
    LolaSensorFrame lola = baseFrame(k);
    injector.apply(static_cast<double>(k) * frameTime, lola);
    out.push_back(lola);
  }
  return out;
}

SensorFaults parse(const std::string& text)
{
  SensorFaults faults;
  streams::loadFromTable(streams::parseToml(text, "faults.toml"), faults);
  validate(faults);
  return faults;
}

std::string change(const std::string& fields)
{
  return "[[faults]]\nname = \"x\"\nreason = \"why\"\nchanges = [{ " + fields + " }]\n";
}
} // namespace

TEST(SensorFaults, TheFileHoldsTheFaultsOfIssue43EachWithItsReason)
{
  const SensorFaults& faults = projectFaults();
  for (const char* name : {"gyroStuck1",          "gyroStuck5",           "gyroBias030",
                           "gyroBias045",         "gyroBias060",          "gyroSaturated",
                           "accelerometerDead",   "accelerometerNaN",     "accelerometerSaturated",
                           "accelerometerSpikes", "accelerometerFlipped", "accelerometerOffset",
                           "anglesStuck",         "fsrAllZero",           "fsrAllNegative",
                           "fsrLeftFootZero",     "fsrSaturated",         "fsrOneNaN",
                           "batteryZeroOnce",     "batteryMinusOneOnce",  "batteryFlapping",
                           "batteryNaN",          "chestButtonGlitch",    "chestButtonStuck",
                           "headTouchNoise",      "temperatureNaN",       "currentNaN",
                           "temperatureSpike",    "statusFlapping",       "encoderStuck"})
    EXPECT_NO_THROW(findFault(faults, name)) << name;
  for (const InjectedFault& fault : faults.faults)
    EXPECT_GT(fault.reason.size(), 20u) << fault.name << ": every fault says why a real NAO could read so";
}

TEST(SensorFaults, TheFaultsLiveOnlyInTheirFile)
{
  // As the plant's values (SimPhysicsTests, PlantValuesLiveOnlyInConfigSim): faults.toml states every value, the
  // structs it loads into start at zero or empty (enums are structural and not checked).
  EXPECT_EQ(sim::test::NeutralDefaultsArchive::nonNeutralLeaves(SensorFaults{}), std::vector<std::string>{});
}

TEST(SensorFaults, EachFaultChangesExactlyWhatItNamesFromItsOnsetForItsDuration)
{
  constexpr long frames = 400; // 100 before the onset, 300 (3.6 s) after: three spikes a second apart
  for (const InjectedFault& fault : projectFaults().faults)
  {
    SCOPED_TRACE(fault.name);
    const std::vector<LolaSensorFrame> out = inject(fault, frames);
    for (long k = 0; k < frames; ++k)
    {
      const LolaSensorFrame truth = baseFrame(k), atOnset = baseFrame(100);
      ASSERT_EQ(out[k].sonar, truth.sonar) << "frame " << k << ": a key no fault names";
      for (std::size_t key = 0; key < streams::enumCount<LolaSensorKey>; ++key)
        for (std::size_t e = 0; e < elementCount(static_cast<LolaSensorKey>(key)); ++e)
        {
          const auto lolaKey = static_cast<LolaSensorKey>(key);
          float want = reading(truth, lolaKey, e);
          for (const FaultChange& c : fault.changes)
            if (k >= 100 && names(c, lolaKey, e))
              want = expected(c, k - 100, want, reading(atOnset, lolaKey, e));
          ASSERT_TRUE(same(reading(out[k], lolaKey, e), want))
              << "frame " << k << ", " << streams::enumName(lolaKey) << "[" << e
              << "]: " << reading(out[k], lolaKey, e) << " instead of " << want;
        }
    }
  }
}

TEST(SensorFaults, TheModesDoWhatTheySay)
{
  const SensorFaults& faults = projectFaults();
  // hold: the encoder keeps the reading of the onset's frame while the truth moves on.
  const auto held = inject(findFault(faults, "encoderStuck"), 300);
  EXPECT_EQ(held[250].position[10], baseFrame(100).position[10]);
  EXPECT_NE(held[250].position[10], baseFrame(250).position[10]);
  EXPECT_EQ(held[99].position[10], baseFrame(99).position[10]) << "nothing before the onset";
  // One frame: the charge reads 0 in the onset's frame only.
  const auto once = inject(findFault(faults, "batteryZeroOnce"), 300);
  int zeros = 0;
  for (const LolaSensorFrame& lola : once)
    zeros += lola.battery[0] == 0.f;
  EXPECT_EQ(zeros, 1);
  EXPECT_EQ(once[100].battery[0], 0.f);
  // Flapping: 0, 1, 0, 1, ... from the onset on.
  const auto flapping = inject(findFault(faults, "batteryFlapping"), 300);
  for (long k = 100; k < 110; ++k)
    EXPECT_EQ(flapping[k].battery[0], (k - 100) % 2 == 0 ? 0.f : 1.f) << k;
  // Spikes: one frame a second.
  const auto spikes = inject(findFault(faults, "accelerometerSpikes"), 400);
  int spikeFrames = 0;
  for (long k = 0; k < 400; ++k)
    spikeFrames += spikes[k].accelerometer[0] == 50.f;
  EXPECT_EQ(spikeFrames, 4) << "frames 100, 183, 266, 349: one a second (83 frames) for 3.6 s";
  // A pressed chest button in six frames (60 ms from the first to the last).
  const auto glitch = inject(findFault(faults, "chestButtonGlitch"), 300);
  int pressed = 0;
  for (const LolaSensorFrame& lola : glitch)
    pressed += lola.touch[0] == 1.f;
  EXPECT_EQ(pressed, 6);
  // NaN, and the status word that flaps between 0 and 3.
  EXPECT_TRUE(std::isnan(inject(findFault(faults, "batteryNaN"), 200)[150].battery[0]));
  const auto status = inject(findFault(faults, "statusFlapping"), 200);
  EXPECT_EQ(status[100].status[10], 3);
  EXPECT_EQ(status[101].status[10], 0);
  EXPECT_EQ(status[102].status[10], 3);
}

TEST(SensorFaults, TheFaultsEventSaysWhenItBeganAndEnded)
{
  const SensorFaults& faults = projectFaults();
  const FaultEvent once = SensorFaultInjector(findFault(faults, "batteryZeroOnce"), 10.0).event();
  EXPECT_EQ(once.name, "batteryZeroOnce");
  EXPECT_DOUBLE_EQ(once.onset, 10.0);
  EXPECT_NEAR(once.end, 10.012, 1e-9);
  EXPECT_LT(SensorFaultInjector(findFault(faults, "gyroStuck5"), 10.0).event().end, 0)
      << "to the end of the run";
}

TEST(SensorFaults, TheFilesChecksNameTheKey)
{
  const std::string ok =
      R"(key = "Gyroscope", elements = [], mode = "set", value = 1.0, onTime = 0.0, offTime = 0.0, offValue = [], duration = 0.0)";
  EXPECT_NO_THROW(parse(change(ok)));
  const auto error = [](const std::string& text)
  {
    try
    {
      parse(text);
    }
    catch (const streams::ConfigError& e)
    {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const auto with = [&](const std::string& from, const std::string& to)
  {
    std::string text = ok;
    text.replace(text.find(from), from.size(), to);
    return change(text);
  };
  EXPECT_NE(error(with("\"Gyroscope\"", "\"Gyro\"")).find("key"), std::string::npos);
  EXPECT_NE(error(with("elements = []", "elements = [3]")).find("faults.x.changes[0].elements"),
            std::string::npos)
      << error(with("elements = []", "elements = [3]"));
  EXPECT_NE(error(with("elements = []", "elements = [1, 1]")).find("named twice"), std::string::npos);
  EXPECT_NE(error(with("offValue = []", "offValue = [0.0, 1.0]")).find("changes[0].offValue"),
            std::string::npos);
  EXPECT_NE(error(with("offTime = 0.0", "offTime = 0.5")).find("changes[0].onTime"), std::string::npos);
  EXPECT_NE(error(with("duration = 0.0", "duration = 0.001")).find("changes[0].duration"), std::string::npos);
  const std::string status =
      R"(key = "Status", elements = [10], mode = "set", value = 1.0, onTime = 0.0, offTime = 0.0, offValue = [], duration = 0.0)";
  EXPECT_NO_THROW(parse(change(status))) << "a Status set to 1";
  std::string half = status;
  half.replace(half.find("1.0"), 3, "1.5");
  EXPECT_NE(error(change(half)).find("whole number 0..3"), std::string::npos) << error(change(half));
  EXPECT_NE(
      error(
          change(
              R"(key = "Status", elements = [], mode = "nan", value = 0.0, onTime = 0.0, offTime = 0.0, offValue = [], duration = 0.0)"))
          .find("set (to 0..3) or held"),
      std::string::npos);
  EXPECT_NE(error(change(ok) + change(ok)).find("a second fault of this name"), std::string::npos);
  EXPECT_NE(
      error("[[faults]]\nname = \"x\"\nreason = \"\"\nchanges = [{ " + ok + " }]\n").find("faults.x.reason"),
      std::string::npos);
  EXPECT_NE(error(with("duration = 0.0", "duration = 0.0, extra = 1")).find("extra"), std::string::npos)
      << "an unknown key";
  try
  {
    findFault(projectFaults(), "gyroStuk5");
    FAIL() << "an unknown fault";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_NE(std::string(e.what()).find("did you mean 'gyroStuck5'"), std::string::npos) << e.what();
  }
}

TEST(SensorFaults, ARunDeliversTheFaultToTheRobotAndSaysSo)
{
  // The stand with the charge reading 0 for one frame at 1.2 s: the robot's BatteryData reads 0 in exactly that frame
  // (the plant's battery is full); the run's summary, events and plot script name the fault.
  SimulationOptions options = test::testRunOptions("stand", 2.0 / 60.0, 1, "nao-sensor-fault-run");
  options.fault = "batteryZeroOnce";
  options.faultAt = onset;
  const SimulationResult result = runSimulation(options);
  const auto frames = test::framesOf<FrameInfo, BatteryData>(
      result.log, [](const FrameInfo& f, const BatteryData& b) { return std::pair(f.time, b.charge); });
  int zeros = 0;
  for (const auto& [time, charge] : frames)
  {
    zeros += charge == 0.f;
    if (charge == 0.f)
    {
      EXPECT_NEAR(time, onset, 0.5 * frameTime);
    }
  }
  EXPECT_EQ(zeros, 1) << "one frame, if the logger kept it: " << test::droppedLogFrames(result.log)
                      << " dropped";
  const SimulationResult summary = readSummary(result.summary);
  ASSERT_TRUE(summary.fault.has_value());
  EXPECT_EQ(summary.fault->name, "batteryZeroOnce");
  EXPECT_NEAR(summary.fault->onset, onset, 1e-9);
  std::optional<FaultEvent> fault;
  readEvents(result.eventsCsv, &fault);
  ASSERT_TRUE(fault.has_value());
  EXPECT_EQ(fault->name, "batteryZeroOnce");
  EXPECT_NEAR(fault->end, onset + frameTime, 1e-6);
  std::vector<std::filesystem::path> pngs;
  const std::string script = plotScript(result.csv, plotTitle(result), result.events, pngs, fault);
  EXPECT_NE(script.find("sensor fault batteryZeroOnce"), std::string::npos);
  EXPECT_NE(plotTitle(result).find("sensor fault batteryZeroOnce at 1.2 s"), std::string::npos)
      << plotTitle(result);
}

TEST(SensorFaults, AScenariosStartChargeIsTheSimulatedBatterys)
{
  // [Script] batteryCharge: the battery starts there and runs down at the rate its current allows (it falls, slowly).
  const test::TemporaryFolder folder("scenario-battery");
  std::filesystem::copy(NAO_CONFIG_DIR, folder.path / "Config", std::filesystem::copy_options::recursive);
  const std::filesystem::path scenarios = folder.path / "Config" / "Scenarios";
  std::ifstream in(scenarios / "stand.toml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("loopFrom = -1"), 13, "loopFrom = -1\nbatteryCharge = 0.102");
  std::ofstream(scenarios / "lowstart.toml") << text;
  SimulationOptions options = test::testRunOptions("lowstart", 2.0 / 60.0, 1, "nao-scenario-battery");
  options.configDirectory = folder.path / "Config";
  const SimulationResult result = runSimulation(options);
  const auto charges = test::framesOf<BatteryData>(result.log, [](const BatteryData& b) { return b.charge; });
  ASSERT_FALSE(charges.empty());
  EXPECT_NEAR(charges.front(), 0.102, 1e-4);
  EXPECT_LT(charges.back(), charges.front());
  EXPECT_GT(charges.back(), 0.1) << "2 s at a few amperes take a few thousandths of 2.9 Ah at most";
}
