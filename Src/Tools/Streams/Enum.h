#pragma once
// An enum whose names the files, logs and tools use, written once:
//
//   NAO_ENUM(EnergySavingState, std::uint8_t,
//            off,       ///< not requested: offsets are 0
//            waiting,   ///< wait for the motion to settle
//            working);  ///< one round every adjustWaitTime
//
// declares `enum class EnergySavingState : std::uint8_t {off, waiting, working}` and its names, taken from the
// enumerators' own spelling at compile time, so that a name cannot disagree with its enumerator. The names are one
// constexpr array indexed by value, `streams::enumNamesOf<E>` (for constant expressions and template arguments),
// which `enumNames(E)` returns to generic code (found by ADL, as streams::namesOfEnum() asks for it);
// `streams::enumCount<E>` counts them and `streams::enumName(value)` names one value. Comments between the
// enumerators stay (the preprocessor removes them before the names are made). Enumerators take no explicit values:
// the names are indexed by value, from 0.
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

namespace nao::streams
{
/// A NAO_ENUM's names, indexed by value: one constexpr array per enum (`naoEnumSpelling` is the macro's, by ADL).
template<class E>
inline constexpr auto
    enumNamesOf = detail::splitEnumNames<detail::countEnumNames(naoEnumSpelling(E{}))>(naoEnumSpelling(E{}));

/// How many enumerators a NAO_ENUM has.
template<class E>
inline constexpr std::size_t enumCount = enumNamesOf<E>.size();

/// The name of one value of a NAO_ENUM.
template<class E>
constexpr std::string_view enumName(E value)
{
  return enumNamesOf<E>[static_cast<std::size_t>(value)];
}
} // namespace nao::streams

/// Declares `enum class Name : Underlying { enumerators }` and its names (see the top of Enum.h). Use in the
/// enum's namespace; ADL finds the names there.
#define NAO_ENUM(Name, Underlying, ...)                                                                      \
  enum class Name : Underlying                                                                               \
  {                                                                                                          \
    __VA_ARGS__                                                                                              \
  };                                                                                                         \
  static_assert(!::nao::streams::detail::hasExplicitValues(#__VA_ARGS__),                                    \
                "NAO_ENUM: enumerators take no explicit values (the names are indexed by value)");           \
  /* The enumerators as written, which ::nao::streams::enumNamesOf<Name> splits into the names. */           \
  constexpr std::string_view naoEnumSpelling(Name)                                                           \
  {                                                                                                          \
    return #__VA_ARGS__;                                                                                     \
  }                                                                                                          \
  constexpr const auto& enumNames(Name)                                                                      \
  {                                                                                                          \
    return ::nao::streams::enumNamesOf<Name>;                                                                \
  }
