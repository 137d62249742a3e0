#pragma once

// Type classification shared by every archive of this folder: which C++ types become TOML values,
// arrays, name-keyed tables or nested tables.

#include <array>
#include <concepts>
#include <cstddef>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/serialization/array_wrapper.hpp>
#include <boost/serialization/nvp.hpp>

namespace nao::streams
{
template<class T>
class Field;

template<class T>
inline constexpr bool dependentFalse = false;

template<class T>
struct IsNvpType : std::false_type
{
};
template<class T>
struct IsNvpType<boost::serialization::nvp<T>> : std::true_type
{
};
/// boost::serialization::nvp, as made by BOOST_SERIALIZATION_NVP and make_nvp.
template<class T>
concept NvpItem = IsNvpType<std::remove_cv_t<T>>::value;

template<class T>
struct IsFieldType : std::false_type
{
};
template<class T>
struct IsFieldType<Field<T>> : std::true_type
{
};
/// nao::streams::Field, a named value with file unit and range.
template<class T>
concept FieldItem = IsFieldType<std::remove_cv_t<T>>::value;

/// An enum whose names ADL finds: enumNames(E), indexed by value, as NAO_ENUM (Enum.h) declares it.
template<class E>
concept NamedEnum = std::is_enum_v<E> && requires(E e)
{
  {
    enumNames(e)
    } -> std::convertible_to<std::span<const std::string_view>>;
};

template<class A>
concept HasSizeFunction = requires(const A& a)
{
  {
    a.size()
    } -> std::convertible_to<std::size_t>;
};
template<class A>
concept HasSizeConstant = requires
{
  {
    A::size
    } -> std::convertible_to<std::size_t>;
};

/// An array indexed by position whose positions have names (e.g. one value per joint); written as a
/// TOML table keyed by those names.
template<class A>
concept NamedArray = std::is_class_v<A> &&
    (HasSizeFunction<A> || HasSizeConstant<A>)&&requires(A& a, std::size_t i)
{
  a[i];
  A::names();
  requires std::ranges::random_access_range<decltype(A::names())>;
  requires std::convertible_to<std::ranges::range_reference_t<decltype(A::names())>, std::string_view>;
};

template<NamedArray A>
std::size_t namedArraySize(const A& array)
{
  if constexpr (HasSizeFunction<A>)
    return array.size();
  else
    return A::size;
}

template<class T>
struct IsStdArrayType : std::false_type
{
};
template<class T, std::size_t N>
struct IsStdArrayType<std::array<T, N>> : std::true_type
{
};
template<class T>
concept StdArray = IsStdArrayType<T>::value;

template<class T>
struct IsStdVectorType : std::false_type
{
};
template<class T, class Allocator>
struct IsStdVectorType<std::vector<T, Allocator>> : std::true_type
{
};
template<class T>
concept StdVector = IsStdVectorType<T>::value;

template<class T>
struct IsArrayWrapperType : std::false_type
{
};
template<class T>
struct IsArrayWrapperType<boost::serialization::array_wrapper<T>> : std::true_type
{
  using element_type = T;
};
/// boost::serialization::make_array(pointer, count), e.g. inside an Eigen matrix's serialize(): an array of
/// exactly count elements.
template<class T>
concept ArrayWrapper = IsArrayWrapperType<std::remove_cv_t<T>>::value;

/// Written as a single TOML value (no table, no array).
template<class T>
concept LeafValue = std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, std::string>;

/// Written as a TOML table through its own serialize(): everything that is neither leaf nor container.
template<class T>
concept SerializableStruct = std::is_class_v<T> && !LeafValue<T> && !NamedArray<T> && !StdArray<T> &&
                             !StdVector<T> && !ArrayWrapper<T> && !NvpItem<T> && !FieldItem<T>;

/// Element count of std::array, std::vector and make_array wrappers.
template<class T>
std::size_t elementCount(const T& array)
{
  if constexpr (ArrayWrapper<T>)
    return array.count();
  else
    return array.size();
}

/// Element access of std::array, std::vector and make_array wrappers.
template<class T>
decltype(auto) elementAt(T& array, std::size_t index)
{
  if constexpr (ArrayWrapper<T>)
    return array.address()[index];
  else
    return array[index];
}

template<class T>
struct ScalarOfType
{
  using type = T;
};
template<class T>
requires StdArray<T> || StdVector<T>
struct ScalarOfType<T>
{
  using type = typename ScalarOfType<std::remove_cv_t<typename T::value_type>>::type;
};
template<ArrayWrapper T>
struct ScalarOfType<T>
{
  using type = typename ScalarOfType<std::remove_cv_t<typename IsArrayWrapperType<T>::element_type>>::type;
};
template<NamedArray T>
struct ScalarOfType<T>
{
  using type = typename ScalarOfType<std::remove_cvref_t<decltype(std::declval<T&>()[std::size_t{}])>>::type;
};
/// The leaf type inside (possibly nested) arrays: double for std::vector<std::array<double, 3>>.
template<class T>
using ScalarOf = typename ScalarOfType<std::remove_cv_t<T>>::type;

/// Names as the file and the field list spell the C++ type of a leaf: "double", "uint8", "bool", ...
template<class T>
std::string_view scalarTypeName()
{
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, long double>)
    return "long double";
  else if constexpr (std::is_same_v<T, std::string>)
    return "string";
  else if constexpr (std::is_integral_v<T>)
  {
    constexpr std::array<std::string_view, 4> signedNames{"int8", "int16", "int32", "int64"};
    constexpr std::array<std::string_view, 4> unsignedNames{"uint8", "uint16", "uint32", "uint64"};
    constexpr std::size_t index = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
    return std::is_signed_v<T> ? signedNames[index] : unsignedNames[index];
  }
  else
    static_assert(dependentFalse<T>, "scalarTypeName: not a scalar type");
}

/// Every name of an enum, checked at compile time to exist.
template<class E>
std::span<const std::string_view> namesOfEnum()
{
  if constexpr (NamedEnum<E>)
    return enumNames(E{});
  else
  {
    static_assert(
        NamedEnum<E>,
        "This enum has no names: declare it with NAO_ENUM (Tools/Streams/Enum.h); the enum type is named in "
        "`[with E = ...]` above");
    return {};
  }
}
} // namespace nao::streams
