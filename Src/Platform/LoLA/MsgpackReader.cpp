#include "Platform/LoLA/MsgpackReader.h"
#include <bit>
#include <cstring>

namespace nao::lola_detail
{
std::string_view describe(TokenKind kind)
{
  switch (kind)
  {
  case TokenKind::nil:
    return "nil";
  case TokenKind::boolean:
    return "a boolean";
  case TokenKind::unsignedInt:
    return "an unsigned integer";
  case TokenKind::signedInt:
    return "a negative integer";
  case TokenKind::float32:
    return "a float32";
  case TokenKind::float64:
    return "a float64";
  case TokenKind::string:
    return "a string";
  case TokenKind::binary:
    return "a binary";
  case TokenKind::extension:
    return "an extension";
  case TokenKind::array:
    return "an array";
  case TokenKind::map:
    return "a map";
  case TokenKind::neverUsed:
    return "the unused byte 0xc1";
  }
  return "an unknown token";
}

std::uint64_t MsgpackReader::bigEndian(std::size_t count)
{
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < count; ++i)
    value = (value << 8) | bytes_[position_ + i];
  position_ += count;
  return value;
}

const std::uint8_t* MsgpackReader::payload(std::size_t length)
{
  if (!has(length)) return nullptr;
  const std::uint8_t* start = bytes_.data() + position_;
  position_ += length;
  return start;
}

bool MsgpackReader::readLength(TokenKind kind, std::size_t sizeBytes, Token& token)
{
  if (!has(1 + sizeBytes)) return false;
  ++position_;
  token.kind = kind;
  token.length = static_cast<std::uint32_t>(bigEndian(sizeBytes));
  return true;
}

void MsgpackReader::readFixed(std::uint8_t first, Token& token)
{
  if (first <= 0x7f)
  {
    token.kind = TokenKind::unsignedInt;
    token.unsignedValue = first;
  }
  else if (first >= 0xe0)
  {
    token.kind = TokenKind::signedInt;
    token.signedValue = static_cast<std::int8_t>(first);
  }
  else
  {
    token.kind = first <= 0x8f ? TokenKind::map : first <= 0x9f ? TokenKind::array : TokenKind::string;
    token.length = first & (first <= 0x9f ? 0x0fu : 0x1fu);
  }
  ++position_;
}

void MsgpackReader::readNilOrBoolean(std::uint8_t first, Token& token)
{
  if (first == 0xc0)
    token.kind = TokenKind::nil;
  else
  {
    token.kind = TokenKind::boolean;
    token.boolean = first == 0xc3;
  }
  ++position_;
}

bool MsgpackReader::readFloat(std::uint8_t first, Token& token)
{
  if (first == 0xca)
  {
    if (!has(5)) return false;
    ++position_;
    token.kind = TokenKind::float32;
    token.floatValue = std::bit_cast<float>(static_cast<std::uint32_t>(bigEndian(4)));
    return true;
  }
  if (!has(9)) return false;
  ++position_;
  token.kind = TokenKind::float64;
  token.floatValue = std::bit_cast<double>(bigEndian(8));
  return true;
}

bool MsgpackReader::readInteger(std::uint8_t first, Token& token)
{
  const bool isSigned = first >= 0xd0;
  const std::size_t size = std::size_t{1} << (first - (isSigned ? 0xd0 : 0xcc));
  if (!has(1 + size)) return false;
  ++position_;
  if (!isSigned)
  {
    token.kind = TokenKind::unsignedInt;
    token.unsignedValue = bigEndian(size);
    return true;
  }
  const std::uint64_t raw = bigEndian(size);
  // Sign-extend from `size` bytes.
  const unsigned unusedBits = static_cast<unsigned>(64 - 8 * size);
  token.signedValue = static_cast<std::int64_t>(raw << unusedBits) >> unusedBits;
  if (token.signedValue >= 0)
  {
    token.kind = TokenKind::unsignedInt;
    token.unsignedValue = static_cast<std::uint64_t>(token.signedValue);
  }
  else
    token.kind = TokenKind::signedInt;
  return true;
}

bool MsgpackReader::readExtension(std::uint8_t first, Token& token)
{
  if (first <= 0xc9) // ext 8, 16, 32: the length, then the extension's type byte
  {
    const std::size_t sizeBytes = std::size_t{1} << (first - 0xc7);
    if (!has(2 + sizeBytes) || !readLength(TokenKind::extension, sizeBytes, token)) return false;
    ++position_; // the extension's type byte
    return true;
  }
  if (!has(2)) return false; // fixext 1..16
  position_ += 2;            // type byte and the extension's type
  token.kind = TokenKind::extension;
  token.length = 1u << (first - 0xd4);
  return true;
}

bool MsgpackReader::readSizedHeader(std::uint8_t first, Token& token)
{
  if (first <= 0xc6) return readLength(TokenKind::binary, std::size_t{1} << (first - 0xc4), token);
  if (first <= 0xdb) return readLength(TokenKind::string, std::size_t{1} << (first - 0xd9), token);
  if (first <= 0xdd) return readLength(TokenKind::array, std::size_t{2} << (first - 0xdc), token);
  return readLength(TokenKind::map, std::size_t{2} << (first - 0xde), token);
}

ReadStatus MsgpackReader::next(Token& token)
{
  if (!has(1)) return ReadStatus::incomplete;
  const std::size_t start = position_;
  const std::uint8_t first = bytes_[position_];
  token = Token{};
  token.firstByte = first;
  if (first == 0xc1) return ReadStatus::invalid;

  bool complete = true;
  if (first <= 0xbf || first >= 0xe0)
    readFixed(first, token);
  else if (first == 0xc0 || first == 0xc2 || first == 0xc3)
    readNilOrBoolean(first, token);
  else if (first == 0xca || first == 0xcb)
    complete = readFloat(first, token);
  else if (first >= 0xcc && first <= 0xd3)
    complete = readInteger(first, token);
  else if ((first >= 0xc7 && first <= 0xc9) || (first >= 0xd4 && first <= 0xd8))
    complete = readExtension(first, token);
  else // 0xc4..0xc6, 0xd9..0xdf
    complete = readSizedHeader(first, token);
  if (!complete)
  {
    position_ = start;
    return ReadStatus::incomplete;
  }
  return ReadStatus::ok;
}
} // namespace nao::lola_detail
