#include "Framework/Client/LogDecoder.h"

namespace nao
{
LogDecoder::LogDecoder(const std::filesystem::path& path) : reader_(path)
{
  registerFrameworkRepresentations();
  const auto& registry = RepresentationRegistry::instance();
  for (const auto& entry : reader_.typeTable().entries)
  {
    const int id = registry.find(entry.name);
    if (id < 0)
      undecodable_[entry.name] = "not a representation of this binary";
    else if (registry.info(static_cast<RepresentationId>(id)).schema != entry.schema)
      undecodable_[entry.name] = "its fields changed since the log was written (log: " + entry.schema + ")";
    else
      decodable_[entry.id] = static_cast<RepresentationId>(id);
  }
}

bool LogDecoder::next(std::uint32_t& frameNumber, std::vector<DecodedRecord>& records)
{
  records.clear();
  if (!reader_.readNextFrame(frame_)) return false;
  const auto& registry = RepresentationRegistry::instance();
  const binaryio::FrameView view = frame_.view();
  frameNumber = view.frameNumber();
  for (const binaryio::FrameRecord& record : view)
  {
    const binaryio::TypeEntry* entry = reader_.typeTable().find(record.typeId);
    DecodedRecord decoded;
    decoded.name = entry ? entry->name : "type " + std::to_string(record.typeId);
    if (auto id = decodable_.find(record.typeId); id != decodable_.end())
    {
      decoded.object = registry.create(id->second);
      try
      {
        registry.info(id->second).loadBinary(record.bytes, decoded.object.get());
      }
      catch (const std::exception& error)
      {
        decoded.object.reset();
        decoded.error = error.what();
      }
    }
    else
      decoded.error = entry ? undecodable_[entry->name] : "not in the type table";
    records.push_back(std::move(decoded));
  }
  return true;
}
} // namespace nao
