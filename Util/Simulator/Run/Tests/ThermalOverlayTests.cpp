// A robot teaches its status thresholds once and keeps them (JointThermalStateProvider's README, "Thresholds"):
// robots stand unadjusted for 5 simulated minutes until their knees report status 1; `LogTool thermal LOG
// --overlay FILE` writes what each learned into its overlay (a copy of Config/, one robot folder per seed); the
// same robot's next run starts with those thresholds (source taught), and the forecast the module itself makes 120 s
// after the stand is held, the one the GUI shows, is within 50 % of the plant's time for each knee and 25 % in the
// median over seeds 100-102 (ThermalForecastTests' robots and claim, here without any offline rescaling).
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/TemporaryFolder.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"
#include "Util/Simulator/Run/ThermalForecast.h"

#include "Tools/Streams/TomlFiles.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>

using namespace nao;

namespace
{
/// Robot `seed`'s unadjusted stand of 5 minutes into `output` with its log, on `config` as robot `robot`.
void standUnadjusted(const std::filesystem::path& config, const std::string& robot, std::uint64_t seed,
                     const std::filesystem::path& output)
{
  std::vector<std::string> arguments =
      test::quietRunArguments("stand", "5", {"JointRequest=off", "EnergySaving=off"});
  std::erase(arguments, std::string("--no-log")); // the forecasts are in the robot's log
  *(std::find(arguments.begin(), arguments.end(), "--config") + 1) = config.string();
  arguments.insert(arguments.end(), {"--robot", robot});
  EnsembleOptions options = test::testEnsembleOptions(NAO_SIMULATOR_BINARY, arguments, 1, 0, seed, output);
  runEnsemble(options, {});
}
} // namespace

TEST(ThermalOverlay, ThresholdsTaughtInOneRunAreTheNextRunsAndItsOwnForecastHolds)
{
  test::TemporaryFolder folder("thermal-overlay");
  const std::filesystem::path config = folder.path / "Config";
  std::filesystem::copy(NAO_CONFIG_DIR, config, std::filesystem::copy_options::recursive);
  std::vector<RobotThermalForecast> taughtRuns;
  std::vector<JointForecast> reaching;
  for (std::uint64_t seed = 100; seed <= 102; ++seed)
  {
    const std::string robot = "Taught" + std::to_string(seed);
    const std::filesystem::path overlay =
        config / "Robots" / robot / "Modules/JointThermalStateProvider.toml";
    std::filesystem::create_directories(overlay.parent_path());
    const std::filesystem::path first = folder.path / (robot + "-first"),
                                second = folder.path / (robot + "-second");
    standUnadjusted(config, robot, seed, first);
    const std::filesystem::path log = first / ("robot-" + std::to_string(seed)) / "stand.log";
    const test::CommandResult written = test::runCommand(std::string(NAO_LOG_TOOL_BINARY) + " thermal " +
                                                         log.string() + " --overlay " + overlay.string());
    ASSERT_EQ(written.status, 0) << written.output;
    std::cout << written.output.substr(written.output.find("overlay "));
    const toml::table taught = streams::loadTomlFile(overlay);
    ASSERT_TRUE(taught["taughtHotThresholds"].is_table()) << streams::toTomlString(taught);

    standUnadjusted(config, robot, seed, second);
    const std::vector<RobotThermalForecast> run = evaluateThermalEnsemble(second, {120.0});
    ASSERT_EQ(run.size(), 1u);
    taughtRuns.push_back(run[0]);
    for (const JointForecast& forecast : run[0].forecasts)
    {
      if (!std::isfinite(forecast.actual)) continue;
      reaching.push_back(forecast);
      const std::string joint(jointNames[forecast.joint]);
      std::cout << "seed " << seed << " " << joint << ": threshold " << forecast.threshold
                << " °C, the module's forecast " << forecast.asRun << " s, plant " << forecast.actual
                << " s\n";
      EXPECT_NEAR(forecast.threshold, taught["taughtHotThresholds"][joint].value_or(0.0), 1e-4)
          << joint << " ran with the threshold the overlay holds";
      EXPECT_TRUE(std::isfinite(forecast.asRun)) << joint;
      EXPECT_LT(std::abs(forecast.asRun - forecast.actual), 0.5 * forecast.actual) << joint;
    }
  }
  ASSERT_GE(reaching.size(), 3u) << "the unadjusted knees reach status 1 within 5 minutes";
  const std::vector<ForecastErrors> asRun = forecastErrors(taughtRuns, {120.0}, false);
  ASSERT_EQ(asRun.size(), 1u);
  EXPECT_EQ(asRun[0].neverWrongly, 0u);
  EXPECT_LE(asRun[0].relativeMedian, 0.25);
}
