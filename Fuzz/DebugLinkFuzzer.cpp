// The debug channel from a hostile robot: what DebugClient and the GUI do with whatever a robot sends. A listening
// socket of this process plays the robot: for each input it accepts the client, writes the input's byte stream and
// ends its side of the connection. The client then does what the GUI does on connecting (RobotLink): `list`, whose
// reply becomes the module graph's DOT text and, for a graph of a few dozen nodes, a Graphviz layout; a module's
// parameters; a subscription; then every streamed sample is decoded with this binary's representation table
// (decodeSample) into the GUI's SeriesStore, typed by the field list the robot sent. Each step is answered from the
// stream, refused, or ends in an exception the GUI catches (std::exception); nothing may crash, hang or grow.
//
// Checked beyond "no crash": every name the robot sent comes back from dotName()/nameFromDot() unchanged; a layout
// names only nodes the robot sent; the client keeps at most maxPendingData samples.
//
// Input: byte 0: bit 0 set, the rest of the input is the raw byte stream (bad magic, CRCs, lengths); clear, the rest
// is a list of messages [type u8][length u16 LE][payload] that the harness frames with valid CRCs, so that mutations
// reach the replies' contents. Bit 1: the client presents a token first (a robot may answer `refused`).
#include "Framework/Client/DebugClient.h"
#include "FuzzSupport.h"
#include "Tools/Network/Frame.h"
#include "Util/DebugGui/GraphLayout.h"
#include "Util/DebugGui/RobotLink.h"
#include "Util/DebugGui/SeriesStore.h"
#include <arpa/inet.h>
#include <cstdlib>
#include <netinet/in.h>
#include <set>
#include <sys/socket.h>
#include <unistd.h>

namespace
{
/// A graph larger than this is not laid out here: Graphviz takes long on large graphs, and the GUI's own bounds
/// (ModuleGraphView::maxLaidOutNodes) are tested with a real GUI (DebugGuiHostileTests).
constexpr std::size_t maxFuzzLayoutNodes = 40, maxFuzzLayoutEdges = 120;

struct FakeRobot
{
  FakeRobot()
  {
    listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(listener, 4) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0)
      std::abort();
    port = ntohs(address.sin_port);
  }
  int listener = -1;
  std::uint16_t port = 0;
};

void checkNameRoundTrip(const std::string& name)
{
  const std::string quoted = nao::gui::dotName(name);
  std::string decoded;
  if (quoted.size() < 2 ||
      !nao::gui::nameFromDot(std::string_view(quoted).substr(1, quoted.size() - 2), decoded) ||
      decoded != name)
    std::abort();
}

/// The module graph as the GUI draws it; every laid-out node must be one of the names the robot sent.
void drawGraph(const nao::debug::ListReply& list, nao::gui::SeriesStore& store)
{
  std::set<std::string> sent;
  for (const auto& representation : list.representations)
  {
    checkNameRoundTrip(representation.name);
    sent.insert(representation.name);
    store.setFields(representation.name, representation.fields);
  }
  for (const auto& module : list.modules)
  {
    checkNameRoundTrip(module.name);
    sent.insert(module.name);
    for (const auto* names : {&module.requires_, &module.uses, &module.provides})
      sent.insert(names->begin(), names->end());
  }
  std::map<std::string, std::vector<std::string>> providersOf;
  const nao::gui::ModuleGraphDot dot = nao::gui::moduleGraphDot(list, providersOf, 150);
  if (dot.nodes == 0 || dot.nodes > maxFuzzLayoutNodes || dot.edges > maxFuzzLayoutEdges) return;
  const nao::gui::GraphLayout layout = nao::gui::layOut(dot.text);
  if (!layout.error.empty()) return;
  // The off-representations' pass-through inputs come from this binary's table, not from the robot.
  const auto& registry = nao::RepresentationRegistry::instance();
  for (const auto& node : layout.nodes)
    if (!sent.contains(node.name) && registry.find(node.name) < 0) std::abort();
}

void takeSample(const nao::debug::Data& data, nao::gui::SeriesStore& store)
{
  try
  {
    if (const auto sample = nao::gui::decodeSample(data)) store.add(*sample);
  }
  catch (const std::exception&) // a payload that is not the representation: the GUI drops it and counts it
  {
  }
}

/// What RobotLink does on connecting, each step on its own: a failed one (no answer, garbage, a refusal) does not
/// keep the next from being tried, as a GUI's user would try again.
void actLikeTheGui(nao::DebugClient& client, nao::gui::SeriesStore& store)
{
  std::string module = "StandPoseProvider", representation = "JointRequest";
  try
  {
    const nao::debug::ListReply list = client.list();
    drawGraph(list, store);
    if (!list.modules.empty()) module = list.modules.front().name;
    if (!list.representations.empty()) representation = list.representations.front().name;
  }
  catch (const std::exception&)
  {
  }
  try
  {
    client.parameters(module);
  }
  catch (const std::exception&)
  {
  }
  try
  {
    client.subscribe(representation, 0.f);
    for (int taken = 0; taken < 10000; ++taken)
    {
      if (client.pendingData() > nao::DebugClient::maxPendingData) std::abort();
      const auto data = client.nextData(std::chrono::milliseconds(0));
      if (!data) break;
      takeSample(*data, store);
    }
  }
  catch (const std::exception&)
  {
  }
}
} // namespace

// Graphviz measures text with Pango, whose fontconfig keeps caches for the life of the process (about 20 kB in 540
// blocks, the same after 80,000 inputs as after 10): LeakSanitizer reports them at exit unless told.
extern "C" const char* __lsan_default_suppressions()
{
  return "leak:libfontconfig.so\n";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static FakeRobot& robot = *new FakeRobot; // reachable until exit: never reported as a leak
  if (size == 0) return 0;
  const bool raw = data[0] & 1;
  const bool token = data[0] & 2;
  const std::span<const std::uint8_t> rest(data + 1, size - 1);

  const std::vector<char> stream = nao::fuzz::frameStream(raw, rest);

  // 100 ms: an answer the stream does not hold is not waited for long (the robot's side is already closed, so the
  // client sees the end at once; the timeout only bounds a bug).
  nao::DebugClient client("127.0.0.1", robot.port, token ? "token" : "", std::chrono::milliseconds(100));
  const int connection = ::accept4(robot.listener, nullptr, nullptr, SOCK_CLOEXEC);
  if (connection < 0) std::abort();
  // The whole stream is written before the client reads: it fits the socket's buffer for any input the fuzzer makes
  // (a larger one is cut where the buffer is full, which a robot's stream can be too).
  for (std::size_t at = 0; at < stream.size();)
  {
    const ssize_t written =
        ::send(connection, stream.data() + at, stream.size() - at, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (written <= 0) break;
    at += static_cast<std::size_t>(written);
  }
  ::shutdown(connection, SHUT_WR);

  nao::gui::SeriesStore store;
  actLikeTheGui(client, store);
  ::close(connection);
  return 0;
}
