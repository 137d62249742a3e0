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
