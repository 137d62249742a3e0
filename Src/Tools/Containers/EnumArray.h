#pragma once
// A value per enumerator, indexed by the enum (or by position): JointArray and LimbArray are this type. Its names
// are the enum's own (enumNames(E), found by argument-dependent lookup as NAO_ENUM declares it), so config files,
// logs and tools name the entries ("LKneePitch = 0.5", a TOML table keyed by the names). Serialized as its one
// member `values`, a std::array.
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>

namespace nao
{
template<class Enum, class T, std::size_t Size>
struct EnumArray
{
  static_assert(std::is_enum_v<Enum>, "EnumArray is indexed by an enum");

  std::array<T, Size> values{};

  constexpr T& operator[](Enum e) { return values[static_cast<std::size_t>(e)]; }
  constexpr const T& operator[](Enum e) const { return values[static_cast<std::size_t>(e)]; }
  constexpr T& operator[](std::size_t i) { return values[i]; }
  constexpr const T& operator[](std::size_t i) const { return values[i]; }
  static constexpr std::size_t size() { return Size; }
  /// The enumerators' names, indexed by value.
  static std::span<const std::string_view> names() { return enumNames(Enum{}); }
  constexpr auto begin() { return values.begin(); }
  constexpr auto end() { return values.end(); }
  constexpr auto begin() const { return values.begin(); }
  constexpr auto end() const { return values.end(); }
  constexpr void fill(const T& value) { values.fill(value); }
  bool operator==(const EnumArray&) const = default;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& boost::serialization::make_nvp("values", values);
  }
};
} // namespace nao
