#include "Framework/Representation.h"
#include "Tools/Streams/Field.h"
#include <stdexcept>

namespace nao
{
RepresentationRegistry& RepresentationRegistry::instance()
{
  static RepresentationRegistry registry;
  return registry;
}

RepresentationId RepresentationRegistry::add(RepresentationInfo (*make)())
{
  auto info = std::make_unique<RepresentationInfo>(make());
  for (const auto& existing : infos_)
    if (existing->name == info->name)
      throw std::logic_error("two representation types are both named '" + info->name +
                             "'; representation names must be unique across namespaces");
  if (infos_.size() >= 0xffff) throw std::logic_error("too many representation types");
  infos_.push_back(std::move(info));
  return static_cast<RepresentationId>(infos_.size() - 1);
}

int RepresentationRegistry::find(std::string_view name) const
{
  for (std::size_t i = 0; i < infos_.size(); ++i)
    if (infos_[i]->name == name) return static_cast<int>(i);
  return -1;
}

std::string FieldValue::label() const
{
  return streams::labelWithUnit(path, unit);
}

std::vector<FieldValue> fieldValues(const RepresentationInfo& info, const void* object)
{
  std::vector<FieldValue> result;
  std::size_t next = 0; // values and fields walk the same serialize(): usually the same order
  for (auto& [path, text] : info.values(object))
  {
    std::string unit;
    if (next < info.fields.size() && info.fields[next].path == path)
      unit = info.fields[next++].unit;
    else
      for (const FieldDescription& field : info.fields)
        if (field.path == path) unit = field.unit;
    result.push_back({std::move(path), std::move(unit), std::move(text)});
  }
  return result;
}

RepresentationObject RepresentationRegistry::create(RepresentationId id) const
{
  const RepresentationInfo& representation = info(id);
  return RepresentationObject(representation.create(), RepresentationDeleter{&representation});
}
} // namespace nao
