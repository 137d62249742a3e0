#pragma once
// The type-erased operations of a representation. Those of Src/Representations are instantiated once, in
// RepresentationInstances.cpp; any other type's where it is first mentioned.
#include "Tools/BinaryIO/BoundedArchive.h"
#include "Tools/Streams/FieldListArchive.h"
#include "Tools/Streams/FlatValuesArchive.h"

namespace nao
{
/// The leaves of T (a representation or a parameter struct) as the debug channel and tools show them.
template<class T>
std::vector<FieldDescription> describeForTools()
{
  std::vector<FieldDescription> fields;
  for (const auto& field : streams::describeFields(T{}))
    fields.push_back({field.path, field.type, std::string(streams::unitSymbol(field.unit)), field.min,
                      field.max, field.doc});
  return fields;
}

template<class T>
RepresentationInfo makeRepresentationInfo()
{
  static_assert(Representation<T>,
                "makeRepresentationInfo<T>: T is not a Representation (Framework/Representation.h)");
  RepresentationInfo info;
  info.name = std::string(typeName<T>());
  info.size = sizeof(T);
  info.create = []() -> void* { return new T(); };
  info.destroy = [](void* object) { delete static_cast<T*>(object); };
  info.copy = [](void* destination, const void* source)
  { *static_cast<T*>(destination) = *static_cast<const T*>(source); };
  info.saveBinary = [](const void* object, std::vector<char>& out)
  { binaryio::serializeAppend(out, *static_cast<const T*>(object)); };
  info.loadBinary = [](std::span<const char> bytes, void* object)
  { binaryio::deserialize(bytes, *static_cast<T*>(object)); };
  info.describe = [] { return describeForTools<T>(); };
  info.values = [](const void* object) { return streams::flattenValues(*static_cast<const T*>(object)); };
  if constexpr (requires { typename PassThroughFrom<T>::type; })
  {
    using Input = typename PassThroughFrom<T>::type;
    static_assert(std::is_assignable_v<T&, const Input&>,
                  "PassThroughFrom<T>: T must be assignable from its input (e.g. `using Base::operator=;`)");
    info.passThroughFrom = representationId<Input>();
    info.passThroughCopy = [](void* destination, const void* input)
    { *static_cast<T*>(destination) = *static_cast<const Input*>(input); };
  }
  info.fields = info.describe();
  for (const auto& field : info.fields)
    info.schema += field.path + ":" + field.type + (field.unit.empty() ? "" : "[" + field.unit + "]") + ";";
  return info;
}
} // namespace nao
