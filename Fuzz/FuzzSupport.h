#pragma once
// Shared by the fuzz targets: the loaders under test read files, so an input is written to a file of this
// process first (in /dev/shm when there is one: no disk I/O per input); the debug-channel fuzzers turn an input into
// a stream of frames.
#include "Tools/Network/Frame.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <unistd.h>
#include <vector>

namespace nao::fuzz
{
/// A folder of this process for scratch files, created on first use.
inline const std::filesystem::path& scratchFolder()
{
  static const std::filesystem::path folder = []
  {
    const std::filesystem::path base =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    // libFuzzer ends with _Exit() on most paths, so no destructor removes the folder: remove the folders of earlier
    // fuzz processes that no longer run instead.
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(base, ignored))
    {
      const std::string name = entry.path().filename().string();
      if (name.starts_with("nao-fuzz-") && !std::filesystem::exists("/proc/" + name.substr(9)))
        std::filesystem::remove_all(entry.path(), ignored);
    }
    std::filesystem::path path = base / ("nao-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  return folder;
}

/// Writes the bytes to scratchFolder()/name (replacing it) and returns the path.
inline std::filesystem::path writeScratchFile(const std::string& name, std::span<const std::uint8_t> bytes)
{
  const std::filesystem::path path = scratchFolder() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

/// The byte stream a debug-channel fuzzer feeds: `rest` as it is (`raw`), or cut into frames, each 3 bytes (type, and
/// payload length little-endian, cut to what is left) and that payload, every one encoded as a well-formed frame.
inline std::vector<char> frameStream(bool raw, std::span<const std::uint8_t> rest)
{
  std::vector<char> stream;
  if (raw)
    stream.assign(rest.begin(), rest.end());
  else
    for (std::size_t at = 0; at + 3 <= rest.size();)
    {
      const std::uint16_t type = rest[at];
      const std::size_t length =
          std::min<std::size_t>(rest[at + 1] | rest[at + 2] << 8, rest.size() - at - 3);
      network::encodeFrame(type, {reinterpret_cast<const char*>(rest.data() + at + 3), length}, stream);
      at += 3 + length;
    }
  return stream;
}

/// Removes the scratch folder when the fuzzer ends through exit() (other ends: see scratchFolder()).
struct ScratchCleanup
{
  ~ScratchCleanup()
  {
    std::error_code ignored;
    std::filesystem::remove_all(scratchFolder(), ignored);
  }
};
} // namespace nao::fuzz
