#pragma once
// Test-only: a strict little JSON parser, to read the tool's --json output back (RFC 8259 values; numbers as
// double). Throws std::runtime_error with the offset of the first thing it cannot read.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace nao::stiffness::tool::test
{
struct JsonValue
{
  using Array = std::vector<JsonValue>;
  using Object = std::map<std::string, JsonValue>;
  std::variant<std::nullptr_t, bool, double, std::string, Array, Object> data;

  double number() const { return std::get<double>(data); }
  const std::string& text() const { return std::get<std::string>(data); }
  const Array& array() const { return std::get<Array>(data); }
  const Object& object() const { return std::get<Object>(data); }
  /// The member `name` of an object; throws std::out_of_range if absent.
  const JsonValue& operator[](const std::string& name) const { return object().at(name); }
  const JsonValue& operator[](std::size_t index) const { return array().at(index); }
  std::vector<double> numbers() const; ///< an array of numbers
};

JsonValue parseJson(std::string_view text);
} // namespace nao::stiffness::tool::test
