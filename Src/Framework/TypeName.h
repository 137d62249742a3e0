#pragma once
// The unqualified name of a type, computed by the compiler: representations and modules need no name macro.
#include <string_view>

namespace nao
{
template<class T>
constexpr std::string_view typeName()
{
  std::string_view pretty = __PRETTY_FUNCTION__; // "... typeName() [with T = nao::JointRequest; ...]"
  const auto start = pretty.find("T = ") + 4;
  const auto end = pretty.find_first_of(";]", start);
  std::string_view qualified = pretty.substr(start, end - start);
  // Drop namespaces, but not inside template arguments.
  const auto angle = qualified.find('<');
  const auto colon = qualified.substr(0, angle).rfind("::");
  return colon == std::string_view::npos ? qualified : qualified.substr(colon + 2);
}
} // namespace nao
