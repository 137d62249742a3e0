// Writes the binary seeds of the corpus (Fuzz/Corpus/<Fuzzer>/): debug-channel messages, a small log and LoLA frames,
// made with the project's own encoders so that they stay valid when the formats change. The text seeds (TOML,
// URDF, scenarios) are written by hand. Usage: FuzzSeedWriter <Fuzz/Corpus folder>
#include "Framework/DebugMessages.h"
#include "Framework/Representation.h"
#include "Platform/LoLA/LolaProtocol.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Tools/BinaryIO/BoundedArchive.h"
#include "Tools/BinaryIO/LogFormat.h"
#include <filesystem>
#include <fstream>
#include <iostream>

namespace
{
namespace fs = std::filesystem;

void write(const fs::path& path, std::span<const char> bytes)
{
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// One structured DebugChannelFuzzer message: [type u8][length u16 LE][payload].
template<class T>
void appendMessage(std::vector<char>& input, nao::debug::MessageType type, const T& message)
{
  std::vector<char> payload;
  nao::binaryio::serializeInto(payload, message);
  input.push_back(static_cast<char>(type));
  input.push_back(static_cast<char>(payload.size() & 0xff));
  input.push_back(static_cast<char>(payload.size() >> 8));
  input.insert(input.end(), payload.begin(), payload.end());
}

void writeDebugSeeds(const fs::path& folder)
{
  using nao::debug::MessageType;
  auto seed = [&](const std::string& name, auto&& fill)
  {
    std::vector<char> input{static_cast<char>(2 * 15)}; // structured, pieces of 16 bytes
    fill(input);
    write(folder / name, input);
  };
  seed("list", [](auto& in) { appendMessage(in, MessageType::listRequest, nao::debug::Empty{}); });
  seed("subscribe",
       [](auto& in)
       {
         appendMessage(in, MessageType::subscribe, nao::debug::Subscribe{"JointRequest", 40.f});
         appendMessage(in, MessageType::unsubscribe, nao::debug::Name{"JointRequest"});
       });
  seed("parameters",
       [](auto& in)
       {
         appendMessage(in, MessageType::getParameters, nao::debug::Name{"StandPoseProvider"});
         appendMessage(in, MessageType::setParameter,
                       nao::debug::SetParameter{"StandPoseProvider", "angles.HeadYaw", "10.0"});
       });
  seed("provider",
       [](auto& in) {
         appendMessage(in, MessageType::setProvider, nao::debug::SetProvider{"JointRequest", "off"});
       });
  seed("log",
       [](auto& in)
       {
         appendMessage(in, MessageType::logStart, nao::debug::Name{"fuzz.log"});
         appendMessage(in, MessageType::logStop, nao::debug::Empty{});
       });
}

/// DebugLinkFuzzer's seeds: what a robot answers a GUI that connects, lists, asks for parameters and subscribes.
void writeLinkSeeds(const fs::path& folder)
{
  using nao::debug::MessageType;
  nao::registerFrameworkRepresentations();
  const auto& registry = nao::RepresentationRegistry::instance();
  nao::debug::ListReply list;
  list.scenario = "stand";
  list.plan = "StandPoseProvider -> MotionJointRequest";
  for (const nao::RepresentationId id :
       {nao::representationId<nao::FrameInfo>(), nao::representationId<nao::JointRequest>()})
  {
    nao::debug::RepresentationEntry entry;
    entry.name = registry.info(id).name;
    entry.provider = id == nao::representationId<nao::JointRequest>() ? "StandPoseProvider" : "Framework";
    entry.fields = registry.info(id).fields;
    list.representations.push_back(entry);
  }
  nao::debug::ModuleEntry module;
  module.name = "StandPoseProvider";
  module.active = true;
  module.requires_ = {"FrameInfo"};
  module.provides = {"JointRequest"};
  list.modules.push_back(module);
  nao::JointRequest request;
  request.angles.fill(0.25f);
  nao::debug::Data sample{"JointRequest", 7, 0.084, 0, {}};
  registry.info(nao::representationId<nao::JointRequest>()).saveBinary(&request, sample.payload);

  auto seed = [&](const std::string& name, char mode, auto&& fill)
  {
    std::vector<char> input{mode};
    fill(input);
    write(folder / name, input);
  };
  const auto connecting = [&](auto& in)
  {
    appendMessage(in, MessageType::listReply, list);
    appendMessage(in, MessageType::parameters,
                  nao::debug::Parameters{"StandPoseProvider", "transitionTime = 1000.0\n", {}});
    appendMessage(in, MessageType::reply, nao::debug::Reply{true, "subscribed JointRequest"});
    for (int i = 0; i < 3; ++i)
      appendMessage(in, MessageType::data, sample);
  };
  seed("connecting", '\0', connecting);
  seed("data-before-replies", '\0',
       [&](auto& in)
       {
         appendMessage(in, MessageType::data, sample);
         connecting(in);
       });
  seed("refused", '\2',
       [&](auto& in)
       {
         const std::string reason = "wrong token";
         in.push_back(static_cast<char>(MessageType::refused));
         in.push_back(static_cast<char>(reason.size()));
         in.push_back(0);
         in.insert(in.end(), reason.begin(), reason.end());
       });
}

void writeLogSeeds(const fs::path& folder)
{
  nao::registerFrameworkRepresentations();
  const auto& registry = nao::RepresentationRegistry::instance();
  const nao::RepresentationId frameInfo = nao::representationId<nao::FrameInfo>();
  const nao::RepresentationId jointRequest = nao::representationId<nao::JointRequest>();
  nao::binaryio::TypeTable table;
  for (const nao::RepresentationId id : {frameInfo, jointRequest})
    table.entries.push_back(
        {static_cast<std::uint16_t>(id), registry.info(id).name, registry.info(id).schema});
  const fs::path scratch = fs::temp_directory_path() / "nao-fuzz-seed.log";
  {
    nao::binaryio::LogWriter writer(scratch, table);
    nao::binaryio::FrameChunkBuilder frame;
    for (std::uint32_t number = 0; number < 2; ++number)
    {
      nao::FrameInfo info;
      info.time = 0.012 * number;
      nao::JointRequest request;
      frame.begin(number);
      std::vector<char> bytes;
      registry.info(frameInfo).saveBinary(&info, bytes);
      frame.addRecord(static_cast<std::uint16_t>(frameInfo), bytes);
      bytes.clear();
      registry.info(jointRequest).saveBinary(&request, bytes);
      frame.addRecord(static_cast<std::uint16_t>(jointRequest), bytes);
      writer.writeFrame(frame);
    }
    writer.writeAnnotation("seed");
    writer.close();
  }
  std::ifstream in(scratch, std::ios::binary);
  const std::vector<char> log((std::istreambuf_iterator<char>(in)), {});
  fs::remove(scratch);
  for (const char mode : {'\0', '\1'}) // bytes as they are; CRCs repaired by the harness
  {
    std::vector<char> input{mode};
    input.insert(input.end(), log.begin(), log.end());
    write(folder / (mode ? "two-frames-crc-repaired" : "two-frames"), input);
  }
}

void writeLolaSeeds(const fs::path& folder)
{
  std::vector<std::uint8_t> bytes(4096);
  const std::size_t sensorBytes = nao::encodeSensorFrame(nao::LolaSensorFrame{}, bytes);
  write(folder / "sensor-frame", {reinterpret_cast<const char*>(bytes.data()), sensorBytes});
  nao::LolaActuatorFrame answer;
  answer.presentKeys = 0x7ff; // all 11 keys
  const std::size_t answerBytes = nao::encodeActuatorFrame(answer, bytes);
  write(folder / "actuator-frame", {reinterpret_cast<const char*>(bytes.data()), answerBytes});
  answer.presentKeys = 0x3; // Position and Stiffness only
  const std::size_t partialBytes = nao::encodeActuatorFrame(answer, bytes);
  write(folder / "actuator-frame-partial", {reinterpret_cast<const char*>(bytes.data()), partialBytes});
}
} // namespace

int main(int argc, char** argv)
{
  if (argc != 2)
  {
    std::cerr << "usage: FuzzSeedWriter <Fuzz/Corpus folder>\n";
    return 2;
  }
  const fs::path corpus = argv[1];
  writeDebugSeeds(corpus / "DebugChannelFuzzer");
  writeLogSeeds(corpus / "LogReaderFuzzer");
  writeLolaSeeds(corpus / "LolaFuzzer");
  writeLinkSeeds(corpus / "DebugLinkFuzzer");
  return 0;
}
