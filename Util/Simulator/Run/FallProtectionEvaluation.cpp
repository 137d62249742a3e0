#include "Util/Simulator/Run/FallProtectionEvaluation.h"
#include "Framework/Client/LogDecoder.h"
#include "Framework/ScenarioScript.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/FallProtection.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/FallEvaluation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

namespace nao
{
bool isImpactArmJoint(std::size_t j)
{
  const Joint joint = jointAt(j);
  return (isJointOf(joint, Limb::leftArm) || isJointOf(joint, Limb::rightArm)) && joint != Joint::LHand &&
         joint != Joint::RHand;
}

FallImpact fallImpactOf(const SimulationResult& result, double pushTime)
{
  FallImpact impact;
  const std::vector<RunSample>& s = result.samples;
  for (std::size_t i = 1; i < s.size(); ++i)
  {
    if (s[i].time < pushTime || s[i].time > pushTime + fallImpactWindow) continue;
    if (impact.headTime < 0 && s[i].headOnGround)
      impact.headTime = s[i].time, impact.headSpeed = s[i - 1].headSpeed;
    if (impact.armTime < 0 && s[i].armOnGround)
      impact.armTime = s[i].time, impact.armSpeed = s[i - 1].armSpeed;
    if (impact.firstTime < 0 && (s[i].headOnGround || s[i].armOnGround || s[i].upperBodyOnGround))
      impact.firstTime = s[i].time;
  }
  if (impact.firstTime < 0) return impact;
  for (const RunSample& sample : s)
  {
    if (sample.time < impact.firstTime || sample.time > impact.firstTime + fallTorqueWindow) continue;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const float torque = std::abs(sample.gearTorques[j]);
      if (isHeadJoint(jointAt(j))) impact.headTorque = std::max(impact.headTorque, torque);
      if (isImpactArmJoint(j)) impact.armTorque = std::max(impact.armTorque, torque);
    }
  }
  return impact;
}

FallTakeover fallTakeoverOf(const std::filesystem::path& log)
{
  FallTakeover takeover;
  LogDecoder decoder(log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  while (decoder.next(frameNumber, records))
  {
    const FrameInfo* frame = recordOf<FrameInfo>(records);
    const FallProtection* protection = recordOf<FallProtection>(records);
    if (!frame || !protection || protection->phase != FallProtectionPhase::protecting) continue;
    takeover.time = frame->time;
    takeover.direction = protection->direction;
    break;
  }
  return takeover;
}

SimulationOptions fallRunOptions(SimulationOptions options, bool protection)
{
  options.minutes = fallRunSeconds / 60.0;
  options.recordPeriod = 0.012; // every frame
  if (!protection) options.providerOverrides.push_back({"FallSafeJointRequest", "off", {}});
  return options;
}

namespace
{
std::string number(const char* format, double value)
{
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string medianOf(const std::vector<double>& values)
{
  return values.empty() ? "none" : number("%.2f", percentile(values, 0.5));
}

std::string worstOf(const std::vector<double>& values)
{
  return values.empty() ? "none" : number("%.2f", *std::max_element(values.begin(), values.end()));
}

/// `label` of the direction `degrees` (world frame; the robot faces +x, its left is +y).
std::string directionName(double degrees)
{
  static const char* const names[] = {"front", "front-left", "left",  "back-left",
                                      "back",  "back-right", "right", "front-right"};
  const long k = std::lround(degrees / 45.0);
  const std::string name = k >= 0 && k < 8 && std::abs(degrees - 45.0 * static_cast<double>(k)) < 1e-6
                               ? names[k]
                               : number("%.0f°", degrees);
  return name + " (" + number("%.0f", degrees) + "°)";
}

/// The directions the pairs were pushed from, ascending.
std::vector<double> directionsOf(const std::vector<FallProtectionPair>& pairs)
{
  std::vector<double> directions;
  for (const FallProtectionPair& p : pairs)
    if (std::find(directions.begin(), directions.end(), p.direction) == directions.end())
      directions.push_back(p.direction);
  std::sort(directions.begin(), directions.end());
  return directions;
}

/// The pairs pushed from `direction`.
std::vector<const FallProtectionPair*> pairsOf(const std::vector<FallProtectionPair>& pairs, double direction)
{
  std::vector<const FallProtectionPair*> selected;
  for (const FallProtectionPair& p : pairs)
    if (p.direction == direction) selected.push_back(&p);
  return selected;
}

using Pick = std::function<bool(const FallImpact&)>;
using Value = std::function<double(const FallImpact&)>;

/// The median and the worst of `value` over the robots for which `has` holds, with / without the protection.
std::string column(const std::vector<const FallProtectionPair*>& selected, const Pick& has,
                   const Value& value)
{
  std::vector<double> on, off;
  for (const FallProtectionPair* p : selected)
  {
    if (has(p->on)) on.push_back(value(p->on));
    if (has(p->off)) off.push_back(value(p->off));
  }
  return medianOf(on) + " / " + medianOf(off) + " | " + worstOf(on) + " / " + worstOf(off);
}

/// Per direction: robots fallen, heads and arms landed, their impact speeds.
void writeSpeeds(std::ostringstream& out, const std::vector<FallProtectionPair>& pairs,
                 const std::vector<double>& directions)
{
  const Pick headHit = [](const FallImpact& i) { return i.headTime >= 0; };
  const Pick armHit = [](const FallImpact& i) { return i.armTime >= 0; };
  out << "Impact speeds (m/s) over the robots whose head (arm) touched the floor, with / without the "
         "protection.\n\n"
         "| push | robots | fell | head landed | head speed median | worst | arm landed | arm speed median | "
         "worst |\n"
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const double direction : directions)
  {
    const auto selected = pairsOf(pairs, direction);
    std::size_t fellOn = 0, fellOff = 0, headOn = 0, headOff = 0, armOn = 0, armOff = 0;
    for (const FallProtectionPair* p : selected)
    {
      fellOn += p->onTorsoHeight < fallenTorsoHeight;
      fellOff += p->offTorsoHeight < fallenTorsoHeight;
      headOn += p->on.headTime >= 0;
      headOff += p->off.headTime >= 0;
      armOn += p->on.armTime >= 0;
      armOff += p->off.armTime >= 0;
    }
    out << "| " << directionName(direction) << " | " << selected.size() << " | " << fellOn << " / " << fellOff
        << " | " << headOn << " / " << headOff << " | "
        << column(selected, headHit, [](const FallImpact& i) { return i.headSpeed; }) << " | " << armOn
        << " / " << armOff << " | "
        << column(selected, armHit, [](const FallImpact& i) { return i.armSpeed; }) << " |\n";
  }
}

/// Per direction: the head's and arms' joint torques at impact, and the takeover's directions and lead.
void writeTorquesAndTakeover(std::ostringstream& out, const std::vector<FallProtectionPair>& pairs,
                             const std::vector<double>& directions)
{
  const Pick anyHit = [](const FallImpact& i) { return i.firstTime >= 0; };
  out << "\nTorques at impact (N·m) over the robots with a first contact, with / without; the takeover: "
         "robots taken "
         "over\nbefore the first contact, the directions chosen, its lead before the first contact (s).\n\n"
         "| push | head torque median | worst | arm torque median | worst | taken over | chosen | lead | "
         "shortest |\n"
         "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n";
  for (const double direction : directions)
  {
    const auto selected = pairsOf(pairs, direction);
    std::vector<double> leads;
    std::size_t before = 0;
    std::map<std::string, std::size_t> chosen;
    for (const FallProtectionPair* p : selected)
    {
      if (p->takeover.time < 0) continue;
      ++chosen[std::string(streams::enumName(p->takeover.direction))];
      if (p->on.firstTime < 0) continue;
      leads.push_back(p->on.firstTime - p->takeover.time);
      before += leads.back() > 0;
    }
    std::string chosenText;
    for (const auto& [name, count] : chosen)
      chosenText += (chosenText.empty() ? "" : ", ") + name + " " + std::to_string(count);
    out << "| " << directionName(direction) << " | "
        << column(selected, anyHit, [](const FallImpact& i) { return i.headTorque; }) << " | "
        << column(selected, anyHit, [](const FallImpact& i) { return i.armTorque; }) << " | " << before
        << " / " << selected.size() << " | " << (chosenText.empty() ? "none" : chosenText) << " | "
        << (leads.empty() ? "none" : number("%.3f", percentile(leads, 0.5))) << " | "
        << (leads.empty() ? "none" : number("%.3f", *std::min_element(leads.begin(), leads.end()))) << " |\n";
  }
}

/// Per direction: robots on which the protection made a landing faster or a joint's torque higher.
void writeWorse(std::ostringstream& out, const std::vector<FallProtectionPair>& pairs,
                const std::vector<double>& directions)
{
  out << "\nRobots on which the protection did worse: the head (an arm) landed with it and faster than "
         "without or "
         "not\nat all without; the head's (the arms') joints took more torque at impact with it.\n\n"
         "| push | head impact speed | arm impact speed | head joint torque | arm joint torque |\n"
         "| --- | ---: | ---: | ---: | ---: |\n";
  for (const double direction : directions)
  {
    const auto selected = pairsOf(pairs, direction);
    std::size_t head = 0, arm = 0, headTorque = 0, armTorque = 0;
    for (const FallProtectionPair* p : selected)
    {
      head += p->on.headTime >= 0 && (p->off.headTime < 0 || p->on.headSpeed > p->off.headSpeed);
      arm += p->on.armTime >= 0 && (p->off.armTime < 0 || p->on.armSpeed > p->off.armSpeed);
      if (p->on.firstTime < 0 || p->off.firstTime < 0) continue;
      headTorque += p->on.headTorque > p->off.headTorque;
      armTorque += p->on.armTorque > p->off.armTorque;
    }
    const std::string outOf = " / " + std::to_string(selected.size());
    out << "| " << directionName(direction) << " | " << head << outOf << " | " << arm << outOf << " | "
        << headTorque << outOf << " | " << armTorque << outOf << " |\n";
  }
}
} // namespace

std::string fallProtectionTables(const std::vector<FallProtectionPair>& pairs)
{
  const std::vector<double> directions = directionsOf(pairs);
  std::ostringstream out;
  writeSpeeds(out, pairs, directions);
  writeTorquesAndTakeover(out, pairs, directions);
  writeWorse(out, pairs, directions);
  return out.str();
}

std::string runFallProtectionEnsemble(const std::filesystem::path& configDirectory,
                                      const std::vector<std::uint64_t>& seeds,
                                      const std::filesystem::path& output)
{
  // The pushes: fallfront.toml's, turned about the vertical in steps of 45°.
  const std::filesystem::path front = configDirectory / "Scenarios" / "fallfront.toml";
  const ScenarioScript script = ScenarioScript::load(front);
  const auto push = std::find_if(script.events.begin(), script.events.end(),
                                 [](const ScriptEvent& e) { return e.kind == ScriptEventKind::push; });
  if (push == script.events.end()) throw std::runtime_error(front.string() + ": no push");
  const double force = std::hypot(push->force[0], push->force[1], push->force[2]);
  const std::filesystem::path config = output / "config";
  std::filesystem::remove_all(config);
  std::filesystem::create_directories(output);
  std::filesystem::copy(configDirectory, config, std::filesystem::copy_options::recursive);
  std::vector<double> directions;
  for (int k = 0; k < 8; ++k)
  {
    const double direction = 45.0 * k, radians = direction * M_PI / 180;
    ScriptEvent event = *push;
    event.force = {static_cast<float>(force * std::cos(radians)),
                   static_cast<float>(force * std::sin(radians)), 0.f};
    std::ofstream(config / "Scenarios" / ("fallprotection" + std::to_string(45 * k) + ".toml"))
        << scenarioWithEvents(front, {event});
    directions.push_back(direction);
  }

  std::vector<FallProtectionPair> pairs;
  for (const std::uint64_t seed : seeds)
    for (const double direction : directions)
    {
      FallProtectionPair pair;
      pair.direction = direction;
      pair.seed = seed;
      for (const bool protection : {true, false})
      {
        SimulationOptions options;
        options.configDirectory = config;
        options.scenario = "fallprotection" + number("%.0f", direction);
        options.seed = seed;
        options.writePlots = false;
        options.writeLog = protection; // the takeover
        options.outputDirectory = output / (options.scenario + "-" + std::to_string(seed));
        std::filesystem::remove_all(options.outputDirectory);
        const SimulationResult run = runSimulation(fallRunOptions(options, protection));
        (protection ? pair.on : pair.off) = fallImpactOf(run, push->time);
        (protection ? pair.onTorsoHeight : pair.offTorsoHeight) = run.minTorsoHeight;
        if (protection) pair.takeover = fallTakeoverOf(run.log);
        std::error_code ignored;
        std::filesystem::remove_all(options.outputDirectory, ignored);
      }
      pairs.push_back(pair);
      std::printf("%s seed %llu: head %.2f / %.2f m/s, arm %.2f / %.2f m/s, head joints %.2f / %.2f N·m, arm "
                  "joints %.2f / %.2f N·m, taken over %.3f s, first contact %.3f s\n",
                  directionName(direction).c_str(), static_cast<unsigned long long>(seed), pair.on.headSpeed,
                  pair.off.headSpeed, pair.on.armSpeed, pair.off.armSpeed, pair.on.headTorque,
                  pair.off.headTorque, pair.on.armTorque, pair.off.armTorque, pair.takeover.time,
                  pair.on.firstTime);
      std::fflush(stdout);
    }
  std::error_code ignored;
  std::filesystem::remove_all(config, ignored);
  const std::string tables = fallProtectionTables(pairs);
  std::ofstream(output / "fallprotection.md") << tables;
  return tables;
}
} // namespace nao
