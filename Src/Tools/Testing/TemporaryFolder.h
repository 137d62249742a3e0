#pragma once
// Scratch folders of a test process: named after the test and the process, so that tests running at the same time
// never share one.
#include <filesystem>
#include <string>

namespace nao::test
{
/// A new, empty folder <temp>/nao-<name>-<pid> (an old one of that name is removed first).
std::filesystem::path freshTemporaryFolder(const std::string& name);

/// freshTemporaryFolder(name), removed again with this object.
class TemporaryFolder
{
public:
  explicit TemporaryFolder(const std::string& name) : path(freshTemporaryFolder(name)) {}
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::filesystem::path path;
};
} // namespace nao::test
