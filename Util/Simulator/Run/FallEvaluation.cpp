#include "Util/Simulator/Run/FallEvaluation.h"
#include "Framework/Client/LogDecoder.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/Sensing/InertialData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Tools/Inertial/ComplementaryFilter.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace nao
{
namespace
{
constexpr double frameTime = 0.012;        ///< s, LoLA's frame
constexpr double impactWindow = 3.0;       ///< s: a detection not followed by an impact within this is false
constexpr double maxEvaluatedTilt = 1.047; ///< rad (60°): beyond, roll and pitch are ill-conditioned

double wrap(double angle)
{
  return std::remainder(angle, 2 * M_PI);
}

std::string readText(const std::filesystem::path& path)
{
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string folderName(const FallRunSpec& spec)
{
  std::string name = spec.label + "-" + std::to_string(spec.seed);
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '-');
  return name;
}

std::string number(const char* format, double value)
{
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}
} // namespace

std::string scenarioWithEvents(const std::filesystem::path& scenario, const std::vector<ScriptEvent>& events)
{
  std::istringstream in(readText(scenario));
  std::string line, out;
  bool inEvent = false;
  while (std::getline(in, line))
  {
    if (line.rfind("[[Script.events]]", 0) == 0)
    {
      inEvent = true;
      continue;
    }
    if (inEvent && !line.empty() && line[0] == '[') inEvent = false;
    if (inEvent || line.rfind("events = ", 0) == 0) continue;
    out += line + "\n";
  }
  for (const ScriptEvent& event : events)
  {
    char block[256];
    std::snprintf(
        block, sizeof block,
        "\n[[Script.events]]\ntime = %.3f\nkind = \"%s\"\nforce = [%.3f, %.3f, %.3f]\nduration = %.3f\n",
        event.time, std::string(streams::enumName(event.kind)).c_str(), event.force[0], event.force[1],
        event.force[2], event.duration);
    out += block;
  }
  return out;
}

std::vector<ScriptEvent> risingPushes(double direction, double first, double interval,
                                      const std::vector<double>& impulses, double duration)
{
  std::vector<ScriptEvent> events;
  const double radians = direction * M_PI / 180;
  for (std::size_t k = 0; k < impulses.size(); ++k)
  {
    ScriptEvent event;
    event.time = static_cast<float>(first + interval * static_cast<double>(k));
    event.kind = ScriptEventKind::push;
    const double force = impulses[k] / duration;
    event.force = {static_cast<float>(force * std::cos(radians)),
                   static_cast<float>(force * std::sin(radians)), 0.f};
    event.duration = static_cast<float>(duration);
    events.push_back(event);
  }
  return events;
}

namespace
{
/// Copies the configuration into the run's folder (its scenario's events replaced when the spec asks) and runs the
/// simulation there, recording every frame.
SimulationResult simulateFallRun(const FallRunSpec& spec, const std::filesystem::path& configDirectory,
                                 const std::filesystem::path& folder)
{
  const std::filesystem::path config = folder / "config";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::filesystem::copy(configDirectory, config, std::filesystem::copy_options::recursive);
  std::string scenario = spec.scenario;
  if (spec.replaceEvents)
  {
    scenario = "fallrun";
    std::ofstream(config / "Scenarios" / "fallrun.toml")
        << scenarioWithEvents(configDirectory / "Scenarios" / (spec.scenario + ".toml"), spec.events);
  }

  SimulationOptions options;
  options.configDirectory = config;
  options.scenario = scenario;
  options.minutes = spec.seconds / 60.0;
  options.seed = spec.seed;
  options.outputDirectory = folder;
  options.writePlots = false;
  options.recordPeriod = frameTime;
  return runSimulation(options);
}

/// The impact (the first sample after the hold's start with the upper body on the ground) and the impulse of the
/// last push before it.
void findImpact(const SimulationResult& run, FallRunResult& result)
{
  for (const RunSample& sample : run.samples)
    if (sample.time > run.holdStart && sample.upperBodyOnGround)
    {
      result.impact = sample.time;
      break;
    }
  for (const ScriptEvent& event : run.events)
    if (event.kind == ScriptEventKind::push && (result.impact < 0 || event.time < result.impact))
      result.impulse = std::hypot(event.force[0], event.force[1], event.force[2]) * event.duration;
}

/// Counts FallDownState's falling frames and entries into falling; one is false when no impact follows within
/// impactWindow.
void countFalling(const std::vector<std::pair<double, bool>>& falling, FallRunResult& result)
{
  for (const auto& [time, entered] : falling)
  {
    ++result.fallingFrames;
    const bool followed = result.impact >= time - 1e-9 && result.impact <= time + impactWindow;
    result.falseFrames += !followed;
    result.detections += entered;
    result.falseDetections += entered && !followed;
  }
}

/// The decoded log, frame by frame: the complementary filter run alongside, FallDownState's falling frames, a CSV
/// row per frame with its truth (for plots), and the orientation errors of the frames the spec's phase counts.
class FrameEvaluator
{
public:
  FrameEvaluator(const FallRunSpec& spec, const SimulationResult& run, const std::filesystem::path& folder,
                 FallRunResult& result)
      : spec_(spec), run_(run), result_(result)
  {
    // The truth by frame: a sample recorded after the step that ends at time t holds what the robot's frame of
    // time t reads.
    for (const RunSample& sample : run.samples)
      truth_[std::lround(sample.time / frameTime)] = &sample;
    for (const ScriptEvent& event : run.events)
    {
      if (firstEvent_ < 0) firstEvent_ = event.time;
      if (event.kind == ScriptEventKind::pickUp && pickUp_ < 0) pickUp_ = event.time;
      if (event.kind == ScriptEventKind::putDown && putDown_ < 0) putDown_ = event.time;
    }
    // Every frame with its truth, for plots: s, degrees, FallDownState's state as a number.
    csv_.open(folder / "orientation.csv");
    csv_ << "time [s],true roll [deg],true pitch [deg],filter roll [deg],filter pitch [deg],complementary "
            "roll "
            "[deg],"
            "complementary pitch [deg],LoLA roll [deg],LoLA pitch [deg],fall state,upper body on ground\n";
  }

  /// One decoded frame; frames without the four representations are skipped.
  void frame(const std::vector<DecodedRecord>& records)
  {
    const FrameInfo* frame = recordOf<FrameInfo>(records);
    const InertialSensorData* sensors = recordOf<InertialSensorData>(records);
    const InertialData* data = recordOf<InertialData>(records);
    const FallDownState* state = recordOf<FallDownState>(records);
    if (!frame || !sensors || !data || !state) return;
    ++result_.frames;
    const double time = frame->time;
    updateComplementary(*sensors);
    trackFalling(time, state->state);

    const auto found = truth_.find(std::lround(time / frameTime));
    if (found == truth_.end()) return;
    const RunSample& sample = *found->second;
    const Eigen::Quaterniond q(sample.torsoOrientation[0], sample.torsoOrientation[1],
                               sample.torsoOrientation[2], sample.torsoOrientation[3]);
    const double tilt = std::acos(std::clamp(q.toRotationMatrix()(2, 2), -1.0, 1.0));
    writeRow(time, q, *sensors, *data, *state, sample);
    const bool beforeImpact = result_.impact < 0 || time < result_.impact;
    if (beforeImpact && time > run_.holdStart) result_.maxTilt = std::max(result_.maxTilt, tilt);
    if (!counted(time, beforeImpact) || tilt > maxEvaluatedTilt || !data->valid) return;
    addErrors(q, *sensors, *data);
  }

  /// Every falling frame: its time, and whether it entered falling there.
  const std::vector<std::pair<double, bool>>& falling() const { return falling_; }

private:
  /// The complementary filter: reset to the accelerometer at the first frame, updated at every other.
  void updateComplementary(const InertialSensorData& sensors)
  {
    const Eigen::Vector3d gyro(sensors.gyro[0], sensors.gyro[1], sensors.gyro[2]);
    const Eigen::Vector3d accelerometer(sensors.accelerometer[0], sensors.accelerometer[1],
                                        sensors.accelerometer[2]);
    if (!complementaryStarted_)
      complementary_.reset(accelerometer);
    else
      complementary_.update(gyro, accelerometer, frameTime, complementaryParameters_);
    complementaryStarted_ = true;
  }

  /// A falling frame, and the detection: the last entry into falling before the impact.
  void trackFalling(double time, FallState state)
  {
    if (state == FallState::falling)
    {
      falling_.emplace_back(time, last_ != FallState::falling);
      if (result_.impact < 0 || time < result_.impact)
        if (last_ != FallState::falling) result_.detection = time;
    }
    last_ = state;
  }

  /// The frame's CSV row: the true, filter, complementary and LoLA angles in degrees.
  void writeRow(double time, const Eigen::Quaterniond& q, const InertialSensorData& sensors,
                const InertialData& data, const FallDownState& state, const RunSample& sample)
  {
    constexpr double toDegrees = 180 / M_PI;
    const Eigen::Vector2d t = inertial::rollPitch(q), c = complementary_.angles();
    csv_ << time << ',' << t[0] * toDegrees << ',' << t[1] * toDegrees << ',' << data.angles[0] * toDegrees
         << ',' << data.angles[1] * toDegrees << ',' << c[0] * toDegrees << ',' << c[1] * toDegrees << ','
         << sensors.angles[0] * toDegrees << ',' << sensors.angles[1] * toDegrees << ','
         << static_cast<int>(state.state) << ',' << sample.upperBodyOnGround << '\n';
  }

  /// Whether the spec's phase counts the frame at `time` towards the errors.
  bool counted(double time, bool beforeImpact) const
  {
    switch (spec_.phase)
    {
    case FallPhase::stand:
    case FallPhase::stepping:
      return time > run_.holdStart + 1.0;
    case FallPhase::pushed:
      return firstEvent_ >= 0 && time >= firstEvent_ && beforeImpact;
    case FallPhase::lifted:
      return pickUp_ >= 0 && time >= pickUp_ + 0.5 && (putDown_ < 0 || time < putDown_);
    case FallPhase::none:
      break;
    }
    return false;
  }

  /// The frame's |roll| and |pitch| errors of the filter, the complementary filter and LoLA.
  void addErrors(const Eigen::Quaterniond& q, const InertialSensorData& sensors, const InertialData& data)
  {
    const Eigen::Vector2d trueAngles = inertial::rollPitch(q);
    const Eigen::Vector2d complementaryAngles = complementary_.angles();
    for (int axis = 0; axis < 2; ++axis)
    {
      const auto a = static_cast<std::size_t>(axis);
      result_.filterErrors.push_back(std::abs(wrap(data.angles[a] - trueAngles[axis])));
      result_.complementaryErrors.push_back(std::abs(wrap(complementaryAngles[axis] - trueAngles[axis])));
      result_.lolaErrors.push_back(std::abs(wrap(sensors.angles[a] - trueAngles[axis])));
    }
  }

  const FallRunSpec& spec_;
  const SimulationResult& run_;
  FallRunResult& result_;
  std::map<long, const RunSample*> truth_;
  double firstEvent_ = -1, pickUp_ = -1, putDown_ = -1; ///< s, −1: none
  inertial::ComplementaryFilter complementary_;
  const inertial::ComplementaryParameters complementaryParameters_;
  bool complementaryStarted_ = false;
  std::ofstream csv_;
  std::vector<std::pair<double, bool>> falling_; // time, entered falling there
  FallState last_ = FallState::upright;
};
} // namespace

FallRunResult runFallEvaluation(const FallRunSpec& spec, const std::filesystem::path& configDirectory,
                                const std::filesystem::path& output)
{
  const std::filesystem::path folder = output / folderName(spec);
  const SimulationResult run = simulateFallRun(spec, configDirectory, folder);
  FallRunResult result;
  result.spec = spec;
  result.log = run.log;
  findImpact(run, result);
  FrameEvaluator evaluator(spec, run, folder, result);
  LogDecoder decoder(run.log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  while (decoder.next(frameNumber, records))
    evaluator.frame(records);
  countFalling(evaluator.falling(), result);
  return result;
}

std::vector<FallRunSpec> fallRunSpecs(const std::vector<std::uint64_t>& seeds)
{
  // N·s, rising: the stiff stand takes the first ones (the robot weighs 5.3 kg: 1 N·s is 0.19 m/s).
  const std::vector<double> impulses = {1, 2, 3, 4, 5, 6, 7, 8, 10, 12};
  std::vector<FallRunSpec> specs;
  for (const std::uint64_t seed : seeds)
  {
    specs.push_back({"stand", "stand", false, {}, FallPhase::stand, 30, seed, 0});
    specs.push_back({"stepping", "stepping", false, {}, FallPhase::stepping, 40, seed, 0});
    ScriptEvent up, down;
    up.kind = ScriptEventKind::pickUp;
    up.time = 8.f;
    down.kind = ScriptEventKind::putDown;
    down.time = 20.f;
    specs.push_back({"picked up", "lifted", true, {up, down}, FallPhase::lifted, 30, seed, 0});
    specs.push_back({"arm motions", "armexample", false, {}, FallPhase::none, 20, seed, 0});
    specs.push_back({"sit", "sit", false, {}, FallPhase::none, 20, seed, 0});
    for (int k = 0; k < 8; ++k)
    {
      const double direction = 45.0 * k;
      specs.push_back({"push " + number("%.0f", direction) + "°", "stand", true,
                       risingPushes(direction, 4.0, 3.0, impulses, 0.1), FallPhase::pushed, 36, seed,
                       direction});
    }
  }
  return specs;
}
} // namespace nao

namespace nao
{
std::string runFallEnsemble(const std::filesystem::path& configDirectory,
                            const std::vector<std::uint64_t>& seeds, const std::filesystem::path& output)
{
  std::vector<FallRunResult> results;
  for (const FallRunSpec& spec : fallRunSpecs(seeds))
  {
    results.push_back(runFallEvaluation(spec, configDirectory, output));
    const FallRunResult& r = results.back();
    std::printf("%s seed %llu: %zu frames, impact %.2f s, detected %.2f s, false detections %zu\n",
                spec.label.c_str(), static_cast<unsigned long long>(spec.seed), r.frames, r.impact,
                r.detection, r.falseDetections);
    std::fflush(stdout);
    // The logs are large: only orientation.csv is kept of each run.
    std::error_code ignored;
    std::filesystem::remove_all(output / folderName(spec) / "config", ignored);
    std::filesystem::remove(r.log, ignored);
  }
  const std::string tables = fallTables(results);
  std::ofstream(output / "falls.md") << tables;
  return tables;
}
} // namespace nao
