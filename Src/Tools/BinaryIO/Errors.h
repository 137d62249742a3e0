#pragma once
// The two ways binary I/O fails: bytes that do not follow the format (corrupt, forged, truncated) and
// the operating system refusing a file operation. Callers that tolerate corruption catch FormatError only.

#include <stdexcept>
#include <string>

namespace nao::binaryio
{
/// Bytes that violate the format: a bad file header, a size field larger than the data behind it,
/// a payload that ends early. The message says where (file, offset or byte position) and what.
class FormatError : public std::runtime_error
{
public:
  explicit FormatError(const std::string& message) : std::runtime_error(message) {}
};

/// A file could not be opened, read or written; the message names the file and the system's reason.
class IoError : public std::runtime_error
{
public:
  explicit IoError(const std::string& message) : std::runtime_error(message) {}
};
} // namespace nao::binaryio
