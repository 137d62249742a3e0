#include "Util/DebugGui/SimulationTruth.h"
#include "Representations/Infrastructure/Joints.h"
#include <charconv>
#include <cmath>

namespace nao::gui
{
namespace
{
const char* const torsoLeaves[] = {"torso.x", "torso.y", "torso.z", "torso.roll", "torso.pitch", "torso.yaw"};
const char* const torsoUnits[] = {"m", "m", "m", "rad", "rad", "rad"};

std::string jointLeaf(const char* group, std::size_t j)
{
  return std::string(group) + "." + std::string(name(jointAt(j)));
}

/// The words of `line` from `at`, split at spaces.
std::vector<std::string_view> words(std::string_view line)
{
  std::vector<std::string_view> result;
  for (std::size_t at = 0; at < line.size();)
  {
    const std::size_t start = line.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(line.find(' ', start), line.size());
    result.push_back(line.substr(start, end - start));
    at = end;
  }
  return result;
}

std::optional<double> number(std::string_view word)
{
  double value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}
} // namespace

std::vector<FieldDescription> truthFields()
{
  std::vector<FieldDescription> fields;
  const double none = std::nan("");
  for (std::size_t i = 0; i < 6; ++i)
    fields.push_back({torsoLeaves[i], "double", torsoUnits[i], none, none, "the simulator's ground truth"});
  fields.push_back({"soles.left", "double", "N", none, none, "ground force on the left sole"});
  fields.push_back({"soles.right", "double", "N", none, none, "ground force on the right sole"});
  for (std::size_t j = 0; j < numOfJoints; ++j)
    fields.push_back({jointLeaf("angles", j), "double", "rad", none, none, "the joint's true angle"});
  for (std::size_t j = 0; j < numOfJoints; ++j)
    fields.push_back(
        {jointLeaf("windings", j), "double", "°C", none, none, "the winding's true temperature"});
  return fields;
}

std::optional<Sample> truthSample(std::string_view line)
{
  const std::vector<std::string_view> w = words(line);
  // frame N torso 6 soles 2 angles 25 windings 25
  const std::size_t expected = 2 + 7 + 3 + 1 + numOfJoints + 1 + numOfJoints;
  if (w.size() != expected || w[0] != "frame" || w[2] != "torso" || w[9] != "soles" || w[12] != "angles" ||
      w[13 + numOfJoints] != "windings")
    return std::nullopt;
  const auto frame = number(w[1]);
  if (!frame || *frame < 0) return std::nullopt;
  Sample sample;
  sample.representation = truthRepresentation;
  sample.frameNumber = static_cast<std::uint32_t>(*frame);
  sample.time = sample.frameNumber * 0.012; // as the robot's FrameInfo.time under LoLA (LolaBody)
  const std::vector<FieldDescription> fields = truthFields();
  std::vector<std::string_view> values(w.begin() + 3, w.begin() + 9);
  values.insert(values.end(), w.begin() + 10, w.begin() + 12);
  values.insert(values.end(), w.begin() + 13, w.begin() + 13 + numOfJoints);
  values.insert(values.end(), w.begin() + 14 + numOfJoints, w.end());
  for (std::size_t i = 0; i < fields.size(); ++i)
  {
    if (!number(values[i])) return std::nullopt;
    sample.values.emplace_back(fields[i].path, std::string(values[i]));
  }
  return sample;
}

const std::vector<EstimatePair>& estimatePairs()
{
  static const std::vector<EstimatePair> pairs = []
  {
    std::vector<EstimatePair> list = {
        {"InertialData.angles[0]", "truth.torso.roll", "InertialData.roll"},
        {"InertialData.angles[1]", "truth.torso.pitch", "InertialData.pitch"},
        {"InertialSensorData.angles[0]", "truth.torso.roll", "InertialSensorData.roll"},
        {"InertialSensorData.angles[1]", "truth.torso.pitch", "InertialSensorData.pitch"}};
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const std::string joint(name(jointAt(j)));
      list.push_back(
          {"JointSensorData.angles." + joint, "truth.angles." + joint, "JointSensorData.angles." + joint});
      list.push_back({"JointThermalState.temperatures." + joint, "truth.windings." + joint,
                      "JointThermalState.temperatures." + joint});
    }
    return list;
  }();
  return pairs;
}

std::vector<FieldDescription> errorFields()
{
  std::vector<FieldDescription> fields;
  const double none = std::nan("");
  for (const EstimatePair& pair : estimatePairs())
  {
    const bool angle = pair.truth.starts_with("truth.torso") || pair.truth.starts_with("truth.angles");
    fields.push_back(
        {pair.error, "double", angle ? "rad" : "°C", none, none, pair.estimate + " − " + pair.truth});
  }
  return fields;
}

std::optional<Sample> estimateErrors(const SeriesStore& store, const Sample& truth)
{
  Sample errors;
  errors.representation = errorRepresentation;
  errors.frameNumber = truth.frameNumber;
  errors.time = truth.time;
  for (const EstimatePair& pair : estimatePairs())
  {
    const auto estimate = numericValue(store.latest(pair.estimate), "double");
    const std::string leaf = pair.truth.substr(std::string_view("truth.").size());
    const auto found = std::find_if(truth.values.begin(), truth.values.end(),
                                    [&](const auto& value) { return value.first == leaf; });
    if (!estimate || found == truth.values.end()) continue;
    const auto actual = numericValue(found->second, "double");
    if (!actual || !std::isfinite(*estimate)) continue;
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", *estimate - *actual);
    errors.values.emplace_back(pair.error, text);
  }
  if (errors.values.empty()) return std::nullopt;
  return errors;
}

std::string errorLeafOf(const std::string& estimate)
{
  for (const EstimatePair& pair : estimatePairs())
    if (pair.estimate == estimate) return std::string(errorRepresentation) + "." + pair.error;
  return {};
}
} // namespace nao::gui
