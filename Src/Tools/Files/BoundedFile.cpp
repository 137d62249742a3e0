#include "Tools/Files/BoundedFile.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nao::files
{
namespace
{
[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why)
{
  throw FileError(path.string() + ":1:1: cannot read: " + why);
}

std::string describeOpenError(int error)
{
  if (error == ENOENT) return "no such file";
  if (error == ELOOP) return "a loop of symbolic links";
  if (error == EACCES) return "permission denied";
  return std::strerror(error);
}

std::string describeType(mode_t mode)
{
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}
} // namespace

std::string readBoundedFile(const std::filesystem::path& path, std::uintmax_t maxBytes)
{
  // O_NONBLOCK: opening a FIFO without a writer must not block; the type is checked on the open descriptor, so
  // the file cannot be swapped between the check and the read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
  {
    fail(path, describeOpenError(errno));
  }
  struct stat status
  {
  };
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))
  {
    const std::string what = describeType(status.st_mode);
    ::close(fd);
    fail(path, "it is " + what + ", not a regular file");
  }
  if (static_cast<std::uintmax_t>(status.st_size) > maxBytes)
  {
    ::close(fd);
    fail(path, "larger than " + std::to_string(maxBytes) + " bytes");
  }
  std::string text(static_cast<std::size_t>(status.st_size), '\0');
  std::size_t done = 0;
  while (done < text.size())
  {
    const ssize_t got = ::read(fd, text.data() + done, text.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
    {
      const int error = errno;
      ::close(fd);
      if (got == 0) break; // shrank meanwhile: what is there
      fail(path, std::strerror(error));
    }
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  ::close(fd);
  return text;
}

bool fileExists(const std::filesystem::path& path)
{
  struct stat status
  {
  };
  if (::stat(path.c_str(), &status) == 0) return true;
  const int error = errno;
  if (error == ENOENT || error == ENOTDIR)
  {
    if (::lstat(path.c_str(), &status) == 0) fail(path, "a symbolic link to a file that does not exist");
    return false;
  }
  if (error == EACCES) fail(path, "permission denied (a folder on the way may not be searched)");
  fail(path, describeOpenError(error));
}
} // namespace nao::files
