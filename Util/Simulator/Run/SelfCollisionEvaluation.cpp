#include "Util/Simulator/Run/SelfCollisionEvaluation.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Util/Simulator/Run/LogFrames.h"
#include "Util/Simulator/Run/PosedBody.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace nao
{
SelfCollisionRun evaluateSelfCollisionLog(const std::filesystem::path& configDirectory,
                                          const std::filesystem::path& log, const std::filesystem::path& csv)
{
  PosedBody judge(ConfigFiles{{configDirectory, "Default"}, {}});
  SelfCollisionRun outcome;
  std::ofstream file;
  if (!csv.empty())
  {
    file.open(csv);
    file << "time [s],smallest pair distance [mm]\n";
  }
  for (const JointArray<float>& angles :
       logFramesOf<JointSensorData>(log, [](const JointSensorData& joints) { return joints.angles; }))
  {
    judge.pose(angles);
    const int closest = judge.closestPair(); // none: SelfCollision.minDistance's 0
    const float distance = closest < 0 ? 0.f : static_cast<float>(judge.pairDistance(closest));
    if (distance < outcome.minDistance && closest >= 0) outcome.closestPair = judge.pairName(closest);
    outcome.minDistance = std::min(outcome.minDistance, distance);
    if (file.is_open()) file << outcome.frames * 0.012 << ',' << distance * 1000.f << '\n';
    ++outcome.frames;
  }
  return outcome;
}

SelfCollisionRun runSelfCollisionScenario(const std::filesystem::path& configDirectory,
                                          const std::string& scenario, std::uint64_t seed, bool stageOn,
                                          const std::filesystem::path& outputDirectory)
{
  SimulationOptions options =
      freshRunOptions(configDirectory, scenario, selfCollisionRunMinutes, seed, outputDirectory);
  if (!stageOn) options.providerOverrides = {{"CollisionFreeJointRequest", "off", {}}};
  const SimulationResult result = runSimulation(options);
  SelfCollisionRun outcome =
      evaluateSelfCollisionLog(configDirectory, result.log, outputDirectory / "distance.csv");
  outcome.positionsOutOfRange = result.positionsOutOfRange;
  outcome.log = result.log;
  return outcome;
}

std::string selfCollisionTable(const std::vector<SelfCollisionOutcome>& outcomes, const std::string& command)
{
  std::string text;
  if (!command.empty()) text += "Written by `" + command + "`.\n\n";
  text += "SelfCollisionProvider's scenarios on simulated robots, each run twice with the same seed: the "
          "stage off (CollisionFreeJointRequest off) and on. One row per scenario and seed: the smallest "
          "signed distance of any shape pair of selfCollision.toml over the run (< 0: inside the body) at "
          "the measured posture (the robot log's joint angles, every pair counted, nothing protected), the "
          "pair it was, and the log's frames judged.\n\n";
  text += "| scenario | seed | stage off [mm] | closest pair, off | stage on [mm] | closest pair, on | "
          "frames off | frames on |\n| --- | ---: | ---: | --- | ---: | --- | ---: | ---: |\n";
  char line[400];
  for (const SelfCollisionOutcome& o : outcomes)
  {
    std::snprintf(line, sizeof(line), "| %s | %llu | %.1f | %s | %.1f | %s | %d | %d |\n", o.scenario.c_str(),
                  static_cast<unsigned long long>(o.seed), o.off.minDistance * 1000.f,
                  o.off.closestPair.c_str(), o.on.minDistance * 1000.f, o.on.closestPair.c_str(),
                  o.off.frames, o.on.frames);
    text += line;
  }
  return text;
}
} // namespace nao
