#pragma once

// Describes every leaf of a parameter or representation struct: key path, type, file unit, range and doc.
// Used by the GUI's field list and by CSV headers. Vectors are described with the elements the given
// object has.

#include <limits>
#include <string>
#include <vector>

#include "Tools/Streams/LeafWalker.h"

namespace nao::streams
{
struct FieldInfo
{
  std::string path;       ///< "walk.maxSpeed", "angles[3]", "thresholds.LShoulderRoll"
  std::string type;       ///< "float", "double", "int32", "uint8", "bool", "string", "enum:stand|walk|kick"
  Unit unit = Unit::none; ///< unit in files and the GUI; code holds the SI counterpart
  double min = std::numeric_limits<double>::quiet_NaN(); ///< in file units; NaN when there is no range
  double max = std::numeric_limits<double>::quiet_NaN();
  std::string doc; ///< what it does, one line (Field::doc); an array's elements share their field's
};

class FieldListArchive : public detail::LeafWalker<FieldListArchive>
{
public:
  template<class T>
  void describe(const T& object)
  {
    fields_.clear();
    walkRoot(object);
  }

  const std::vector<FieldInfo>& fields() const { return fields_; }

  template<class T>
  void leaf(const std::string& path, const T& /*value*/, const ValueSpec& spec)
  {
    std::string type;
    if constexpr (std::is_enum_v<T>)
    {
      for (std::string_view name : namesOfEnum<T>())
        type += (type.empty() ? "enum:" : "|") + std::string(name);
    }
    else
      type = scalarTypeName<T>();
    fields_.push_back(FieldInfo{path, std::move(type), spec.unit, spec.min, spec.max, std::string(spec.doc)});
  }

private:
  std::vector<FieldInfo> fields_;
};

/// Every leaf of object, in serialize() order.
template<class T>
std::vector<FieldInfo> describeFields(const T& object)
{
  FieldListArchive archive;
  archive.describe(object);
  return archive.fields();
}
} // namespace nao::streams
