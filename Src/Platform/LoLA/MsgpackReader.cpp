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

ReadStatus MsgpackReader::next(Token& token)
{
  if (!has(1)) return ReadStatus::incomplete;
  const std::size_t start = position_;
  const std::uint8_t first = bytes_[position_];
  token = Token{};
  token.firstByte = first;

  // Bytes after the type byte that hold the value or the length, by type byte; 0 for the fixed forms.
  auto readSized = [&](TokenKind kind, std::size_t sizeBytes)
  {
    if (!has(1 + sizeBytes)) return false;
    ++position_;
    token.kind = kind;
    token.length = static_cast<std::uint32_t>(bigEndian(sizeBytes));
    return true;
  };

  bool complete = true;
  if (first <= 0x7f)
  {
    token.kind = TokenKind::unsignedInt;
    token.unsignedValue = first;
    ++position_;
  }
  else if (first <= 0x8f || (first >= 0x90 && first <= 0x9f) || (first >= 0xa0 && first <= 0xbf))
  {
    token.kind = first <= 0x8f ? TokenKind::map : first <= 0x9f ? TokenKind::array : TokenKind::string;
    token.length = first & (first <= 0x9f ? 0x0fu : 0x1fu);
    ++position_;
  }
  else if (first >= 0xe0)
  {
    token.kind = TokenKind::signedInt;
    token.signedValue = static_cast<std::int8_t>(first);
    ++position_;
  }
  else
  {
    switch (first)
    {
    case 0xc0:
      token.kind = TokenKind::nil;
      ++position_;
      break;
    case 0xc1:
      return ReadStatus::invalid;
    case 0xc2:
    case 0xc3:
      token.kind = TokenKind::boolean;
      token.boolean = first == 0xc3;
      ++position_;
      break;
    case 0xc4:
    case 0xc5:
    case 0xc6:
      complete = readSized(TokenKind::binary, std::size_t{1} << (first - 0xc4));
      break;
    case 0xc7:
    case 0xc8:
    case 0xc9:
      complete = has(2 + (std::size_t{1} << (first - 0xc7))) &&
                 readSized(TokenKind::extension, std::size_t{1} << (first - 0xc7));
      if (complete) ++position_; // the extension's type byte
      break;
    case 0xca:
      complete = has(5);
      if (complete)
      {
        ++position_;
        token.kind = TokenKind::float32;
        token.floatValue = std::bit_cast<float>(static_cast<std::uint32_t>(bigEndian(4)));
      }
      break;
    case 0xcb:
      complete = has(9);
      if (complete)
      {
        ++position_;
        token.kind = TokenKind::float64;
        token.floatValue = std::bit_cast<double>(bigEndian(8));
      }
      break;
    case 0xcc:
    case 0xcd:
    case 0xce:
    case 0xcf:
    {
      const std::size_t size = std::size_t{1} << (first - 0xcc);
      complete = has(1 + size);
      if (complete)
      {
        ++position_;
        token.kind = TokenKind::unsignedInt;
        token.unsignedValue = bigEndian(size);
      }
      break;
    }
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3:
    {
      const std::size_t size = std::size_t{1} << (first - 0xd0);
      complete = has(1 + size);
      if (complete)
      {
        ++position_;
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
      }
      break;
    }
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8:
      complete = has(2);
      if (complete)
      {
        position_ += 2; // type byte and the extension's type
        token.kind = TokenKind::extension;
        token.length = 1u << (first - 0xd4);
      }
      break;
    case 0xd9:
    case 0xda:
    case 0xdb:
      complete = readSized(TokenKind::string, std::size_t{1} << (first - 0xd9));
      break;
    case 0xdc:
    case 0xdd:
      complete = readSized(TokenKind::array, std::size_t{2} << (first - 0xdc));
      break;
    case 0xde:
    case 0xdf:
      complete = readSized(TokenKind::map, std::size_t{2} << (first - 0xde));
      break;
    default:
      return ReadStatus::invalid; // unreachable: every byte value is handled above
    }
  }
  if (!complete)
  {
    position_ = start;
    return ReadStatus::incomplete;
  }
  return ReadStatus::ok;
}
} // namespace nao::lola_detail
