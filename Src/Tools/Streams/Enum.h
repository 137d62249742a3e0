#pragma once
// An enum whose names the files, logs and tools use, written once:
//
//   NAO_ENUM(EnergySavingState, std::uint8_t,
//            off,       ///< not requested: offsets are 0
//            waiting,   ///< wait for the motion to settle
//            working);  ///< one round every adjustWaitTime
//
// declares `enum class EnergySavingState : std::uint8_t {off, waiting, working}` and the names that
// streams::namesOfEnum() finds (`enumNames(E)`, by ADL, indexed by value), taken from the enumerators' own
// spelling at compile time, so that a name cannot disagree with its enumerator. Comments between the enumerators
// stay (the preprocessor removes them before the names are made). Enumerators take no explicit values: the names
// are indexed by value, from 0.
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace nao::streams::detail
{
constexpr bool isEnumNameCharacter(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// How many enumerators "a, b, c" (or "a, b, c,") names.
constexpr std::size_t countEnumNames(std::string_view list)
{
  std::size_t count = 0;
  bool inName = false;
  for (const char c : list)
  {
    if (isEnumNameCharacter(c) && !inName) ++count;
    inName = isEnumNameCharacter(c);
  }
  return count;
}

constexpr bool hasExplicitValues(std::string_view list)
{
  return list.find('=') != std::string_view::npos;
}

/// The enumerators of "a, b, c" as names.
template<std::size_t N>
constexpr std::array<std::string_view, N> splitEnumNames(std::string_view list)
{
  std::array<std::string_view, N> names{};
  std::size_t index = 0;
  for (std::size_t i = 0; i < list.size();)
  {
    if (!isEnumNameCharacter(list[i]))
    {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < list.size() && isEnumNameCharacter(list[end]))
      ++end;
    names[index++] = list.substr(i, end - i);
    i = end;
  }
  return names;
}
} // namespace nao::streams::detail

/// Declares `enum class Name : Underlying { enumerators }` and its names (see the top of Enum.h). Use in the
/// enum's namespace; ADL finds the names there.
#define NAO_ENUM(Name, Underlying, ...)                                                                      \
  enum class Name : Underlying                                                                               \
  {                                                                                                          \
    __VA_ARGS__                                                                                              \
  };                                                                                                         \
  static_assert(!::nao::streams::detail::hasExplicitValues(#__VA_ARGS__),                                    \
                "NAO_ENUM: enumerators take no explicit values (the names are indexed by value)");           \
  [[maybe_unused]] inline std::span<const std::string_view> enumNames(Name)                                  \
  {                                                                                                          \
    static constexpr auto names =                                                                            \
        ::nao::streams::detail::splitEnumNames<::nao::streams::detail::countEnumNames(#__VA_ARGS__)>(        \
            #__VA_ARGS__);                                                                                   \
    return names;                                                                                            \
  }
