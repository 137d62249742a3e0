#pragma once
// Fills every leaf of a representation with a known value through its serialize() (a loading archive that reads
// from a counter instead of a file), so that a test can compare its serialized bytes with fixed reference bytes.
// Values differ from leaf to leaf and from the defaults: leaf n (in serialize() order) gets
//   numbers  ±(n + 1.5) / 8 (exact in float; the sign alternates: + for even n),
//   integers 1 + n % 100 (negative for odd n where signed),
//   bools    true for even n, false for odd n (neighbours differ, so a swap shows),
//   enums    value 1 + n % (count - 1) (never the first, usually the default),
//   strings  "s<n>".
#include "Tools/Streams/TypeTraits.h"

#include <boost/mpl/bool.hpp>
#include <boost/serialization/serialization.hpp>
#include <boost/serialization/version.hpp>
#include <cstddef>
#include <string>
#include <type_traits>

namespace nao::test
{
class KnownValueArchive
{
public:
  using is_loading = boost::mpl::true_;
  using is_saving = boost::mpl::false_;

  template<class T>
  void fill(T& object)
  {
    leaves_ = 0;
    fillValue(object);
  }
  /// How many leaves the last fill() set.
  std::size_t leaves() const { return leaves_; }

  template<class T>
  KnownValueArchive& operator>>(const T& item)
  {
    fillItem(item);
    return *this;
  }
  template<class T>
  KnownValueArchive& operator&(const T& item)
  {
    fillItem(item);
    return *this;
  }

private:
  template<class T>
  void fillItem(const T& item)
  {
    if constexpr (streams::NvpItem<T> || streams::FieldItem<T>)
      fillValue(item.value());
    else
      fillValue(const_cast<T&>(item)); // an unnamed base object (serialize() of a derived struct)
  }

  template<class T>
  void fillValue(T& value)
  {
    const std::size_t n = leaves_;
    if constexpr (std::is_same_v<T, bool>)
      value = n % 2 == 0, ++leaves_;
    else if constexpr (std::is_integral_v<T>)
    {
      value = static_cast<T>(1 + n % 100);
      if constexpr (std::is_signed_v<T>)
        if (n % 2) value = static_cast<T>(-value);
      ++leaves_;
    }
    else if constexpr (std::is_floating_point_v<T>)
      value = static_cast<T>((n % 2 ? -1.0 : 1.0) * (static_cast<double>(n) + 1.5) / 8.0), ++leaves_;
    else if constexpr (std::is_enum_v<T>)
    {
      const std::size_t count = streams::namesOfEnum<T>().size();
      value = static_cast<T>(count > 1 ? 1 + n % (count - 1) : 0);
      ++leaves_;
    }
    else if constexpr (std::is_same_v<T, std::string>)
      value = "s" + std::to_string(n), ++leaves_;
    else if constexpr (streams::NamedArray<T>)
      for (std::size_t index = 0; index < streams::namedArraySize(value); ++index)
        fillValue(value[index]);
    else if constexpr (streams::StdArray<T> || streams::ArrayWrapper<T>)
      for (std::size_t index = 0; index < streams::elementCount(value); ++index)
        fillValue(streams::elementAt(value, index));
    else if constexpr (streams::StdVector<T>)
      static_assert(streams::dependentFalse<T>, "give vectors a known size before filling them");
    else
      boost::serialization::serialize_adl(*this, value, boost::serialization::version<T>::value);
  }

  std::size_t leaves_ = 0;
};
} // namespace nao::test
