#pragma once

// Internal: a saving-like archive that walks an object down to its leaves (bool, numbers, strings, enums),
// naming each by its key path ("walk.maxSpeed", "angles[3]", "thresholds.LKneePitch"). Derived classes
// receive every leaf through leaf(path, value, spec).

#include <string>
#include <type_traits>
#include <vector>

#include "Tools/Streams/ArchiveText.h"
#include "Tools/Streams/Field.h"
#include "Tools/Streams/SavingArchive.h"
#include "Tools/Streams/SourceLocation.h"
#include "Tools/Streams/TypeTraits.h"

namespace nao::streams::detail
{
template<class Derived>
class LeafWalker : public SavingArchive<Derived>
{
protected:
  template<class T>
  void walkRoot(const T& object)
  {
    walkValue(object, "", ValueSpec{});
  }

private:
  friend class SavingArchive<Derived>;

  /// A named item of a serialize(): the value at its key below the current struct's path.
  template<class T>
  void member(const char* name, const T& value, const ValueSpec& spec)
  {
    walkValue(value, joinKey(paths_.back(), name), spec);
  }

  template<class T>
  void walkValue(const T& value, const std::string& path, const ValueSpec& spec)
  {
    if constexpr (LeafValue<T>)
      static_cast<Derived&>(*this).leaf(path, value, spec);
    else if constexpr (NamedArray<T>)
    {
      const std::vector<std::string_view> names = namedArrayNames<T>();
      for (std::size_t index = 0; index < names.size() && index < namedArraySize(value); ++index)
        walkValue(value[index], joinKey(path, names[index]), spec);
    }
    else if constexpr (StdArray<T> || StdVector<T> || ArrayWrapper<T>)
    {
      for (std::size_t index = 0; index < elementCount(value); ++index)
      {
        const auto& element = elementAt(value, index); // binds a bool for std::vector<bool>
        walkValue(element, joinIndex(path, index), spec);
      }
    }
    else
    {
      paths_.push_back(path);
      this->serializeStruct(value);
      paths_.pop_back();
    }
  }

  std::vector<std::string> paths_;
};
} // namespace nao::streams::detail
