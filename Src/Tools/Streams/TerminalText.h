#pragma once
// Text a robot sent, made safe for a terminal: a hostile or broken robot must not clear the screen, retitle the
// window or fake a prompt through a reply, a name or a value. Control characters other than newline and tab (C0,
// DEL and the C1 range as UTF-8) are written as \xNN; everything else is kept.
#include <string>
#include <string_view>

namespace nao
{
inline std::string terminalSafe(std::string_view text)
{
  static constexpr char hex[] = "0123456789abcdef";
  std::string result;
  result.reserve(text.size());
  const auto escape = [&](unsigned char byte)
  {
    result += "\\x";
    result += hex[byte >> 4];
    result += hex[byte & 0xF];
  };
  for (std::size_t i = 0; i < text.size(); ++i)
  {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7F)
      escape(byte);
    else if (byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
             static_cast<unsigned char>(text[i + 1]) <= 0x9F)
    {
      escape(byte); // a C1 control character (e.g. CSI, U+009B) encoded as UTF-8
      escape(static_cast<unsigned char>(text[++i]));
    }
    else
      result += text[i];
  }
  return result;
}
} // namespace nao
