// Cost of logging one frame of about 2 KB of representation-like data: Boost serialization into the frame
// buffer, then one CRC-checked chunk written to a file; and the way back. Repetitions are the caller's
// (--benchmark_repetitions; Make/benchmarks takes the medians over its rounds and repetitions).

#include "Tools/BinaryIO/Crc32.h"
#include "Tools/BinaryIO/LogFormat.h"

#include <array>
#include <benchmark/benchmark.h>
#include <boost/serialization/array.hpp>
#include <filesystem>
#include <optional>
#include <unistd.h>

namespace nao::binaryio
{
namespace
{
/// Shaped like a joint-level representation: five per-joint arrays and a few scalars (~520 bytes serialized).
struct JointStateLike
{
  std::array<float, 25> angles{};       ///< rad
  std::array<float, 25> velocities{};   ///< rad/s
  std::array<float, 25> currents{};     ///< A
  std::array<float, 25> temperatures{}; ///< °C
  std::array<float, 25> stiffnesses{};  ///< 0..1
  std::uint32_t frameNumber = 0;
  double timestamp = 0.0; ///< s
  bool valid = true;

  template<class Archive>
  void serialize(Archive& archive, unsigned int /*version*/)
  {
    archive& angles& velocities& currents& temperatures& stiffnesses& frameNumber& timestamp& valid;
  }
};

constexpr int recordsPerFrame = 4; ///< four such representations make the ~2 KB frame
constexpr std::uint64_t restartFileAfterBytes = 64u * 1024u * 1024u;

JointStateLike makeState(std::uint32_t frameNumber)
{
  JointStateLike state;
  for (std::size_t joint = 0; joint < 25; ++joint)
  {
    state.angles[joint] = 0.01f * static_cast<float>(joint + frameNumber);
    state.currents[joint] = 0.05f * static_cast<float>(joint);
    state.temperatures[joint] = 40.0f + static_cast<float>(joint);
  }
  state.frameNumber = frameNumber;
  state.timestamp = 0.012 * frameNumber;
  return state;
}

TypeTable benchmarkTypeTable()
{
  TypeTable table;
  for (std::uint16_t id = 0; id < recordsPerFrame; ++id)
    table.entries.push_back({id, "JointStateLike" + std::to_string(id), "5 x f32[25], u32, f64, bool"});
  return table;
}

void buildFrame(FrameChunkBuilder& builder, const JointStateLike& state, std::uint32_t frameNumber)
{
  builder.begin(frameNumber);
  for (std::uint16_t id = 0; id < recordsPerFrame; ++id)
    builder.addSerialized(id, state);
}

std::filesystem::path benchmarkFile()
{
  return std::filesystem::temp_directory_path() /
         ("nao-binaryio-bench-" + std::to_string(::getpid()) + ".naolog");
}

void BM_SerializeFrame(benchmark::State& state)
{
  FrameChunkBuilder builder;
  const JointStateLike representation = makeState(1);
  std::uint32_t frameNumber = 0;
  for (auto _ : state)
  {
    buildFrame(builder, representation, frameNumber++);
    benchmark::DoNotOptimize(builder.payload().data());
  }
  state.counters["frame_bytes"] = static_cast<double>(builder.payload().size());
}

/// The share of the chunk checksum (boost::crc_32_type, one table lookup per byte) in writing and reading.
void BM_Crc32OfFrame(benchmark::State& state)
{
  FrameChunkBuilder builder;
  buildFrame(builder, makeState(1), 1);
  for (auto _ : state)
    benchmark::DoNotOptimize(crc32(builder.payload()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(builder.payload().size()));
}

void serializeAndWrite(benchmark::State& state, bool flushEveryChunk)
{
  const std::filesystem::path path = benchmarkFile();
  ChunkWriterOptions options;
  options.flushEveryChunk = flushEveryChunk;
  std::optional<LogWriter> writer(std::in_place, path, benchmarkTypeTable(), options);
  FrameChunkBuilder builder;
  const JointStateLike representation = makeState(1);
  std::uint32_t frameNumber = 0;
  for (auto _ : state)
  {
    buildFrame(builder, representation, frameNumber++);
    writer->writeFrame(builder);
    if (writer->bytesWritten() > restartFileAfterBytes)
    {
      // Keeps the benchmark's disk use bounded; not part of the measured cost.
      state.PauseTiming();
      writer.emplace(path, benchmarkTypeTable(), options);
      state.ResumeTiming();
    }
  }
  writer.reset();
  std::filesystem::remove(path);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(builder.payload().size()));
}

void BM_SerializeAndWriteFrame_FlushEveryChunk(benchmark::State& state)
{
  serializeAndWrite(state, true);
}
void BM_SerializeAndWriteFrame_Buffered(benchmark::State& state)
{
  serializeAndWrite(state, false);
}

void BM_ReadAndDeserializeFrame(benchmark::State& state)
{
  const std::filesystem::path path = benchmarkFile();
  constexpr std::uint32_t frames = 2000;
  {
    LogWriter writer(path, benchmarkTypeTable());
    FrameChunkBuilder builder;
    for (std::uint32_t frameNumber = 0; frameNumber < frames; ++frameNumber)
    {
      buildFrame(builder, makeState(frameNumber), frameNumber);
      writer.writeFrame(builder);
    }
  }
  std::optional<LogReader> reader(std::in_place, path);
  LogFrame frame;
  JointStateLike decoded;
  for (auto _ : state)
  {
    if (!reader->readNextFrame(frame))
    {
      state.PauseTiming();
      reader.emplace(path);
      reader->readNextFrame(frame);
      state.ResumeTiming();
    }
    for (const FrameRecord& record : frame.view())
      deserialize(record.bytes, decoded);
    benchmark::DoNotOptimize(decoded.angles.data());
  }
  reader.reset();
  std::filesystem::remove(path);
}
} // namespace

BENCHMARK(BM_SerializeFrame);
BENCHMARK(BM_Crc32OfFrame);
BENCHMARK(BM_SerializeAndWriteFrame_FlushEveryChunk);
BENCHMARK(BM_SerializeAndWriteFrame_Buffered);
BENCHMARK(BM_ReadAndDeserializeFrame);
} // namespace nao::binaryio

BENCHMARK_MAIN();
