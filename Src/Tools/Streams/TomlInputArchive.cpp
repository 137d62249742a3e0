#include "Tools/Streams/TomlInputArchive.h"

#include <stdexcept>

namespace nao::streams
{
void TomlInputArchive::reportOutOfRange(const detail::Location& location, const std::string& path,
                                        const ValueSpec& spec, double fileValue)
{
  report(location, path,
         "expected value in " + detail::rangeText(spec) + ", got " + detail::withUnit(fileValue, spec.unit));
}

void TomlInputArchive::report(const detail::Location& location, const std::string& path, std::string message)
{
  issues_.push_back(detail::makeIssue(location, path, std::move(message)));
}

void TomlInputArchive::checkNamedArraySize(std::size_t nameCount, std::size_t size, const std::string& path)
{
  if (nameCount != size)
    throw std::logic_error("named array '" + path + "': names() has " + std::to_string(nameCount) +
                           " names for " + std::to_string(size) + " elements");
}
} // namespace nao::streams
