// A log carries the module graph and the parameters (Framework/LogMetadata.h): written by the Logger at the start
// and after each live edit, read back as the debug channel's `list` and `get` give them; a log without them (written
// before) still reads and simply has none.
#include "Framework/Client/DebugClient.h"
#include "Framework/LogMetadata.h"
#include "Framework/ParameterFiles.h"
#include "Framework/Robot.h"
#include "Framework/Testing/ModuleHarness.h"
#include "Platform/StandIn/StandInBody.h"
#include "Tools/Streams/TomlFiles.h"
#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace nao;

namespace
{
std::filesystem::path freshFolder(const std::string& name)
{
  const auto folder = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  return folder;
}

double tomlNumber(const std::string& text, std::string_view key)
{
  const toml::table table = streams::parseToml(text, "logged parameters");
  const auto value = table.at_path(key).value<double>();
  EXPECT_TRUE(value.has_value()) << key << " missing in\n" << text;
  return value.value_or(-1);
}

const debug::ModuleEntry* moduleOf(const debug::ListReply& graph, const std::string& name)
{
  for (const debug::ModuleEntry& module : graph.modules)
    if (module.name == name) return &module;
  return nullptr;
}
} // namespace

TEST(LogMetadata, AnnotationsRoundTrip)
{
  debug::ListReply graph;
  graph.scenario = "stand";
  graph.plan = "1. A\n2. B\n";
  graph.modules = {{"A", true, {"X"}, {}, {"Y"}, {}}, {"B", false, {"Y"}, {"Z", "W"}, {}, {}}};
  graph.representations = {
      {"X", "Body", {}}, {"Y", "A", {}}, {"Z", "", {}}, {"R", "off (pass-through from X)", {}}};
  const auto back = parseModuleGraphAnnotation(moduleGraphAnnotation(graph));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->scenario, graph.scenario);
  EXPECT_EQ(back->plan, graph.plan);
  ASSERT_EQ(back->modules.size(), 2u);
  EXPECT_EQ(back->modules[1].name, "B");
  EXPECT_FALSE(back->modules[1].active);
  EXPECT_EQ(back->modules[1].uses, (std::vector<std::string>{"Z", "W"}));
  EXPECT_EQ(back->modules[0].provides, (std::vector<std::string>{"Y"}));
  ASSERT_EQ(back->representations.size(), 4u);
  EXPECT_EQ(back->representations[3].provider, "off (pass-through from X)");
  EXPECT_EQ(back->representations[0].provider, "Body");
  EXPECT_EQ(back->representations[2].provider, "");

  const LoggedParameters loaded{"A", true, 0, "gain = 1.5 # N\n"};
  const LoggedParameters edited{"A", false, 1234, "gain = 2\n"};
  EXPECT_EQ(parseParametersAnnotation(parametersAnnotation(loaded)), loaded);
  EXPECT_EQ(parseParametersAnnotation(parametersAnnotation(edited)), edited);
  EXPECT_FALSE(parseParametersAnnotation("motion frames dropped (logger fell behind): 0"));
  EXPECT_FALSE(parseModuleGraphAnnotation("any text"));
  EXPECT_THROW(parseParametersAnnotation("nao-log parameters v1 A from frame x\n"), std::runtime_error);

  const LogMetadata metadata = LogMetadata::fromAnnotations({{10, moduleGraphAnnotation(graph)},
                                                             {20, parametersAnnotation(loaded)},
                                                             {30, parametersAnnotation(edited)},
                                                             {40, "free text"}});
  ASSERT_TRUE(metadata.graph);
  EXPECT_EQ(metadata.parametersAt(1233).at("A"), loaded.toml);
  EXPECT_EQ(metadata.parametersAt(1234).at("A"), edited.toml);
  EXPECT_EQ(metadata.edits().size(), 1u);
  EXPECT_TRUE(metadata.errors.empty());
}

TEST(LogMetadata, LogCarriesTheModuleGraphAndTheParametersWithEachEdit)
{
  const auto folder = freshFolder("nao-log-metadata");
  StandInBody::Options bodyOptions;
  bodyOptions.frames = 100000; // ends when the test stops it
  bodyOptions.realTime = true;
  bodyOptions.frameSeconds = 0.004;
  StandInBody body(bodyOptions);
  RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = "standin";
  options.debug = DebugSettings{"127.0.0.1", 0, "", folder};
  Robot robot(body, options);
  std::thread thread([&] { robot.run(); });
  DebugClient client("127.0.0.1", robot.debugServer()->port());
  const debug::ListReply live = client.list();
  ASSERT_TRUE(client.startLog("run.log").ok);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto reply = client.setParameter("StandPoseProvider", "transitionTime", "777");
  ASSERT_TRUE(reply.ok) << reply.message;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(client.stopLog().ok);
  robot.stop();
  thread.join();

  binaryio::LogReader reader(folder / "run.log");
  std::vector<std::uint32_t> frames;
  while (auto frame = reader.nextFrame())
    frames.push_back(frame->frameNumber());
  ASSERT_GT(frames.size(), 20u);
  EXPECT_TRUE(reader.warnings().empty());
  const LogMetadata metadata = LogMetadata::fromAnnotations(reader.annotations());
  EXPECT_TRUE(metadata.errors.empty()) << metadata.errors.front();

  // The graph is the one `list` gave: every module with what it requires, uses and provides, and the order.
  ASSERT_TRUE(metadata.graph);
  EXPECT_EQ(metadata.graph->scenario, "standin");
  EXPECT_EQ(metadata.graph->plan, live.plan);
  ASSERT_EQ(metadata.graph->modules.size(), live.modules.size());
  for (const debug::ModuleEntry& module : live.modules)
  {
    const debug::ModuleEntry* logged = moduleOf(*metadata.graph, module.name);
    ASSERT_NE(logged, nullptr) << module.name;
    EXPECT_EQ(logged->active, module.active) << module.name;
    EXPECT_EQ(logged->requires_, module.requires_) << module.name;
    EXPECT_EQ(logged->uses, module.uses) << module.name;
    EXPECT_EQ(logged->provides, module.provides) << module.name;
  }
  ASSERT_EQ(metadata.graph->representations.size(), live.representations.size());
  for (std::size_t r = 0; r < live.representations.size(); ++r)
  {
    EXPECT_EQ(metadata.graph->representations[r].name, live.representations[r].name);
    EXPECT_EQ(metadata.graph->representations[r].provider, live.representations[r].provider);
  }
  ASSERT_NE(moduleOf(*metadata.graph, "StandPoseProvider"), nullptr);
  EXPECT_TRUE(moduleOf(*metadata.graph, "StandPoseProvider")->active);

  // Every module with parameters, as loaded: its defaults with its files over them.
  const toml::table file = layeredParameterTable(*ModuleRegistry::instance().find("StandPoseProvider"),
                                                 testConfigFiles().location);
  const auto at = [&](std::uint32_t frame) { return metadata.parametersAt(frame).at("StandPoseProvider"); };
  EXPECT_EQ(tomlNumber(at(frames.front()), "transitionTime"), *file["transitionTime"].value<double>());
  EXPECT_EQ(tomlNumber(at(frames.front()), "angles.LKneePitch"),
            *file["angles"]["LKneePitch"].value<double>());
  std::size_t loadedModules = 0;
  for (const LoggedParameters& entry : metadata.parameters)
    loadedModules += entry.loaded;
  for (const debug::ModuleEntry& module : live.modules)
  {
    if (!module.parameters.empty())
    {
      EXPECT_EQ(metadata.parametersAt(frames.front()).count(module.name), 1u) << module.name;
    }
  }
  EXPECT_GE(loadedModules, 2u);

  // The edit, with the frame it is in force from: a frame of the log, neither the first nor past the last.
  const auto edits = metadata.edits();
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0]->module, "StandPoseProvider");
  EXPECT_THAT(frames, ::testing::Contains(edits[0]->fromFrame));
  EXPECT_GT(edits[0]->fromFrame, frames.front());
  EXPECT_EQ(tomlNumber(at(edits[0]->fromFrame - 1), "transitionTime"),
            *file["transitionTime"].value<double>());
  EXPECT_EQ(tomlNumber(at(edits[0]->fromFrame), "transitionTime"), 777);
  EXPECT_EQ(tomlNumber(at(frames.back()), "transitionTime"), 777);
}

TEST(LogMetadata, LogWithoutThemStillReads)
{
  // A log as written before the metadata existed: a type table and frames only.
  const auto folder = freshFolder("nao-log-metadata-old");
  std::filesystem::create_directories(folder);
  {
    binaryio::TypeTable table;
    table.entries.push_back({0, "Anything", "x:f"});
    binaryio::LogWriter writer(folder / "old.log", table);
    binaryio::FrameChunkBuilder frame;
    for (std::uint32_t number = 0; number < 3; ++number)
    {
      frame.begin(number);
      frame.addRecord(0, std::vector<char>(4, 0));
      writer.writeFrame(frame);
    }
    writer.writeAnnotation("motion frames dropped (logger fell behind): 0");
  }
  binaryio::LogReader reader(folder / "old.log");
  std::size_t frames = 0;
  while (reader.nextFrame())
    ++frames;
  EXPECT_EQ(frames, 3u);
  const LogMetadata metadata = LogMetadata::fromAnnotations(reader.annotations());
  EXPECT_FALSE(metadata.graph);
  EXPECT_FALSE(metadata.hasParameters());
  EXPECT_TRUE(metadata.parametersAt(2).empty());
  EXPECT_TRUE(metadata.errors.empty());
}
