#include "JsonReader.h"

#include <cctype>
#include <charconv>
#include <stdexcept>

namespace nao::stiffness::tool::test
{
namespace
{
class Parser
{
public:
  explicit Parser(std::string_view text) : text_(text) {}

  JsonValue document()
  {
    JsonValue value = parseValue();
    skipSpace();
    if (position_ != text_.size()) fail("trailing characters");
    return value;
  }

private:
  [[noreturn]] void fail(const std::string& what) const
  {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(position_));
  }

  void skipSpace()
  {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_])))
      ++position_;
  }

  char peek()
  {
    skipSpace();
    if (position_ >= text_.size()) fail("unexpected end");
    return text_[position_];
  }

  void expect(char c)
  {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++position_;
  }

  bool literal(std::string_view word)
  {
    if (text_.substr(position_, word.size()) != word) return false;
    position_ += word.size();
    return true;
  }

  JsonValue parseValue()
  {
    const char c = peek();
    if (c == '{') return parseObject();
    if (c == '[') return parseArray();
    if (c == '"') return {parseString()};
    if (literal("true")) return {true};
    if (literal("false")) return {false};
    if (literal("null")) return {nullptr};
    return {parseNumber()};
  }

  JsonValue parseObject()
  {
    expect('{');
    JsonValue::Object object;
    if (peek() == '}')
    {
      ++position_;
      return {object};
    }
    while (true)
    {
      if (peek() != '"') fail("expected a key");
      std::string key = parseString();
      expect(':');
      if (!object.emplace(key, parseValue()).second) fail("duplicate key '" + key + "'");
      if (peek() == '}')
      {
        ++position_;
        return {object};
      }
      expect(',');
    }
  }

  JsonValue parseArray()
  {
    expect('[');
    JsonValue::Array array;
    if (peek() == ']')
    {
      ++position_;
      return {array};
    }
    while (true)
    {
      array.push_back(parseValue());
      if (peek() == ']')
      {
        ++position_;
        return {array};
      }
      expect(',');
    }
  }

  std::string parseString()
  {
    expect('"');
    std::string result;
    while (position_ < text_.size() && text_[position_] != '"')
    {
      char c = text_[position_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c == '\\')
      {
        if (position_ >= text_.size()) fail("unterminated escape");
        const char e = text_[position_++];
        const std::string_view simple = "\"\\/bfnrt", meaning = "\"\\/\b\f\n\r\t";
        const auto found = simple.find(e);
        if (found != std::string_view::npos)
          c = meaning[found];
        else if (e == 'u' && position_ + 4 <= text_.size())
        {
          c = static_cast<char>(std::stoi(std::string(text_.substr(position_, 4)), nullptr, 16));
          position_ += 4;
        }
        else
          fail("bad escape");
      }
      result += c;
    }
    expect('"');
    return result;
  }

  double parseNumber()
  {
    // JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    const std::size_t start = position_;
    if (position_ < text_.size() && text_[position_] == '-') ++position_;
    if (position_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[position_])))
      fail("expected a value");
    if (text_[position_] == '0' && position_ + 1 < text_.size() &&
        std::isdigit(static_cast<unsigned char>(text_[position_ + 1])))
      fail("leading zero");
    const char* begin = text_.data() + start;
    double value = 0.0;
    const auto [end, error] = std::from_chars(begin, text_.data() + text_.size(), value);
    if (error != std::errc()) fail("bad number");
    position_ = static_cast<std::size_t>(end - text_.data());
    return value;
  }

  std::string_view text_;
  std::size_t position_ = 0;
};
} // namespace

std::vector<double> JsonValue::numbers() const
{
  std::vector<double> result;
  for (const JsonValue& value : array())
    result.push_back(value.number());
  return result;
}

JsonValue parseJson(std::string_view text)
{
  return Parser(text).document();
}
} // namespace nao::stiffness::tool::test
