// Only regular files of bounded size are read, and every refusal names the path and says why in words.
#include "Tools/Files/BoundedFile.h"
#include <fstream>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
            (folder.path / "fifo.toml").string() + ":1:1: cannot read: it is a FIFO, not a regular file");
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
  EXPECT_EQ(errorOf(folder.path / "none"),
            (folder.path / "none").string() + ":1:1: cannot read: no such file");
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

namespace
{
/// What `check` returns when run as the user nobody (all capabilities gone), in a child process: as root, a folder
/// that may not be searched and a file that may not be read can only be tried that way.
template<class Check>
std::string asNobody(Check check)
{
  int channel[2];
  if (::pipe(channel) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0)
  {
    ::close(channel[0]);
    std::string result = "could not become nobody";
    if (::getuid() != 0 || (::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0))
      result = check();
    [[maybe_unused]] const ssize_t written = ::write(channel[1], result.data(), result.size());
    ::_exit(0);
  }
  ::close(channel[1]);
  std::string result;
  char buffer[512];
  for (ssize_t got; (got = ::read(channel[0], buffer, sizeof buffer)) > 0;)
    result.append(buffer, static_cast<std::size_t>(got));
  ::close(channel[0]);
  ::waitpid(child, nullptr, 0);
  return result;
}

std::string existsError(const std::filesystem::path& path)
{
  try
  {
    return fileExists(path) ? "exists" : "missing";
  }
  catch (const FileError& error)
  {
    return error.what();
  }
}
} // namespace

TEST(BoundedFile, PermissionDeniedSaysSoWithThePathAsFileLineColumn)
{
  Folder folder;
  std::ofstream(folder.path / "secret.toml") << "a = 1\n";
  std::filesystem::permissions(folder.path / "secret.toml", std::filesystem::perms::owner_write);
  std::filesystem::permissions(folder.path, std::filesystem::perms::all); // nobody may enter the folder
  EXPECT_EQ(asNobody([&] { return errorOf(folder.path / "secret.toml"); }),
            (folder.path / "secret.toml").string() + ":1:1: cannot read: permission denied");
  std::filesystem::create_directories(folder.path / "closed");
  std::ofstream(folder.path / "closed" / "inside.toml") << "a = 1\n";
  std::filesystem::permissions(folder.path / "closed", std::filesystem::perms::owner_all);
  EXPECT_EQ(asNobody([&] { return existsError(folder.path / "closed" / "inside.toml"); }),
            (folder.path / "closed" / "inside.toml").string() +
                ":1:1: cannot read: permission denied (a folder on the way may not be searched)");
}

TEST(BoundedFile, ExistenceIsToldOrTheReasonWhyNot)
{
  Folder folder;
  std::ofstream(folder.path / "here.toml") << "a = 1\n";
  EXPECT_EQ(existsError(folder.path / "here.toml"), "exists");
  EXPECT_EQ(existsError(folder.path / "none.toml"), "missing");
  EXPECT_EQ(existsError(folder.path / "none" / "deeper.toml"), "missing");
  EXPECT_EQ(existsError(folder.path / "here.toml" / "below.toml"), "missing") << "a file is no folder";
  std::filesystem::create_symlink(folder.path / "b", folder.path / "a");
  std::filesystem::create_symlink(folder.path / "a", folder.path / "b");
  EXPECT_EQ(existsError(folder.path / "a"),
            (folder.path / "a").string() + ":1:1: cannot read: a loop of symbolic links");
  std::filesystem::create_symlink(folder.path / "gone.toml", folder.path / "dangling.toml");
  EXPECT_EQ(existsError(folder.path / "dangling.toml"),
            (folder.path / "dangling.toml").string() +
                ":1:1: cannot read: a symbolic link to a file that does not exist");
}
