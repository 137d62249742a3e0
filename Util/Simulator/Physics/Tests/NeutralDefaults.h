#pragma once
// Whether a default-constructed struct holds any value of its own: the plant's values live only in Config/Sim
// (PlantValuesLiveOnlyInConfigSim). Walks the struct through its serialize(), as the TOML archives do.
#include "Tools/Streams/ArchiveText.h"
#include "Tools/Streams/NumberFormat.h"
#include "Tools/Streams/SavingArchive.h"
#include "Tools/Streams/SourceLocation.h"
#include "Tools/Streams/TypeTraits.h"

#include <string>
#include <type_traits>
#include <vector>

namespace nao::sim::test
{
/// Collects every leaf of a struct that is not neutral: a number or bool other than 0, a non-empty string or
/// vector. Enums are structural (a default must name one of their values) and are not checked. Of a vector of
/// structs it also walks one default-constructed element ("name[]"), so that elements read from a file are
/// checked although a default vector is empty.
class NeutralDefaultsArchive : public streams::detail::SavingArchive<NeutralDefaultsArchive>
{
public:
  /// "path = value" of each leaf that is not neutral; empty when every leaf is.
  template<class T>
  static std::vector<std::string> nonNeutralLeaves(const T& object)
  {
    NeutralDefaultsArchive archive;
    archive.walk(object, "");
    return archive.found_;
  }

private:
  friend class streams::detail::SavingArchive<NeutralDefaultsArchive>;

  template<class T>
  void member(const char* name, const T& value, const streams::ValueSpec&)
  {
    walk(value, streams::detail::joinKey(paths_.back(), name));
  }

  template<class T>
  void walk(const T& value, const std::string& path)
  {
    using namespace streams;
    if constexpr (std::is_enum_v<T>)
      return;
    else if constexpr (std::is_arithmetic_v<T>)
    {
      if (value != T{}) found_.push_back(path + " = " + formatShortest(static_cast<double>(value)));
    }
    else if constexpr (std::is_same_v<T, std::string>)
    {
      if (!value.empty()) found_.push_back(path + " = \"" + value + "\"");
    }
    else if constexpr (NamedArray<T>)
    {
      const std::vector<std::string_view> names = detail::namedArrayNames<T>();
      for (std::size_t index = 0; index < names.size() && index < namedArraySize(value); ++index)
        walk(value[index], detail::joinKey(path, names[index]));
    }
    else if constexpr (StdArray<T>)
    {
      for (std::size_t index = 0; index < value.size(); ++index)
        walk(value[index], detail::joinIndex(path, index));
    }
    else if constexpr (StdVector<T>)
    {
      if (!value.empty()) found_.push_back(path + " has " + std::to_string(value.size()) + " elements");
      if constexpr (!std::is_same_v<typename T::value_type, bool>)
        walk(typename T::value_type{}, path + "[]");
    }
    else
    {
      paths_.push_back(path);
      this->serializeStruct(value);
      paths_.pop_back();
    }
  }

  std::vector<std::string> paths_;
  std::vector<std::string> found_;
};
} // namespace nao::sim::test
