// The log format of every representation, pinned by fixed reference bytes: each representation is filled with
// known values (KnownValues.h, one per leaf, none the default), written as the logger writes it (type table with
// each field's name, type and unit, then one frame of records), and the file must equal
// Golden/representations.naolog byte for byte. A field reordered, added, removed, retyped or given another unit,
// a renamed representation or a changed archive format fails here; so does a representation this list misses.
//
// When the format changes on purpose (old logs then decode differently: say so in the commit), regenerate the
// reference from a build of the changed code and commit it:
//   NAO_UPDATE_GOLDEN_LOG=1 Build/Release/Src/Framework/RobotTests --gtest_filter='LogGolden.*'
#include "Framework/Representation.h"
#include "KnownValues.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Infrastructure/ModuleTimes.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/Modeling/JointLimits.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/Modeling/LimbStiffness.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Modeling/ThermalBudget.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/FallProtection.h"
#include "Representations/MotionControl/ForecastPosture.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SelfCollision.h"
#include "Representations/MotionControl/SitDown.h"
#include "Representations/MotionControl/SmartStiffness.h"
#include "Representations/Sensing/FilteredCurrent.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Representations/Sensing/TouchData.h"
#include "Representations/Sensing/UnreadableReadings.h"
#include "Tools/BinaryIO/LogFormat.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <set>

using namespace nao;

namespace
{
const std::filesystem::path goldenPath =
    std::filesystem::path(NAO_SOURCE_DIR) / "Src/Framework/Tests/Golden/representations.naolog";
constexpr std::uint32_t goldenFrameNumber = 4321;

/// One representation filled with known values, its registry entry and its bytes as the logger writes them.
struct Filled
{
  std::string name;
  RepresentationObject object;
  std::vector<char> bytes;
  std::size_t leaves = 0;
  bool differsFromDefault = false;
};

template<Representation T>
Filled fill()
{
  const auto& registry = RepresentationRegistry::instance();
  const RepresentationId id = representationId<T>();
  Filled filled{std::string(typeName<T>()), registry.create(id), {}, 0, false};
  test::KnownValueArchive archive;
  archive.fill(*static_cast<T*>(filled.object.get()));
  filled.leaves = archive.leaves();
  registry.info(id).saveBinary(filled.object.get(), filled.bytes);
  std::vector<char> defaultBytes;
  registry.info(id).saveBinary(registry.create(id).get(), defaultBytes);
  filled.differsFromDefault = defaultBytes != filled.bytes;
  return filled;
}

/// Every representation of this binary (the robot's modules are linked in), sorted by name.
std::vector<Filled> fillAll()
{
  std::vector<Filled> all;
  all.push_back(fill<BatteryData>());
  all.push_back(fill<CollisionFreeJointRequest>());
  all.push_back(fill<EnergySaving>());
  all.push_back(fill<EnergySavingRequest>());
  all.push_back(fill<FallDownState>());
  all.push_back(fill<FallProtection>());
  all.push_back(fill<FallSafeJointRequest>());
  all.push_back(fill<FilteredCurrent>());
  all.push_back(fill<ForecastPosture>());
  all.push_back(fill<FrameInfo>());
  all.push_back(fill<FsrSensorData>());
  all.push_back(fill<InertialData>());
  all.push_back(fill<InertialSensorData>());
  all.push_back(fill<JointLimits>());
  all.push_back(fill<JointRequest>());
  all.push_back(fill<JointSensorData>());
  all.push_back(fill<JointThermalState>());
  all.push_back(fill<JointTorques>());
  all.push_back(fill<LimbStiffness>());
  all.push_back(fill<ModuleTimes>());
  all.push_back(fill<MotionJointRequest>());
  all.push_back(fill<RobotModel>());
  all.push_back(fill<SafeMotionJointRequest>());
  all.push_back(fill<SelfCollision>());
  all.push_back(fill<SensorHealth>());
  all.push_back(fill<SitDown>());
  all.push_back(fill<SmartStiffness>());
  all.push_back(fill<StiffnessJointRequest>());
  all.push_back(fill<ThermalBudget>());
  all.push_back(fill<TouchData>());
  all.push_back(fill<UnreadableReadings>());
  std::sort(all.begin(), all.end(), [](const Filled& a, const Filled& b) { return a.name < b.name; });
  return all;
}

/// Ids by position in name order: the file does not depend on the order in which types registered.
binaryio::TypeTable typeTableOf(const std::vector<Filled>& all)
{
  const auto& registry = RepresentationRegistry::instance();
  binaryio::TypeTable table;
  for (std::size_t i = 0; i < all.size(); ++i)
    table.entries.push_back(
        {static_cast<std::uint16_t>(i + 1), all[i].name,
         registry.info(static_cast<RepresentationId>(registry.find(all[i].name))).schema});
  return table;
}

void writeKnownValueLog(const std::filesystem::path& path, const std::vector<Filled>& all)
{
  binaryio::LogWriter writer(path, typeTableOf(all));
  binaryio::FrameChunkBuilder builder;
  builder.begin(goldenFrameNumber);
  for (std::size_t i = 0; i < all.size(); ++i)
    builder.addRecord(static_cast<std::uint16_t>(i + 1), all[i].bytes);
  writer.writeFrame(builder);
  writer.close();
}

std::vector<char> readBytes(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// What differs between the reference and today's file, per representation, for a failure message.
std::string explainDifference(const std::vector<Filled>& all)
{
  std::string explanation;
  try
  {
    binaryio::LogReader reader(goldenPath);
    std::map<std::string, std::string> oldSchemas, oldRecords;
    for (const auto& entry : reader.typeTable().entries)
      oldSchemas[entry.name] = entry.schema;
    if (std::optional<binaryio::LogFrame> frame = reader.nextFrame())
      for (const binaryio::FrameRecord& record : frame->view())
        if (const auto* entry = reader.typeTable().find(record.typeId))
          oldRecords[entry->name] = std::string(record.bytes.begin(), record.bytes.end());
    if (oldRecords.empty())
    {
      explanation += "\n  the reference's frame does not read";
      for (const std::string& warning : reader.warnings())
        explanation += "\n  " + warning;
    }
    const binaryio::TypeTable table = typeTableOf(all);
    for (std::size_t i = 0; i < all.size(); ++i)
    {
      const std::string& name = all[i].name;
      if (!oldSchemas.contains(name))
      {
        explanation += "\n  " + name + ": not in the reference (a new representation?)";
        continue;
      }
      if (oldSchemas[name] != table.entries[i].schema)
        explanation += "\n  " + name + ": fields were\n    " + oldSchemas[name] + "\n  now\n    " +
                       table.entries[i].schema;
      const std::string bytes(all[i].bytes.begin(), all[i].bytes.end());
      if (!oldRecords.empty() && oldRecords[name] != bytes)
      {
        const auto [now, old] =
            std::mismatch(bytes.begin(), bytes.end(), oldRecords[name].begin(), oldRecords[name].end());
        explanation += "\n  " + name + ": record bytes differ from byte " +
                       std::to_string(now - bytes.begin()) + " (" + std::to_string(oldRecords[name].size()) +
                       " bytes before, " + std::to_string(bytes.size()) + " now)";
      }
      oldSchemas.erase(name);
    }
    for (const auto& [name, schema] : oldSchemas)
      explanation += "\n  " + name + ": in the reference, no longer a representation";
  }
  catch (const std::exception& error)
  {
    explanation += "\n  the reference does not read: " + std::string(error.what());
  }
  return explanation.empty() ? "\n  (the type table and every record match: the file framing changed)"
                             : explanation;
}
} // namespace

TEST(LogGolden, EveryRepresentationIsFilledWithKnownValuesAndNoneIsMissing)
{
  const std::vector<Filled> all = fillAll();
  const auto& registry = RepresentationRegistry::instance();
  std::set<std::string> registered, listed;
  for (RepresentationId id = 0; id < registry.size(); ++id)
    registered.insert(registry.info(id).name);
  for (const Filled& filled : all)
  {
    listed.insert(filled.name);
    const auto& info = registry.info(static_cast<RepresentationId>(registry.find(filled.name)));
    EXPECT_EQ(filled.leaves, info.fields.size()) << filled.name << ": every leaf a tool shows gets a value";
    EXPECT_TRUE(filled.differsFromDefault) << filled.name;
    const auto values = info.values(filled.object.get());
    ASSERT_FALSE(values.empty()) << filled.name;
  }
  // The filler's values, spelled out for one representation (leaf n in serialize() order: ±(n + 1.5) / 8).
  JointRequest request;
  test::KnownValueArchive archive;
  archive.fill(request);
  EXPECT_EQ(request.angles[Joint::HeadYaw], 0.1875f);
  EXPECT_EQ(request.angles[Joint::HeadPitch], -0.3125f);
  EXPECT_EQ(request.stiffnesses[Joint::HeadYaw], -(25 + 1.5f) / 8) << "leaf 25: after the 25 angles";
  EXPECT_EQ(listed, registered) << "a representation of this binary is missing from fillAll() (add it, then "
                                   "regenerate the reference as the file's comment says)";
}

TEST(LogGolden, TheLogOfKnownValuesEqualsTheReferenceBytes)
{
  const std::vector<Filled> all = fillAll();
  if (std::getenv("NAO_UPDATE_GOLDEN_LOG"))
  {
    std::filesystem::create_directories(goldenPath.parent_path());
    std::filesystem::remove(goldenPath);
    writeKnownValueLog(goldenPath, all);
    std::printf("[ golden   ] wrote %s (%ju bytes): commit it with the format change\n", goldenPath.c_str(),
                static_cast<std::uintmax_t>(std::filesystem::file_size(goldenPath)));
  }
  const auto path = std::filesystem::temp_directory_path() / "nao-golden-today.naolog";
  std::filesystem::remove(path);
  writeKnownValueLog(path, all);
  const std::vector<char> today = readBytes(path), reference = readBytes(goldenPath);
  std::filesystem::remove(path);
  ASSERT_FALSE(reference.empty()) << goldenPath << " is missing";
  EXPECT_TRUE(today == reference) << "the log format changed (" << reference.size() << " bytes before, "
                                  << today.size() << " now):" << explainDifference(all)
                                  << "\nIf that is on purpose, regenerate the reference as "
                                     "Src/Framework/Tests/LogGoldenTests.cpp says.";
}

TEST(LogGolden, TheReferenceDecodesToTheKnownValues)
{
  // Reading an old log: the reference's records, decoded by today's code, are the values the filler gives.
  const std::vector<Filled> all = fillAll();
  const auto& registry = RepresentationRegistry::instance();
  binaryio::LogReader reader(goldenPath);
  std::optional<binaryio::LogFrame> frame = reader.nextFrame();
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->frameNumber(), goldenFrameNumber);
  std::size_t decoded = 0;
  for (const binaryio::FrameRecord& record : frame->view())
  {
    const auto* entry = reader.typeTable().find(record.typeId);
    ASSERT_NE(entry, nullptr);
    const int id = registry.find(entry->name);
    ASSERT_GE(id, 0) << entry->name;
    const auto& info = registry.info(static_cast<RepresentationId>(id));
    RepresentationObject object = registry.create(static_cast<RepresentationId>(id));
    info.loadBinary(record.bytes, object.get());
    const auto known =
        std::find_if(all.begin(), all.end(), [&](const Filled& f) { return f.name == entry->name; });
    ASSERT_NE(known, all.end()) << entry->name;
    EXPECT_EQ(info.values(object.get()), info.values(known->object.get())) << entry->name;
    ++decoded;
  }
  EXPECT_EQ(decoded, all.size());
  EXPECT_FALSE(reader.nextFrame().has_value());
  EXPECT_TRUE(reader.sawEnd());
  EXPECT_TRUE(reader.warnings().empty());
}
