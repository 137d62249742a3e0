#pragma once

// Internal: a saving-like archive that walks an object down to its leaves (bool, numbers, strings, enums),
// naming each by its key path ("walk.maxSpeed", "angles[3]", "thresholds.LKneePitch"). Derived classes
// receive every leaf through leaf(path, value, spec).

#include <string>
#include <type_traits>
#include <vector>

#include <boost/mpl/bool.hpp>
#include <boost/serialization/serialization.hpp>
#include <boost/serialization/version.hpp>

#include "Tools/Streams/ArchiveText.h"
#include "Tools/Streams/Field.h"
#include "Tools/Streams/SourceLocation.h"
#include "Tools/Streams/TypeTraits.h"

namespace nao::streams::detail
{
template<class Derived>
class LeafWalker
{
public:
  using is_loading = boost::mpl::false_;
  using is_saving = boost::mpl::true_;

  template<class T>
  Derived& operator<<(const T& item)
  {
    walkItem(item);
    return static_cast<Derived&>(*this);
  }
  template<class T>
  Derived& operator&(const T& item)
  {
    walkItem(item);
    return static_cast<Derived&>(*this);
  }

protected:
  template<class T>
  void walkRoot(const T& object)
  {
    walkValue(object, "", ValueSpec{});
  }

private:
  template<class T>
  void walkItem(const T& item)
  {
    if constexpr (NvpItem<T>)
      walkValue(item.value(), joinKey(paths_.back(), item.name()), ValueSpec{});
    else if constexpr (FieldItem<T>)
      walkValue(item.value(), joinKey(paths_.back(), item.name()), item.spec());
    else if constexpr (SerializableStruct<T>)
      serializeStruct(item); // unnamed base object: its keys live in the same table
    else
      static_assert(dependentFalse<T>, "TOML needs a name for every value: use BOOST_SERIALIZATION_NVP, "
                                       "boost::serialization::make_nvp or nao::streams::field");
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
      serializeStruct(value);
      paths_.pop_back();
    }
  }

  template<class T>
  void serializeStruct(const T& value)
  {
    boost::serialization::serialize_adl(static_cast<Derived&>(*this), const_cast<T&>(value),
                                        boost::serialization::version<T>::value);
  }

  std::vector<std::string> paths_;
};
} // namespace nao::streams::detail
