// The fault matrix's runs: the scenarios as run (their logs cut to what the judge reads, the push and the press
// added), one `Simulator run` per fault, run and robot, and what each run's log and truth say (FaultMatrix.h). The
// judge and the table: FaultMatrixReport.cpp.
#include "Util/Simulator/Run/FaultMatrix.h"
#include "Util/Simulator/Run/ScenarioLog.h"

#include "Framework/Client/LogDecoder.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/MotionControl/FallProtection.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/FallEvaluation.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/RunSummary.h"
#include "Util/Simulator/Run/SensorFaults.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nao
{
namespace
{
/// What the matrix's runs log: what the judge reads and nothing more (each log is read, then removed).
const std::vector<std::string> loggedRepresentations = {"FrameInfo",
                                                        "FallDownState",
                                                        "FallProtection",
                                                        "SitDown",
                                                        "CollisionFreeJointRequest",
                                                        "StiffnessJointRequest"};
constexpr double pushForce =
    45.0; ///< N forward for pushDuration: fallfront.toml's push (the stand topples at 3 N·s)
constexpr double pushDuration = 0.1;  ///< s
constexpr double pressDuration = 0.2; ///< s the chest button is held: chestbutton.toml's press
constexpr double frameTime = 0.012;   ///< s: the push runs record every frame's truth, for the impact's time

/// The scenario each run plays, in the configuration copy.
constexpr const char* scenarioNames[] = {"stand", "stepping", "sit", "faultpush", "faultpress"};

ScriptEvent eventOf(FaultRun run, double time)
{
  ScriptEvent event;
  event.time = static_cast<float>(time);
  event.kind = run == FaultRun::push ? ScriptEventKind::push : ScriptEventKind::pressButton;
  event.force = {run == FaultRun::push ? static_cast<float>(pushForce) : 0.f, 0.f, 0.f};
  event.duration = static_cast<float>(run == FaultRun::push ? pushDuration : pressDuration);
  return event;
}

/// A copy of Config/ in <output>/config whose scenarios log what the judge reads; the push and the press as
/// scenarios of their own.
std::filesystem::path prepareConfig(const FaultMatrixOptions& options)
{
  const std::filesystem::path config = options.output / "config";
  configLogging(options.config, config, {"stand", "stepping", "sit"}, loggedRepresentations);
  const std::filesystem::path scenarios = config / "Scenarios";
  const double eventTime = options.onset + options.eventDelay;
  for (const FaultRun run : {FaultRun::push, FaultRun::press})
    std::ofstream(scenarios / (std::string(scenarioNames[static_cast<int>(run)]) + ".toml"))
        << scenarioWithEvents(scenarios / "stand.toml", {eventOf(run, eventTime)});
  return config;
}

std::string label(const std::string& fault)
{
  return fault.empty() ? "baseline" : fault;
}

std::filesystem::path runFolder(const FaultMatrixOptions& options, const std::string& fault, FaultRun run,
                                std::uint64_t seed)
{
  return options.output / label(fault) / std::string(streams::enumName(run)) /
         ("robot-" + std::to_string(seed));
}

std::string text(double value)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

ProcessJob job(const FaultMatrixOptions& options, const std::filesystem::path& config,
               const std::string& fault, FaultRun run, std::uint64_t seed)
{
  const bool plain = static_cast<std::size_t>(run) < plainRuns;
  const double seconds =
      plain ? options.plainSeconds : options.onset + options.eventDelay + options.eventSeconds;
  const std::filesystem::path folder = runFolder(options, fault, run, seed);
  std::filesystem::remove_all(folder);
  std::vector<std::string> command = {options.simulator.string(),
                                      "run",
                                      scenarioNames[static_cast<int>(run)],
                                      "--config",
                                      config.string(),
                                      "--minutes",
                                      text(seconds / 60.0),
                                      "--seed",
                                      std::to_string(seed),
                                      "--output",
                                      folder.string(),
                                      "--quiet",
                                      "--no-plots"};
  if (run == FaultRun::push) command.insert(command.end(), {"--record-period", text(frameTime)});
  if (!fault.empty()) command.insert(command.end(), {"--fault", fault, "--fault-at", text(options.onset)});
  return {command, folder,
          label(fault) + " " + std::string(streams::enumName(run)) + " seed " + std::to_string(seed)};
}

/// Whether a fault changes the chest button's reading (Touch 0), which the press is made of.
bool changesChestButton(const InjectedFault& fault)
{
  for (const FaultChange& change : fault.changes)
    if (change.key == LolaSensorKey::Touch &&
        (change.elements.empty() ||
         std::find(change.elements.begin(), change.elements.end(), 0) != change.elements.end()))
      return true;
  return false;
}
} // namespace

RunFindings readRunFindings(const std::filesystem::path& folder, double onset, double event)
{
  const SimulationResult summary = readSummary(folder / "summary.csv");
  RunFindings findings;
  findings.seed = summary.seed;
  findings.event = event;
  for (const RunSample& sample : readSamples(folder / (summary.scenario + ".csv")))
  {
    if (sample.time <= summary.holdStart || !sample.upperBodyOnGround) continue;
    if (findings.fell < 0) findings.fell = sample.time;
    if (event >= 0 && sample.time >= event && findings.impact < 0) findings.impact = sample.time;
  }
  LogDecoder decoder(folder / (summary.scenario + ".log"));
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  FallState lastState = FallState::upright;
  SitDownPhase lastPhase = SitDownPhase::passThrough;
  std::uint32_t protectedBefore = 0;
  std::size_t stiffnessFrames = 0;
  while (decoder.next(frameNumber, records))
  {
    const FrameInfo* frame = recordOf<FrameInfo>(records);
    const FallDownState* state = recordOf<FallDownState>(records);
    const FallProtection* protection = recordOf<FallProtection>(records);
    const SitDown* sitDown = recordOf<SitDown>(records);
    const CollisionFreeJointRequest* input = recordOf<CollisionFreeJointRequest>(records);
    const StiffnessJointRequest* output = recordOf<StiffnessJointRequest>(records);
    if (!frame || !state || !protection || !sitDown || !input || !output) continue;
    const double t = frame->time;
    if (t < onset - 1e-9) protectedBefore = protection->protectedFalls;
    if (event >= 0 && t < event - 1e-9) findings.sittingAtEvent = sitDown->phase != SitDownPhase::passThrough;
    if (t >= onset - 1e-9)
    {
      const bool falling = state->state == FallState::falling || protection->protectedFalls > protectedBefore;
      if (falling && findings.protectiveFall < 0) findings.protectiveFall = t;
      if (sitDown->phase != SitDownPhase::passThrough && findings.sitDown < 0)
      {
        findings.sitDown = t;
        findings.sitDownReason = sitDown->reason;
      }
      if (state->state == FallState::lifted && findings.lifted < 0) findings.lifted = t;
    }
    const bool beforeImpact = findings.impact < 0 || t < findings.impact;
    if (event >= 0 && t >= event - 1e-9 && beforeImpact && findings.detection < 0 &&
        state->state == FallState::falling && lastState != FallState::falling)
      findings.detection = t;
    if (event >= 0 && t >= event - 1e-9 && findings.sittingDown < 0 &&
        sitDown->phase == SitDownPhase::sittingDown && lastPhase != SitDownPhase::sittingDown &&
        sitDown->reason == SitDownReason::chestButton)
      findings.sittingDown = t;
    if (t >= onset + 1.0 - 1e-9)
    {
      for (std::size_t j = 0; j < numOfJoints; ++j)
      {
        findings.stiffnessTaken[j] += input->stiffnesses[j] - output->stiffnesses[j];
        findings.stiffness[j] += output->stiffnesses[j];
      }
      ++stiffnessFrames;
    }
    lastState = state->state;
    lastPhase = sitDown->phase;
  }
  for (const auto& annotation : decoder.reader().annotations())
    if (const auto at = annotation.text.find("dropped (logger fell behind): "); at != std::string::npos)
      findings.droppedFrames = std::stoull(annotation.text.substr(at + 30));
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    findings.stiffnessTaken[j] /= static_cast<double>(std::max<std::size_t>(stiffnessFrames, 1));
    findings.stiffness[j] /= static_cast<double>(std::max<std::size_t>(stiffnessFrames, 1));
  }
  return findings;
}

FaultMatrixResult runFaultMatrix(const FaultMatrixOptions& options,
                                 const std::function<void(double)>& progress)
{
  const SensorFaults faults = loadSensorFaults(options.config);
  const std::filesystem::path config = prepareConfig(options);
  std::vector<std::string> names = {""}; // the baseline first
  names.insert(names.end(), options.faults.begin(), options.faults.end());
  std::vector<ProcessJob> jobs;
  for (const std::string& fault : names)
    for (std::size_t r = 0; r < streams::enumCount<FaultRun>; ++r)
      for (int k = 0; k < options.robots; ++k)
        jobs.push_back(job(options, config, fault, static_cast<FaultRun>(r),
                           options.seed + static_cast<std::uint64_t>(k)));
  // The runs are most of the time; reading their logs the rest.
  runProcesses(jobs, {options.jobs, "fault matrix runs", options.stopRequested},
               [&](double fraction)
               {
                 if (progress) progress(0.9 * fraction);
               });
  if (options.stopRequested && options.stopRequested()) throw std::runtime_error("stopped");

  const double eventTime = options.onset + options.eventDelay;
  std::vector<std::array<std::vector<RunFindings>, 5>> findings(names.size());
  for (std::size_t f = 0; f < names.size(); ++f)
  {
    for (std::size_t r = 0; r < streams::enumCount<FaultRun>; ++r)
      for (int k = 0; k < options.robots; ++k)
      {
        const auto folder = runFolder(options, names[f], static_cast<FaultRun>(r),
                                      options.seed + static_cast<std::uint64_t>(k));
        findings[f][r].push_back(readRunFindings(folder, options.onset, r < plainRuns ? -1.0 : eventTime));
        std::error_code ignored; // the logs are large: the CSV, summary and events stay
        if (!options.keepLogs)
          std::filesystem::remove(folder / (std::string(scenarioNames[r]) + ".log"), ignored);
      }
    if (progress) progress(0.9 + 0.1 * static_cast<double>(f + 1) / static_cast<double>(names.size()));
  }
  FaultMatrixResult result;
  result.robots = options.robots;
  result.onset = options.onset;
  result.plainSeconds = options.plainSeconds;
  result.eventDelay = options.eventDelay;
  result.eventSeconds = options.eventSeconds;
  result.stiffnessMargin = options.stiffnessMargin;
  for (std::size_t f = 0; f < names.size(); ++f)
  {
    const bool pressExempt = !names[f].empty() && changesChestButton(findFault(faults, names[f]));
    result.rows.push_back(judgeFault(names[f], false, pressExempt, findings[f], findings.front(),
                                     options.onset, options.stiffnessMargin));
  }
  return result;
}
} // namespace nao
