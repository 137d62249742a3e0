#pragma once
// The leaves of a field list as people read them: the elements of one array or named array ("angles.HeadYaw",
// "angles.HeadPitch", ...) share their field's doc, unit, type and range, and are shown as one entry ("angles").
// DebugClient's `get`, the GUI's parameter editor and ParameterTable's README tables use it.
#include "Framework/Representation.h"
#include <cmath>
#include <string>
#include <vector>

namespace nao
{
struct FieldGroup
{
  std::string name;                           ///< "angles" for the elements of angles, else the leaf's path
  const FieldDescription* first = nullptr;    ///< its first leaf (doc, unit, type and range of every element)
  std::size_t count = 1;                      ///< leaves in the group
  bool elements() const { return count > 1; } ///< an array's elements, not one leaf
  /// "angles.*" for elements, the path for one leaf.
  std::string pattern() const { return elements() ? name + ".*" : name; }
};

/// Consecutive leaves with one parent (the path up to its last '.' or '['), the same separator, doc, unit, type and
/// range form a group; every other leaf is a group of one. A struct's members differ in their docs, so they stay
/// apart.
inline std::vector<FieldGroup> groupFields(const std::vector<FieldDescription>& fields)
{
  auto sameNumber = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  std::vector<FieldGroup> groups;
  for (std::size_t i = 0; i < fields.size();)
  {
    const FieldDescription& field = fields[i];
    const std::size_t split = field.path.find_last_of(".[");
    std::size_t next = i + 1;
    if (split != std::string::npos)
    {
      while (next < fields.size())
      {
        const FieldDescription& other = fields[next];
        const bool sibling = other.path.size() > split &&
                             other.path.compare(0, split + 1, field.path, 0, split + 1) == 0 &&
                             other.path.find_first_of(".[", split + 1) == std::string::npos;
        if (!sibling || other.doc != field.doc || other.unit != field.unit || other.type != field.type ||
            !sameNumber(other.min, field.min) || !sameNumber(other.max, field.max))
          break;
        ++next;
      }
    }
    FieldGroup group;
    group.first = &field;
    group.count = next - i;
    group.name = group.count > 1 ? field.path.substr(0, split) : field.path;
    groups.push_back(std::move(group));
    i = next;
  }
  return groups;
}
} // namespace nao
