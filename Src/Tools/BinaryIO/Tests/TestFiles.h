#pragma once
// Small helpers the BinaryIO tests share: a private temporary directory and whole-file byte access.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

namespace nao::binaryio::test
{
/// A fresh directory under the system's temporary directory, removed with everything in it on destruction.
class TemporaryDirectory
{
public:
  TemporaryDirectory()
  {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("nao-binaryio-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TemporaryDirectory()
  {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  std::filesystem::path file(const std::string& name) const { return path_ / name; }

private:
  std::filesystem::path path_;
};

inline std::vector<char> readFileBytes(const std::filesystem::path& path)
{
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

inline void writeFileBytes(const std::filesystem::path& path, const std::vector<char>& bytes)
{
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// The little-endian bytes of a 32- or 64-bit value, as a test's independent view of the wire format.
template<class Unsigned>
std::vector<char> littleEndianBytes(Unsigned value)
{
  std::vector<char> bytes(sizeof(Unsigned));
  for (std::size_t index = 0; index < sizeof(Unsigned); ++index)
    bytes[index] = static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * index)) & 0xFFu);
  return bytes;
}

/// Every position where `pattern` starts in `bytes`.
inline std::vector<std::size_t> findAll(const std::vector<char>& bytes, const std::vector<char>& pattern)
{
  std::vector<std::size_t> positions;
  for (std::size_t start = 0; start + pattern.size() <= bytes.size(); ++start)
    if (std::equal(pattern.begin(), pattern.end(), bytes.begin() + static_cast<std::ptrdiff_t>(start)))
      positions.push_back(start);
  return positions;
}

inline void overwrite(std::vector<char>& bytes, std::size_t position, const std::vector<char>& replacement)
{
  std::copy(replacement.begin(), replacement.end(), bytes.begin() + static_cast<std::ptrdiff_t>(position));
}
} // namespace nao::binaryio::test
