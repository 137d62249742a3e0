// The debug GUI against a hostile or broken robot (issue 27), in this process, headless: names that Graphviz's
// syntax cannot take as they are, a module graph of 2,500 representations, samples the GUI does not collect in time,
// and data that floods while a request waits. The robot is a fake (FakeRobot.h) that answers as each test needs.
#include "Framework/Client/DebugClient.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include "Util/DebugGui/Tests/FakeRobot.h"
#include <QTimer>
#include <future>

using namespace nao;
using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
/// Representations and modules named with what DOT quotes or escapes: a quote after a backslash, backslashes (one
/// at the end), a newline, a tab, non-ASCII letters, a lone quote, a percent sign.
debug::ListReply oddNames()
{
  const std::vector<std::string> names = {"Quote\\\"d",
                                          "\"",
                                          "back\\slash\\",
                                          "new\nline",
                                          "\xc3\x9c"
                                          "n\xc3\xaf"
                                          "c\xc3\xb6"
                                          "d\xc3\xa9\xe2\x86\x92\xe8\xa1\xa8",
                                          "percent%41",
                                          "tab\tand space"};
  debug::ListReply list;
  list.scenario = "odd \"scenario\"\\";
  list.modules.push_back({"Odd\\\"Module\n", true, {}, {}, {}, {}});
  list.modules.push_back({"Plain", true, {}, {}, {}, {}});
  for (std::size_t i = 0; i < names.size(); ++i)
  {
    const bool odd = i < 4;
    list.representations.push_back({names[i], list.modules[odd ? 0 : 1].name, {}});
    list.modules[odd ? 0 : 1].provides.push_back(names[i]);
    if (!odd) list.modules[0].requires_.push_back(names[i]);
  }
  return list;
}

/// The GUI thread's pace: a 100 ms timer, which a blocked event loop delays; the longest gap between its ticks and
/// the highest resident memory seen at them.
struct GuiPace
{
  QTimer tick;
  double maxGap = 0, peak = residentMegabytes(); ///< s, MB
  std::chrono::steady_clock::time_point last;
  void start()
  {
    QObject::connect(&tick, &QTimer::timeout,
                     [this]
                     {
                       update();
                       last = std::chrono::steady_clock::now();
                     });
    last = std::chrono::steady_clock::now();
    tick.start(100);
  }
  /// Counts the time since the last tick too: a GUI thread that was blocked until just now.
  void update()
  {
    maxGap = std::max(maxGap, std::chrono::duration<double>(std::chrono::steady_clock::now() - last).count());
    peak = std::max(peak, residentMegabytes());
  }
};
} // namespace

TEST(DebugGuiHostile, NamesWithQuotesBackslashesNewlinesAndUnicodeAreLaidOutAndShown)
{
  application();
  FakeRobot::Behaviour behaviour;
  behaviour.list = oddNames();
  FakeRobot robot(behaviour);
  MainWindow window(options());
  window.show();
  window.connectTo({"127.0.0.1", robot.port(), "", 5});
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }, 20))
      << window.statusLine().toStdString();
  ASSERT_TRUE(waitFor([&] { return !window.graph().layingOut(); }, 20))
      << window.graph().message().toStdString();
  EXPECT_EQ(window.graph().nodeCount(), 9) << window.graph().message().toStdString();
  std::vector<std::string> expected;
  for (const auto& module : behaviour.list.modules)
    expected.push_back(module.name);
  for (const auto& representation : behaviour.list.representations)
    expected.push_back(representation.name);
  std::vector<std::string> shown = window.graph().nodeNames();
  std::sort(shown.begin(), shown.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(shown, expected) << "each node is the robot's name, byte for byte";
  EXPECT_TRUE(window.graph().message().startsWith("9 nodes")) << window.graph().message().toStdString();
  window.pump();
  EXPECT_TRUE(window.healthy()) << window.statusLine().toStdString();
}

TEST(DebugGuiHostile, AGraphOf2500RepresentationsLeavesTheGuiResponsiveAndItsMemoryBounded)
{
  application();
  FakeRobot::Behaviour behaviour;
  behaviour.list = largeGraph(2500);
  // The GUI plots the robot's time while the robot sends it as fast as the socket takes it (a small representation:
  // the store keeps 50,000 samples of each leaf, which a larger one would fill with ~300 MB within the run).
  behaviour.list.representations.push_back(knownRepresentation("FrameInfo"));
  behaviour.flood = "FrameInfo";
  behaviour.floodPayload = defaultPayload("FrameInfo");
  FakeRobot robot(behaviour);
  GuiOptions guiOptions = options();
  guiOptions.plots = {"FrameInfo.time"};
  const double before = residentMegabytes();
  GuiPace pace;
  {
    MainWindow window(guiOptions);
    window.show();
    pace.start();
    window.connectTo({"127.0.0.1", robot.port(), "", 5});
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    waitFor([&] { return std::chrono::steady_clock::now() > end; }, 30);
    pace.update();
    EXPECT_TRUE(window.ready()) << window.statusLine().toStdString();
    EXPECT_GT(window.store().series("FrameInfo.time").time.size(), 100u) << window.statusLine().toStdString();
    EXPECT_TRUE(window.graph().message().contains("too large to lay out: 2750 nodes"))
        << window.graph().message().toStdString();
    std::cout << "max gap of the GUI thread " << pace.maxGap << " s, resident memory " << before
              << " MB -> peak " << pace.peak << " MB; " << window.statusLine().toStdString() << "\n";
  }
  EXPECT_LT(pace.maxGap, 2.0) << "s between two ticks of a 100 ms timer on the GUI thread";
  EXPECT_LT(pace.peak - before, 300.0) << "MB of resident memory over 15 s";
}

TEST(DebugGuiHostile, ADenseGraphOf120RepresentationsIsLaidOutWhileTheGuiGoesOn)
{
  application();
  // Twelve modules of ten representations, each module requiring all 120: 1,560 edges (Graphviz's default
  // layout took 16 s of the GUI thread).
  FakeRobot::Behaviour behaviour;
  behaviour.list = largeGraph(120);
  for (auto& module : behaviour.list.modules)
  {
    module.requires_.clear();
    for (const auto& representation : behaviour.list.representations)
      module.requires_.push_back(representation.name);
  }
  FakeRobot robot(behaviour);
  MainWindow window(options());
  window.show();
  GuiPace pace;
  pace.start();
  window.connectTo({"127.0.0.1", robot.port(), "", 5});
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }, 20))
      << window.statusLine().toStdString();
  EXPECT_TRUE(waitFor([&] { return window.graph().nodeCount() == 132; }, 60))
      << window.graph().message().toStdString();
  pace.update();
  EXPECT_LT(pace.maxGap, 2.0) << "s between two ticks of a 100 ms timer on the GUI thread";
  std::cout << "max gap of the GUI thread " << pace.maxGap << " s; " << window.graph().message().toStdString()
            << "\n";
}

TEST(DebugGuiHostile, SamplesTheGuiDoesNotCollectAreBoundedTheOldestDroppedAndCounted)
{
  application();
  FakeRobot::Behaviour behaviour;
  behaviour.list.representations.push_back(knownRepresentation("JointSensorData"));
  behaviour.flood = "JointSensorData";
  behaviour.floodPayload = defaultPayload("JointSensorData");
  FakeRobot robot(behaviour);
  bool connected = false;
  std::string error;
  const double before = residentMegabytes();
  RobotLink link(
      {"127.0.0.1", robot.port(), "", 5}, [&](const debug::ListReply&) { connected = true; },
      [&](const std::string& message) { error = message; });
  ASSERT_TRUE(waitFor(
      [&]
      {
        link.pump();
        return connected || !error.empty();
      },
      20))
      << error;
  // The GUI thread is busy elsewhere for 3 s: nothing collects the samples.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const double after = residentMegabytes();
  EXPECT_GT(link.samplesReceived(), 2 * RobotLink::maxQueuedSamples);
  EXPECT_LE(link.queuedSamples(), RobotLink::maxQueuedSamples);
  EXPECT_GE(link.samplesDiscarded(), link.samplesReceived() - RobotLink::maxQueuedSamples - 1000);
  const std::vector<Sample> samples = link.pump();
  EXPECT_LE(samples.size(), RobotLink::maxQueuedSamples);
  EXPECT_LT(after - before, 200.0) << "MB of resident memory";
  std::cout << link.samplesReceived() << " samples received, " << link.samplesDiscarded() << " discarded, "
            << samples.size() << " collected; resident memory " << before << " -> " << after << " MB\n";
}

TEST(DebugGuiHostile, DataThatFloodsWhileARequestWaitsIsBoundedAndDrainedAtOnce)
{
  application();
  FakeRobot::Behaviour behaviour;
  behaviour.flood = "NoSuchRepresentation";
  behaviour.replyDelaySeconds = 2;
  FakeRobot robot(behaviour);
  DebugClient client("127.0.0.1", robot.port(), "", std::chrono::seconds(5));
  client.list();
  const double before = residentMegabytes();
  const debug::Reply reply = client.setParameter("Module", "key", "1"); // answered after 2 s of flood
  EXPECT_TRUE(reply.ok) << reply.message;
  EXPECT_LE(client.pendingData(), DebugClient::maxPendingData);
  EXPECT_GT(client.pendingDropped(), 0u) << "the flood outgrew the queue";
  EXPECT_LT(residentMegabytes() - before, 100.0) << "MB of resident memory";
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = DebugClient::maxPendingData; i > 0; --i)
    ASSERT_TRUE(client.nextData(std::chrono::milliseconds(100)));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0)
      << "s to drain the queue";
}

TEST(DebugGuiHostile, AFloodOfUnknownDataLeavesRequestsAnsweredAndTheLinkEndsAtOnce)
{
  application();
  FakeRobot::Behaviour behaviour;
  behaviour.flood = "NoSuchRepresentation";
  FakeRobot robot(behaviour);
  bool connected = false;
  std::string error, toml;
  auto link = std::make_unique<RobotLink>(
      LinkTarget{"127.0.0.1", robot.port(), "", 5}, [&](const debug::ListReply&) { connected = true; },
      [&](const std::string& message) { error = message; });
  ASSERT_TRUE(waitFor(
      [&]
      {
        link->pump();
        return connected || !error.empty();
      },
      20))
      << error;
  ASSERT_TRUE(waitFor([&] { return robot.dataSent() > 100000; }, 20));
  link->post(
      [&](DebugClient& client) -> std::function<void()>
      {
        const std::string text = client.parameters("AnyModule").toml;
        return [&, text] { toml = text; };
      });
  EXPECT_TRUE(waitFor(
      [&]
      {
        link->pump();
        return !toml.empty();
      },
      10))
      << "a parameter get during the flood is answered";
  EXPECT_EQ(toml, behaviour.parametersToml);
  EXPECT_EQ(robot.received(debug::MessageType::getParameters), 1u);
  // The link's thread ends when asked, flood or not (a hung destructor would keep the GUI from quitting).
  auto ended = std::async(std::launch::async, [&] { link.reset(); });
  const bool endedAtOnce = ended.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  if (!endedAtOnce) robot.stop(); // the connection closes: a stuck link thread ends then
  EXPECT_TRUE(endedAtOnce) << "the link's thread did not end within 5 s";
}
