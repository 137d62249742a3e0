// Framework overhead per frame: a chain of 20 trivial modules (each adds one to its input), timed per module
// as in production. And the cost of logging one frame of the stand-in scenario's representations.
#include "Framework/Controller.h"
#include "Framework/Logger.h"
#include "Framework/Tests/TestModules.h"
#include <benchmark/benchmark.h>

using namespace nao;

namespace nao::bench
{
template<int I>
struct Link
{
  int value = 0;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(value);
  }
};

template<int I>
class ChainModule : public Module<ChainModule<I>, Requires<Link<I - 1>>, Provides<Link<I>>>
{
public:
  using ChainModule::Module::Module;
  void update(Link<I>& link) { link.value = this->template get<Link<I - 1>>().value + 1; }
};
template<>
class ChainModule<0> : public Module<ChainModule<0>, Requires<FrameInfo>, Provides<Link<0>>>
{
public:
  using Module::Module;
  void update(Link<0>& link) { link.value = static_cast<int>(get<FrameInfo>().frameNumber); }
};

template<int... Is>
void registerChain(std::integer_sequence<int, Is...>)
{
  (static_cast<void>(ModuleRegistration<ChainModule<Is>>{__FILE__}), ...);
}
constexpr int chainLength = 20;
} // namespace nao::bench

namespace
{
/// Never ends, costs nothing: what remains is the framework.
class EndlessBody : public Body
{
public:
  bool waitForSensors(BodySensors& sensors) override
  {
    ++sensors.frameInfo.frameNumber;
    return true;
  }
  void send(const JointRequest&) override {}
  const char* name() const override { return "Endless"; }
};

void BM_FrameWith20TrivialModules(benchmark::State& state)
{
  static const bool registered =
      (bench::registerChain(std::make_integer_sequence<int, bench::chainLength>{}), true);
  (void)registered;
  Blackboard blackboard;
  EndlessBody body;
  MotionLoop motion(blackboard, body);
  Controller controller({NAO_CONFIG_DIR, "Default"}, blackboard, motion);
  std::vector<ProviderChoice> choices;
  for (int i = 0; i < bench::chainLength; ++i)
    choices.push_back({"Link<" + std::to_string(i) + ">", "ChainModule<" + std::to_string(i) + ">", {}});
  // No motion source: the request stays at its default and the five stages (off) pass it through, as in a
  // scenario without them. Their copies are part of the measured frame.
  for (const char* stage : {"MotionJointRequest", "SafeMotionJointRequest", "FallSafeJointRequest",
                            "CollisionFreeJointRequest", "StiffnessJointRequest", "JointRequest"})
    choices.push_back({stage, "off", {}});
  controller.start(choices, "benchmark");
  for (auto _ : state)
    motion.runFrame();
  const int last = blackboard.get<bench::Link<bench::chainLength - 1>>().value;
  if (last != static_cast<int>(blackboard.get<FrameInfo>().frameNumber) + bench::chainLength - 1)
    state.SkipWithError("chain computed a wrong value");
  state.counters["modules"] = bench::chainLength;
  state.counters["passThroughStages"] = 5;
}
BENCHMARK(BM_FrameWith20TrivialModules);

void BM_LogWritePerFrame(benchmark::State& state)
{
  // The stand-in scenario's log set, serialized and written as the Logger thread does it.
  const std::vector<std::string> names = {"FrameInfo",     "JointSensorData",    "JointRequest",
                                          "FsrSensorData", "InertialSensorData", "BatteryData",
                                          "ModuleTimes"};
  const auto& registry = RepresentationRegistry::instance();
  Blackboard blackboard;
  binaryio::TypeTable table;
  std::vector<RepresentationId> ids;
  for (const auto& name : names)
  {
    ids.push_back(static_cast<RepresentationId>(registry.find(name)));
    table.entries.push_back({ids.back(), name, registry.info(ids.back()).schema});
  }
  const auto path = std::filesystem::temp_directory_path() / "nao-benchmark.log";
  binaryio::LogWriter writer(path, table);
  binaryio::FrameChunkBuilder builder;
  std::vector<char> scratch;
  std::uint32_t frame = 0;
  for (auto _ : state)
  {
    builder.begin(frame++);
    for (RepresentationId id : ids)
    {
      scratch.clear();
      registry.info(id).saveBinary(blackboard.current(id), scratch);
      builder.addRecord(id, scratch);
    }
    writer.writeFrame(builder);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(writer.bytesWritten()));
  writer.close();
  std::filesystem::remove(path);
}
BENCHMARK(BM_LogWritePerFrame);
} // namespace

BENCHMARK_MAIN();
