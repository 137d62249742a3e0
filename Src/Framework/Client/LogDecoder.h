#pragma once
// Decodes a log's frames into representation objects by name, through the log's own type table: a type whose
// schema in the log differs from this binary's is reported and left undecoded rather than misread.
#include "Framework/Representation.h"
#include "Framework/TypeName.h"
#include "Tools/BinaryIO/LogFormat.h"
#include <map>

namespace nao
{
struct DecodedRecord
{
  std::string name;
  RepresentationObject object; ///< null when the type could not be decoded
  std::string error;           ///< why not
};

/// T's decoded record among one frame's records (by T's name), or nullptr if the frame lacks it.
template<class T>
const T* recordOf(const std::vector<DecodedRecord>& records)
{
  for (const DecodedRecord& record : records)
    if (record.object && record.name == typeName<T>()) return static_cast<const T*>(record.object.get());
  return nullptr;
}

class LogDecoder
{
public:
  explicit LogDecoder(const std::filesystem::path& path);

  binaryio::LogReader& reader() { return reader_; }
  /// Types of the log this binary cannot decode (unknown name or different schema), with the reason.
  const std::map<std::string, std::string>& undecodable() const { return undecodable_; }
  /// The next frame's records; false at the end of the log.
  bool next(std::uint32_t& frameNumber, std::vector<DecodedRecord>& records);

private:
  binaryio::LogReader reader_;
  std::map<std::uint16_t, RepresentationId> decodable_; ///< log type id -> this binary's id
  std::map<std::string, std::string> undecodable_;
  binaryio::LogFrame frame_;
};
} // namespace nao
