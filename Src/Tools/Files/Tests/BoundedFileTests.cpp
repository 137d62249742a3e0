// Only regular files of bounded size are read, and every refusal names the path and says why in words.
#include "Tools/Files/BoundedFile.h"
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nao::files;

namespace
{
struct Folder
{
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("nao-bounded-file-" + std::to_string(::getpid()));
  Folder() { std::filesystem::create_directories(path); }
  ~Folder() { std::filesystem::remove_all(path); }
};

std::string errorOf(const std::filesystem::path& file, std::uintmax_t maxBytes = maxConfigFileBytes)
{
  try
  {
    readBoundedFile(file, maxBytes);
  }
  catch (const FileError& error)
  {
    return error.what();
  }
  return "";
}
} // namespace

TEST(BoundedFile, ARegularFileIsReadWhole)
{
  Folder folder;
  const std::string text = "a = 1\n" + std::string(100000, 'x') + "\n";
  std::ofstream(folder.path / "f.toml") << text;
  EXPECT_EQ(readBoundedFile(folder.path / "f.toml"), text);
}

TEST(BoundedFile, AFifoIsRefusedAtOnceInsteadOfBlocking)
{
  Folder folder;
  ASSERT_EQ(::mkfifo((folder.path / "fifo.toml").c_str(), 0600), 0);
  EXPECT_EQ(errorOf(folder.path / "fifo.toml"),
            (folder.path / "fifo.toml").string() + ": cannot read: it is a FIFO, not a regular file");
}

TEST(BoundedFile, ALinkToADeviceOrAFolderIsRefused)
{
  Folder folder;
  std::filesystem::create_symlink("/dev/zero", folder.path / "zero.urdf");
  EXPECT_NE(errorOf(folder.path / "zero.urdf").find("it is a device, not a regular file"), std::string::npos);
  EXPECT_NE(errorOf(folder.path).find("it is a folder"), std::string::npos);
}

TEST(BoundedFile, TooLargeMissingLoopedAndForbiddenFilesSayWhy)
{
  Folder folder;
  std::ofstream(folder.path / "big") << std::string(2000, 'x');
  EXPECT_NE(errorOf(folder.path / "big", 1000).find("larger than 1000 bytes"), std::string::npos);
  EXPECT_EQ(errorOf(folder.path / "none"), (folder.path / "none").string() + ": cannot read: no such file");
  std::filesystem::create_symlink(folder.path / "b", folder.path / "a");
  std::filesystem::create_symlink(folder.path / "a", folder.path / "b");
  EXPECT_NE(errorOf(folder.path / "a").find("a loop of symbolic links"), std::string::npos);
  if (::geteuid() != 0) // root reads everything
  {
    std::ofstream(folder.path / "secret") << "x";
    std::filesystem::permissions(folder.path / "secret", std::filesystem::perms::none);
    EXPECT_NE(errorOf(folder.path / "secret").find("permission denied"), std::string::npos);
  }
}
