#include "Util/StiffnessTool/JsonWriter.h"

#include <cmath>
#include <cstdio>

namespace nao::stiffness::tool
{
void JsonWriter::separate()
{
  if (afterKey_)
  {
    afterKey_ = false;
    return;
  }
  if (!first_.empty())
  {
    if (!first_.back()) out_ << ",";
    first_.back() = false;
  }
}

void JsonWriter::open(char bracket)
{
  separate();
  out_ << bracket;
  first_.push_back(true);
}

void JsonWriter::close(char bracket)
{
  first_.pop_back();
  out_ << bracket;
  if (first_.empty()) out_ << "\n";
}

void JsonWriter::key(std::string_view name)
{
  value(name);
  out_ << ":";
  afterKey_ = true;
}

void JsonWriter::value(double number)
{
  separate();
  if (!std::isfinite(number))
  {
    out_ << "null";
    return;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", number);
  out_ << text;
}

void JsonWriter::value(int number)
{
  separate();
  out_ << number;
}

void JsonWriter::value(std::string_view text)
{
  separate();
  out_ << '"';
  for (const char c : text)
  {
    switch (c)
    {
    case '"':
      out_ << "\\\"";
      break;
    case '\\':
      out_ << "\\\\";
      break;
    case '\n':
      out_ << "\\n";
      break;
    case '\t':
      out_ << "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20)
      {
        char escaped[8];
        std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
        out_ << escaped;
      }
      else
        out_ << c;
    }
  }
  out_ << '"';
}

void JsonWriter::value(const Eigen::Ref<const Eigen::VectorXd>& numbers)
{
  beginArray();
  for (const double number : numbers)
    value(number);
  endArray();
}

void JsonWriter::value(const std::vector<std::string>& texts)
{
  beginArray();
  for (const std::string& text : texts)
    value(std::string_view(text));
  endArray();
}
} // namespace nao::stiffness::tool
