// Must NOT compile: an enum without enumNames() cannot be written to TOML. CTest checks that the compiler
// says so with the static_assert of TypeTraits.h (StreamsEnumWithoutNamesIsACompileError).

#include "Tools/Streams/TomlFiles.h"

namespace
{
enum class Color
{
  red,
  green
};

struct Paint
{
  Color color = Color::red;
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(color);
  }
};
} // namespace

int main()
{
  Paint paint;
  nao::streams::loadFromTable(toml::table{}, paint);
}
