// --sim's event log (issue 46): a push from the events bar becomes a note in the robot's running log, and File → Save
// events as scenario… writes a scenario (the push and a restart) that `Simulator run` plays to the same fall (within
// 10 frames under load; unloaded within two). ~10 s.
#include "Framework/Client/DebugClient.h"
#include "Framework/Client/LogDecoder.h"
#include "Framework/LogMetadata.h"
#include "Framework/ScenarioScript.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/FallDownState.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include <QAction>
#include <memory>

using namespace nao;
using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
/// FrameInfo.time (s) of the first frame of `log` whose FallDownState counts a fall; -1 if none does.
double firstFallInLog(const std::filesystem::path& log)
{
  LogDecoder decoder(log);
  std::uint32_t frame = 0;
  std::vector<DecodedRecord> records;
  while (decoder.next(frame, records))
  {
    const auto* fall = recordOf<FallDownState>(records);
    const auto* info = recordOf<FrameInfo>(records);
    if (fall && info && fall->falls >= 1) return info->time;
  }
  return -1;
}

/// The time (s) of the first sample of `series` at or above 1; -1 if none is.
double firstAtLeastOne(const Series& series)
{
  for (std::size_t i = 0; i < series.value.size(); ++i)
    if (series.value[i] >= 1.0) return series.time[i];
  return -1;
}
} // namespace

TEST(DebugGuiEventLog, APushIsANoteInTheRobotsLogAndTheSavedScenarioFallsAtTheSameTime)
{
  application();
  const ScratchConfig config("eventlog");
  MainWindow window(options(config.directory));
  window.show();
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  const std::string falls = "FallDownState.falls", frame = "FrameInfo.frameNumber";
  window.plotField(falls);
  window.plotField(frame);
  // A log on the robot, for the event's note.
  auto logReply = std::make_shared<debug::Reply>(debug::Reply{false, ""});
  const std::string logName = "eventlog-" + std::to_string(::getpid()) + ".log";
  window.link()->post(
      [logReply, logName](DebugClient& client) -> std::function<void()>
      {
        *logReply = client.startLog(logName);
        return {};
      });
  ASSERT_TRUE(waitFor([&] { return window.store().series(frame).value.size() >= 220; }, 30))
      << window.statusLine().toStdString();
  ASSERT_TRUE(logReply->ok) << logReply->message;
  EXPECT_EQ(window.saveEventsAsScenario(config.directory / "Scenarios" / "early.toml"), "");

  window.findChild<QAction*>("pushFront")->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().applied.size() == 1; }))
      << window.simulation().lastReply;
  const MainWindow::AppliedEvent push = window.simulation().applied.front();
  EXPECT_EQ(push.line, "push 45 0 0 for 0.1 at torso");
  ASSERT_TRUE(waitFor([&] { return window.simulation().notes == 1; })) << "the robot's log took no note";
  ASSERT_TRUE(waitFor([&] { return firstAtLeastOne(window.store().series(falls)) >= 0; }, 20))
      << "the robot did not count a fall after a 4.5 N·s push";
  const double guiFall = firstAtLeastOne(window.store().series(falls));
  // A restart is an event like the others: saved at its time, after the push.
  window.findChild<QAction*>("restartScenario")->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().applied.size() == 2; }))
      << window.simulation().lastReply;
  const MainWindow::AppliedEvent restart = window.simulation().applied.back();
  EXPECT_EQ(restart.line, "restart");
  EXPECT_GT(restart.time, push.time);
  const std::filesystem::path saved = config.directory / "Scenarios" / "standevents.toml";
  ASSERT_EQ(window.saveEventsAsScenario(saved), "");
  window.link()->post([](DebugClient& client) -> std::function<void()>
                      { return client.stopLog(), std::function<void()>(); });
  ASSERT_TRUE(waitFor([&] { return std::filesystem::exists(logReply->message.substr(11)); }));
  window.close();

  // The note, at a frame of the log (`logging to <path>`: the robot's working directory is this one).
  const std::filesystem::path robotLog = logReply->message.substr(std::string("logging to ").size());
  ASSERT_TRUE(waitFor(
      [&]
      {
        try
        {
          binaryio::LogReader reader(robotLog);
          while (reader.nextFrame())
          {
          }
          for (const auto& annotation : reader.annotations())
            if (const auto note = parseNoteAnnotation(annotation.text))
              return note->text.starts_with("event: push 45 0 0 for 0.1 at torso (sim frame ") &&
                     reader.sawEnd();
        }
        catch (const std::exception&)
        {
        }
        return false;
      },
      10))
      << robotLog;
  std::filesystem::remove(robotLog);

  // The saved scenario: the stand's file and the push as a control event; run again, the robot falls as it did.
  const ScenarioScript script = ScenarioScript::load(saved);
  ASSERT_EQ(script.controls.size(), 2u) << readFile(saved);
  EXPECT_EQ(script.controls[0], (ScriptControlEvent{std::round(push.time * 1000) / 1000, push.line}));
  EXPECT_EQ(script.controls[1], (ScriptControlEvent{std::round(restart.time * 1000) / 1000, "restart"}));
  EXPECT_EQ(script.keyframes.size(),
            ScenarioScript::load(config.directory / "Scenarios" / "stand.toml").keyframes.size());
  EXPECT_TRUE(ScenarioScript::load(config.directory / "Scenarios" / "early.toml").controls.empty());
  const std::filesystem::path output = config.directory / "replay";
  QProcess simulator;
  simulator.setProcessChannelMode(QProcess::MergedChannels);
  simulator.start(NAO_SIMULATOR_BINARY,
                  {"run", "standevents", "--config", QString::fromStdString(config.directory.string()),
                   "--minutes", QString::number((restart.time + 0.5) / 60.0), "--output",
                   QString::fromStdString(output.string()), "--no-plots", "--quiet"});
  ASSERT_TRUE(simulator.waitForFinished(120000));
  ASSERT_EQ(simulator.exitCode(), 0) << simulator.readAll().toStdString();
  const double replayFall = firstFallInLog(output / "standevents.log");
  std::printf("the GUI's robot fell at %.3f s, the replay's at %.3f s (push at %.3f s)\n", guiFall,
              replayFall, push.time);
  // Both falls come from the push, and at the same time within 10 frames: the GUI's run is real time, where a loaded
  // machine makes its robot miss frames (the simulator keeps the last command) and moves the detection by a few frames
  // (unloaded: the same frame or one or two apart); the replay is lock-step.
  EXPECT_GT(replayFall, push.time);
  EXPECT_LT(replayFall, push.time + 1.5) << "the replay's fall follows its push";
  EXPECT_NEAR(replayFall, guiFall, 0.12) << "the GUI's robot fell at " << guiFall << " s, the replay's at "
                                         << replayFall << " s (push at " << push.time << " s)";
}
