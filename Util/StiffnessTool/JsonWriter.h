#pragma once
// A small streaming JSON writer for the tool's --json output (no dependency for a few lists of numbers).
// Numbers are written with 17 significant digits, so they read back exactly; non-finite numbers become null.
#include <Eigen/Core>
#include <ostream>
#include <string_view>
#include <vector>

namespace nao::stiffness::tool
{
class JsonWriter
{
public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  void endArray() { close(']'); }
  /// The key of the next value in an object.
  void key(std::string_view name);

  void value(double number);
  void value(int number);
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(const Eigen::Ref<const Eigen::VectorXd>& numbers); ///< as an array
  void value(const std::vector<std::string>& texts);            ///< as an array

private:
  void separate();
  void open(char bracket);
  void close(char bracket);

  std::ostream& out_;
  std::vector<bool> first_; ///< per open bracket: nothing written in it yet
  bool afterKey_ = false;
};
} // namespace nao::stiffness::tool
