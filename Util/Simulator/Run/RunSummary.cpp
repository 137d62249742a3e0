#include "Util/Simulator/Run/RunSummary.h"

#include "Representations/Infrastructure/Joints.h"

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace nao
{
namespace
{
constexpr const char* jointHeader =
    "joint,meanCurrent [A],finalCurrent [A],finalError [rad],maxCurrent [A],"
    "finalTemperature [°C],maxTemperature [°C],maxStatus,hotAfter [s],energy [J],heldMeanCurrent [A],"
    "heldPeakCurrent [A],briefPeakCurrent [A],finalWinding [°C],countCurrent [A]";
constexpr std::size_t jointFields = 15;

std::vector<std::string> split(const std::string& line)
{
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, ','))
    fields.push_back(field);
  return fields;
}

[[noreturn]] void fail(const std::filesystem::path& file, int line, const std::string& what)
{
  throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + what);
}

double number(const std::string& text, const std::filesystem::path& file, int line)
{
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    fail(file, line, "'" + text + "' is not a number");
  return value;
}
} // namespace

void writeSummary(const std::filesystem::path& file, const SimulationResult& result)
{
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out.precision(10);
  out << "scenario," << result.scenario << "\nseed," << result.seed << "\npreset," << result.preset
      << "\nvariant," << result.variant << "\nsimulatedSeconds [s]," << result.simulatedSeconds
      << "\nlegsBelowHeatingAfter [s]," << result.legsBelowHeatingAfter << "\nholdStart [s],"
      << result.holdStart << "\nminTorsoHeight [m]," << result.minTorsoHeight << "\nmaxTorsoHeight [m],"
      << result.maxTorsoHeight << "\n";
  if (result.fault)
    out << "fault," << result.fault->name << "\nfaultAt [s]," << result.fault->onset << "\nfaultEnd [s],"
        << result.fault->end << "\n";
  if (result.stopped) out << "stopped,1\n"; // Ctrl-C or SIGTERM ended the run early
  out << jointHeader << "\n";
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const JointSummary& joint = result.joints[j];
    out << jointNames[j] << ',' << joint.meanCurrent << ',' << joint.finalCurrent << ',' << joint.finalError
        << ',' << joint.maxCurrent << ',' << joint.finalTemperature << ',' << joint.maxTemperature << ','
        << joint.maxStatus << ',' << joint.hotAfter << ',' << joint.energy << ',' << joint.heldMeanCurrent
        << ',' << joint.heldPeakCurrent << ',' << joint.briefPeakCurrent << ',' << joint.finalWinding << ','
        << joint.countCurrent << "\n";
  }
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

SimulationResult readSummary(const std::filesystem::path& file)
{
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  SimulationResult result;
  std::string text;
  int line = 0;
  std::size_t joints = 0;
  bool inTable = false;
  while (std::getline(in, text))
  {
    ++line;
    const std::vector<std::string> fields = split(text);
    if (!inTable)
    {
      if (text == jointHeader)
      {
        inTable = true;
        continue;
      }
      if (fields.size() > 2) fail(file, line, "expected 'key,value'");
      const std::string key = fields.empty() ? "" : fields[0];
      const std::string value = fields.size() == 2 ? fields[1] : "";
      if (key == "scenario")
        result.scenario = value;
      else if (key == "seed")
        result.seed = static_cast<std::uint64_t>(number(value, file, line));
      else if (key == "preset")
        result.preset = value;
      else if (key == "variant")
        result.variant = value;
      else if (key == "simulatedSeconds [s]")
        result.simulatedSeconds = number(value, file, line);
      else if (key == "legsBelowHeatingAfter [s]")
        result.legsBelowHeatingAfter = number(value, file, line);
      else if (key == "holdStart [s]")
        result.holdStart = number(value, file, line);
      else if (key == "minTorsoHeight [m]")
        result.minTorsoHeight = number(value, file, line);
      else if (key == "maxTorsoHeight [m]")
        result.maxTorsoHeight = number(value, file, line);
      else if (key == "fault")
        (result.fault ? *result.fault : result.fault.emplace()).name = value;
      else if (key == "faultAt [s]")
        (result.fault ? *result.fault : result.fault.emplace()).onset = number(value, file, line);
      else if (key == "faultEnd [s]")
        (result.fault ? *result.fault : result.fault.emplace()).end = number(value, file, line);
      else if (key == "stopped")
        result.stopped = number(value, file, line) != 0;
      else
        fail(file, line, "unknown key '" + key + "'");
      continue;
    }
    if (joints == numOfJoints) fail(file, line, "more joint rows than the 25 LoLA joints");
    if (fields.size() != jointFields || fields[0] != jointNames[joints])
      fail(file, line,
           "expected " + std::to_string(jointFields) + " fields for joint " +
               std::string(jointNames[joints]));
    JointSummary& joint = result.joints[joints++];
    joint.meanCurrent = number(fields[1], file, line);
    joint.finalCurrent = number(fields[2], file, line);
    joint.finalError = number(fields[3], file, line);
    joint.maxCurrent = number(fields[4], file, line);
    joint.finalTemperature = number(fields[5], file, line);
    joint.maxTemperature = number(fields[6], file, line);
    joint.maxStatus = static_cast<int>(number(fields[7], file, line));
    joint.hotAfter = number(fields[8], file, line);
    joint.energy = number(fields[9], file, line);
    joint.heldMeanCurrent = number(fields[10], file, line);
    joint.heldPeakCurrent = number(fields[11], file, line);
    joint.briefPeakCurrent = number(fields[12], file, line);
    joint.finalWinding = number(fields[13], file, line);
    joint.countCurrent = number(fields[14], file, line);
  }
  if (joints != numOfJoints)
    fail(file, line,
         "has " + std::to_string(joints) + " joint rows, expected 25 (a run that did not finish?)");
  return result;
}

} // namespace nao
