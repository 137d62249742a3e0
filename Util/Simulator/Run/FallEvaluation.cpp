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

std::string degrees(double radians)
{
  if (std::isnan(radians)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", radians * 180 / M_PI);
  return text;
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

FallRunResult runFallEvaluation(const FallRunSpec& spec, const std::filesystem::path& configDirectory,
                                const std::filesystem::path& output)
{
  const std::filesystem::path folder = output / folderName(spec);
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
  const SimulationResult run = runSimulation(options);

  FallRunResult result;
  result.spec = spec;
  result.log = run.log;
  // The truth by frame: a sample recorded after the step that ends at time t holds what the robot's frame of
  // time t reads.
  std::map<long, const RunSample*> truth;
  for (const RunSample& sample : run.samples)
    truth[std::lround(sample.time / frameTime)] = &sample;
  double firstEvent = -1, pickUp = -1, putDown = -1;
  for (const ScriptEvent& event : run.events)
  {
    if (firstEvent < 0) firstEvent = event.time;
    if (event.kind == ScriptEventKind::pickUp && pickUp < 0) pickUp = event.time;
    if (event.kind == ScriptEventKind::putDown && putDown < 0) putDown = event.time;
  }
  for (const RunSample& sample : run.samples)
    if (sample.time > run.holdStart && sample.upperBodyOnGround)
    {
      result.impact = sample.time;
      break;
    }
  for (const ScriptEvent& event : run.events)
    if (event.kind == ScriptEventKind::push && (result.impact < 0 || event.time < result.impact))
      result.impulse = std::hypot(event.force[0], event.force[1], event.force[2]) * event.duration;

  inertial::ComplementaryFilter complementary;
  const inertial::ComplementaryParameters complementaryParameters;
  bool complementaryStarted = false;
  // Every frame with its truth, for plots: s, degrees, FallDownState's state as a number.
  std::ofstream csv(folder / "orientation.csv");
  csv << "time [s],true roll [deg],true pitch [deg],filter roll [deg],filter pitch [deg],complementary roll "
         "[deg],"
         "complementary pitch [deg],LoLA roll [deg],LoLA pitch [deg],fall state,upper body on ground\n";
  LogDecoder decoder(run.log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  std::vector<std::pair<double, bool>> falling; // time, entered falling there
  FallState last = FallState::upright;
  while (decoder.next(frameNumber, records))
  {
    const FrameInfo* frame = recordOf<FrameInfo>(records);
    const InertialSensorData* sensors = recordOf<InertialSensorData>(records);
    const InertialData* data = recordOf<InertialData>(records);
    const FallDownState* state = recordOf<FallDownState>(records);
    if (!frame || !sensors || !data || !state) continue;
    ++result.frames;
    const double time = frame->time;
    const Eigen::Vector3d gyro(sensors->gyro[0], sensors->gyro[1], sensors->gyro[2]);
    const Eigen::Vector3d accelerometer(sensors->accelerometer[0], sensors->accelerometer[1],
                                        sensors->accelerometer[2]);
    if (!complementaryStarted)
      complementary.reset(accelerometer);
    else
      complementary.update(gyro, accelerometer, frameTime, complementaryParameters);
    complementaryStarted = true;
    if (state->state == FallState::falling)
    {
      falling.emplace_back(time, last != FallState::falling);
      if (result.impact < 0 || time < result.impact)
        if (last != FallState::falling) result.detection = time;
    }
    last = state->state;

    const auto found = truth.find(std::lround(time / frameTime));
    if (found == truth.end()) continue;
    const RunSample& sample = *found->second;
    const Eigen::Quaterniond q(sample.torsoOrientation[0], sample.torsoOrientation[1],
                               sample.torsoOrientation[2], sample.torsoOrientation[3]);
    const double tilt = std::acos(std::clamp(q.toRotationMatrix()(2, 2), -1.0, 1.0));
    {
      constexpr double toDegrees = 180 / M_PI;
      const Eigen::Vector2d t = inertial::rollPitch(q), c = complementary.angles();
      csv << time << ',' << t[0] * toDegrees << ',' << t[1] * toDegrees << ',' << data->angles[0] * toDegrees
          << ',' << data->angles[1] * toDegrees << ',' << c[0] * toDegrees << ',' << c[1] * toDegrees << ','
          << sensors->angles[0] * toDegrees << ',' << sensors->angles[1] * toDegrees << ','
          << static_cast<int>(state->state) << ',' << sample.upperBodyOnGround << '\n';
    }
    const bool beforeImpact = result.impact < 0 || time < result.impact;
    if (beforeImpact && time > run.holdStart) result.maxTilt = std::max(result.maxTilt, tilt);
    bool counted = false;
    switch (spec.phase)
    {
    case FallPhase::stand:
    case FallPhase::stepping:
      counted = time > run.holdStart + 1.0;
      break;
    case FallPhase::pushed:
      counted = firstEvent >= 0 && time >= firstEvent && beforeImpact;
      break;
    case FallPhase::lifted:
      counted = pickUp >= 0 && time >= pickUp + 0.5 && (putDown < 0 || time < putDown);
      break;
    case FallPhase::none:
      break;
    }
    if (!counted || tilt > maxEvaluatedTilt || !data->valid) continue;
    const Eigen::Vector2d trueAngles = inertial::rollPitch(q);
    const Eigen::Vector2d complementaryAngles = complementary.angles();
    for (int axis = 0; axis < 2; ++axis)
    {
      const auto a = static_cast<std::size_t>(axis);
      result.filterErrors.push_back(std::abs(wrap(data->angles[a] - trueAngles[axis])));
      result.complementaryErrors.push_back(std::abs(wrap(complementaryAngles[axis] - trueAngles[axis])));
      result.lolaErrors.push_back(std::abs(wrap(sensors->angles[a] - trueAngles[axis])));
    }
  }
  // A falling frame is false when no impact follows within impactWindow.
  for (const auto& [time, entered] : falling)
  {
    ++result.fallingFrames;
    const bool followed = result.impact >= time - 1e-9 && result.impact <= time + impactWindow;
    result.falseFrames += !followed;
    result.detections += entered;
    result.falseDetections += entered && !followed;
  }
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

std::string fallTables(const std::vector<FallRunResult>& results)
{
  std::ostringstream out;
  // (a) Errors per phase.
  const std::pair<FallPhase, const char*> phases[] = {{FallPhase::stand, "stand"},
                                                      {FallPhase::stepping, "stepping"},
                                                      {FallPhase::pushed, "pushes (until the impact)"},
                                                      {FallPhase::lifted, "picked up"}};
  out << "| phase | frames | filter median [°] | filter 90 % [°] | compl. median [°] | compl. 90 % [°] "
         "| LoLA median [°] | LoLA 90 % [°] |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& [phase, label] : phases)
  {
    std::vector<double> filter, complementary, lola;
    for (const FallRunResult& r : results)
      if (r.spec.phase == phase)
      {
        filter.insert(filter.end(), r.filterErrors.begin(), r.filterErrors.end());
        complementary.insert(complementary.end(), r.complementaryErrors.begin(), r.complementaryErrors.end());
        lola.insert(lola.end(), r.lolaErrors.begin(), r.lolaErrors.end());
      }
    if (filter.empty()) continue;
    out << "| " << label << " | " << filter.size() / 2 << " | " << degrees(percentile(filter, 0.5)) << " | "
        << degrees(percentile(filter, 0.9)) << " | " << degrees(percentile(complementary, 0.5)) << " | "
        << degrees(percentile(complementary, 0.9)) << " | " << degrees(percentile(lola, 0.5)) << " | "
        << degrees(percentile(lola, 0.9)) << " |\n";
  }
  // (b) Push runs, per direction.
  out << "\n| from | runs | fell | toppled by [N·s] | withstood | detected | median lead [s] | shortest lead "
         "[s] "
         "| false |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  std::vector<double> leads;
  std::size_t falls = 0, detected = 0, runs = 0;
  for (int k = 0; k < 8; ++k)
  {
    std::vector<double> directionLeads;
    std::size_t directionRuns = 0, directionFalls = 0, directionDetected = 0, withstood = 0,
                falseDetections = 0;
    double lowest = 1e9, highest = 0;
    for (const FallRunResult& r : results)
    {
      if (r.spec.phase != FallPhase::pushed || std::abs(r.spec.direction - 45.0 * k) > 1e-6) continue;
      ++directionRuns;
      falseDetections += r.falseDetections;
      for (const ScriptEvent& event : r.spec.events)
        withstood += r.impact < 0 || event.time + event.duration < r.impact;
      if (r.impact < 0) continue;
      --withstood; // the push that toppled it
      ++directionFalls;
      lowest = std::min(lowest, r.impulse);
      highest = std::max(highest, r.impulse);
      if (r.detection >= 0 && r.detection < r.impact)
      {
        ++directionDetected;
        directionLeads.push_back(r.impact - r.detection);
      }
    }
    if (directionRuns == 0) continue;
    runs += directionRuns;
    falls += directionFalls;
    detected += directionDetected;
    leads.insert(leads.end(), directionLeads.begin(), directionLeads.end());
    out << "| " << 45 * k << "° | " << directionRuns << " | " << directionFalls << " | "
        << (directionFalls == 0
                ? "-"
                : (lowest == highest ? number("%.0f", lowest)
                                     : number("%.0f", lowest) + "-" + number("%.0f", highest)))
        << " | " << withstood << " | " << directionDetected << " | "
        << (directionLeads.empty() ? "-" : number("%.3f", percentile(directionLeads, 0.5))) << " | "
        << (directionLeads.empty()
                ? "-"
                : number("%.3f", *std::min_element(directionLeads.begin(), directionLeads.end())))
        << " | " << falseDetections << " |\n";
  }
  out << "\nPush runs: " << runs << ", falls: " << falls << ", detected before the impact: " << detected;
  if (!leads.empty())
    out << "; time before the impact: median " << number("%.3f", percentile(leads, 0.5)) << " s, shortest "
        << number("%.3f", *std::min_element(leads.begin(), leads.end())) << " s";
  out << ".\n";
  // (c) Non-falling runs.
  out << "\n| non-falling run | runs | frames | falling frames | falls counted |\n| --- | ---: | ---: | ---: "
         "| ---: |\n";
  std::map<std::string, std::array<std::size_t, 4>> rows;
  std::vector<std::string> order;
  for (const FallRunResult& r : results)
  {
    if (r.spec.phase == FallPhase::pushed) continue;
    if (!rows.count(r.spec.label)) order.push_back(r.spec.label);
    auto& row = rows[r.spec.label];
    row[0] += 1;
    row[1] += r.frames;
    row[2] += r.fallingFrames;
    row[3] += r.detections;
  }
  for (const std::string& label : order)
    out << "| " << label << " | " << rows[label][0] << " | " << rows[label][1] << " | " << rows[label][2]
        << " | " << rows[label][3] << " |\n";
  return out.str();
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
