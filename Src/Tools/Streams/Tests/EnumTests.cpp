// NAO_ENUM: the names come from the enumerators' own spelling, in order, whatever the comments and commas around them,
// as one constexpr array (constant expressions, template arguments) that enumNames(E) also returns.
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/TypeTraits.h"
#include <cstdint>
#include <gtest/gtest.h>
#include <string_view>

namespace nao::test
{
NAO_ENUM(Commented, std::uint8_t,
         first,  ///< a comment, with commas, and = signs
         second, // a plain comment
         /* a block comment */ third_one,
         Fourth4 ///< the last, without a comma
);
NAO_ENUM(TrailingComma, int, only, );
} // namespace nao::test

TEST(NamedEnum, NamesAreTheEnumeratorsInOrder)
{
  using nao::test::Commented;
  const auto names = nao::streams::namesOfEnum<Commented>();
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[static_cast<std::size_t>(Commented::first)], "first");
  EXPECT_EQ(names[static_cast<std::size_t>(Commented::second)], "second");
  EXPECT_EQ(names[static_cast<std::size_t>(Commented::third_one)], "third_one");
  EXPECT_EQ(names[static_cast<std::size_t>(Commented::Fourth4)], "Fourth4");
  static_assert(std::is_same_v<std::underlying_type_t<Commented>, std::uint8_t>);
}

TEST(NamedEnum, ATrailingCommaAddsNoName)
{
  const auto names = nao::streams::namesOfEnum<nao::test::TrailingComma>();
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(names[0], "only");
}

namespace
{
/// Takes the names as a template argument, as a table keyed by an enum's names may.
template<const auto& Names>
constexpr std::string_view secondName()
{
  return Names[1];
}
} // namespace

TEST(NamedEnum, NamesAreOneConstexprArrayForConstantExpressionsAndTemplateArguments)
{
  using nao::test::Commented;
  using namespace nao::streams;
  static_assert(enumCount<Commented> == 4);
  static_assert(enumNamesOf<Commented>[3] == "Fourth4");
  static_assert(enumName(Commented::third_one) == "third_one");
  static_assert(secondName<enumNamesOf<Commented>>() == "second");
  static_assert(&enumNames(Commented{}) == &enumNamesOf<Commented>, "enumNames(E) is the same array");
  EXPECT_EQ(namesOfEnum<Commented>().data(), enumNamesOf<Commented>.data());
}
