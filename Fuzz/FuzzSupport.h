#pragma once
// Shared by the fuzz targets: the loaders under test read files, so an input is written to a file of this
// process first (in /dev/shm when there is one: no disk I/O per input).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <unistd.h>

namespace nao::fuzz
{
/// A folder of this process for scratch files, created on first use.
inline const std::filesystem::path& scratchFolder()
{
  static const std::filesystem::path folder = []
  {
    const std::filesystem::path base =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
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

/// Removes the scratch folder when the fuzzer ends (libFuzzer ends with exit(), which runs static destructors).
struct ScratchCleanup
{
  ~ScratchCleanup()
  {
    std::error_code ignored;
    std::filesystem::remove_all(scratchFolder(), ignored);
  }
};
} // namespace nao::fuzz
