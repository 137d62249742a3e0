#include "Util/DebugGui/SeriesStore.h"
#include "Framework/Client/LogDecoder.h"
#include "Representations/Infrastructure/FrameInfo.h"

namespace nao::gui
{
void SeriesStore::setFields(const std::string& representation, std::vector<FieldDescription> fields)
{
  fields_[representation] = std::move(fields);
}

const FieldDescription* SeriesStore::field(const std::string& name) const
{
  const auto dot = name.find('.');
  if (dot == std::string::npos) return nullptr;
  const auto found = fields_.find(name.substr(0, dot));
  if (found == fields_.end()) return nullptr;
  const std::string leaf = name.substr(dot + 1);
  for (const FieldDescription& field : found->second)
    if (field.path == leaf) return &field;
  return nullptr;
}

void SeriesStore::add(const Sample& sample)
{
  const auto known = fields_.find(sample.representation);
  std::size_t index = 0;
  for (const auto& [leaf, text] : sample.values)
  {
    const std::string name = sample.representation + "." + leaf;
    latest_[name] = text;
    // The field list and the values come in the same order; look the type up by position, by path otherwise.
    std::string type;
    if (known != fields_.end())
    {
      if (index < known->second.size() && known->second[index].path == leaf)
        type = known->second[index].type;
      else
        for (const FieldDescription& field : known->second)
          if (field.path == leaf) type = field.type;
    }
    ++index;
    const auto number = numericValue(text, type);
    if (!number) continue;
    Series& series = series_[name];
    if (series.time.size() >= capacity_)
    {
      const auto cut = static_cast<std::ptrdiff_t>(std::max<std::size_t>(capacity_ / 10, 1));
      series.time.erase(series.time.begin(), series.time.begin() + cut);
      series.value.erase(series.value.begin(), series.value.begin() + cut);
      series.frame.erase(series.frame.begin(), series.frame.begin() + cut);
    }
    series.time.push_back(sample.time);
    series.value.push_back(*number);
    series.frame.push_back(sample.frameNumber);
  }
  ++version_;
}

void SeriesStore::setLatest(const Sample& sample)
{
  for (const auto& [leaf, text] : sample.values)
    latest_[sample.representation + "." + leaf] = text;
  ++version_; // views of the latest values (the 3D view) redraw
}

const Series& SeriesStore::series(const std::string& name) const
{
  static const Series empty;
  const auto found = series_.find(name);
  return found == series_.end() ? empty : found->second;
}

std::string SeriesStore::latest(const std::string& name) const
{
  const auto found = latest_.find(name);
  return found == latest_.end() ? std::string() : found->second;
}

void SeriesStore::clear()
{
  series_.clear();
  latest_.clear();
  ++version_;
}

LoadedLog loadLog(const std::filesystem::path& path)
{
  LoadedLog log;
  try
  {
    LogDecoder decoder(path);
    for (const auto& [name, reason] : decoder.undecodable())
      log.warnings.push_back(name + ": " + reason);
    const auto& registry = RepresentationRegistry::instance();
    std::vector<DecodedRecord> records;
    std::uint32_t frameNumber = 0;
    while (decoder.next(frameNumber, records))
    {
      LoadedLog::Frame frame;
      frame.number = frameNumber;
      if (const FrameInfo* info = recordOf<FrameInfo>(records)) frame.time = info->time;
      for (const DecodedRecord& record : records)
      {
        if (!record.object) continue;
        const int id = registry.find(record.name);
        frame.samples.push_back(
            {record.name, frameNumber, 0, 0,
             registry.info(static_cast<RepresentationId>(id)).values(record.object.get())});
      }
      for (Sample& sample : frame.samples)
        sample.time = frame.time;
      log.frames.push_back(std::move(frame));
    }
    for (const std::string& warning : decoder.reader().warnings())
      log.warnings.push_back(warning);
    log.metadata = LogMetadata::fromAnnotations(decoder.reader().annotations());
    for (const std::string& error : log.metadata.errors)
      log.warnings.push_back(error);
  }
  catch (const std::exception& error)
  {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
  return log;
}
} // namespace nao::gui
