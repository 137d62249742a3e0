#pragma once
// A bounded pull reader for MessagePack headers (internal to NaoLola). It never allocates and never reads
// past the span; lengths are reported before any payload is touched, so the caller rejects a huge array or
// string header from its schema before waiting for (or reading) its payload.
//
// Why not msgpack-cxx for decoding: msgpack::unpack builds objects in an allocating zone, and
// msgpack::v2::parse keeps its nesting stack in a std::vector that it reserves on every call. LoLA frames
// have one fixed shape (a map of string keys to arrays of scalars, depth 2), which this reader plus a schema
// table checks more precisely, with an error naming the key, and with "need more bytes" as a normal outcome
// for a stream.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace nao::lola_detail
{
enum class TokenKind : std::uint8_t
{
  nil,
  boolean,
  unsignedInt, ///< positive fixint, uint8..uint64
  signedInt,   ///< negative fixint, int8..int64
  float32,
  float64,
  string,    ///< header only: `length` bytes follow, read them with payload()
  binary,    ///< header only
  extension, ///< header only (`length` counts the data bytes, the type byte is skipped)
  array,     ///< header only: `length` elements follow
  map,       ///< header only: `length` key-value pairs follow
  neverUsed, ///< byte 0xc1
};
std::string_view describe(TokenKind kind);

struct Token
{
  TokenKind kind = TokenKind::nil;
  std::uint8_t firstByte = 0;
  bool boolean = false;
  std::uint64_t unsignedValue = 0;
  std::int64_t signedValue = 0;
  double floatValue = 0.0; ///< float32 and float64
  std::uint32_t length = 0;
};

enum class ReadStatus : std::uint8_t
{
  ok,
  incomplete, ///< the span ends inside the token
  invalid,    ///< byte 0xc1
};

class MsgpackReader
{
public:
  explicit MsgpackReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  /// Reads one token header. Strings, binaries and extensions leave their payload unread.
  ReadStatus next(Token& token);
  /// The next `length` bytes (a string's payload); nullptr if the span ends first (then nothing is consumed).
  const std::uint8_t* payload(std::size_t length);
  std::size_t position() const { return position_; }

private:
  bool has(std::size_t count) const { return bytes_.size() - position_ >= count; }
  std::uint64_t bigEndian(std::size_t count); // requires has(count)

  // next() by value kind, after the type byte `first`; those returning bool return false, having consumed nothing
  // and set nothing, where the span ends inside the token.
  /// A `kind` header whose length follows the type byte in `sizeBytes` big-endian bytes.
  bool readLength(TokenKind kind, std::size_t sizeBytes, Token& token);
  /// Positive and negative fixint, fixmap, fixarray, fixstr: the type byte holds the value or the length.
  void readFixed(std::uint8_t first, Token& token);
  /// nil, false, true.
  void readNilOrBoolean(std::uint8_t first, Token& token);
  /// float32, float64.
  bool readFloat(std::uint8_t first, Token& token);
  /// uint8..uint64, and int8..int64 (a non-negative one as an unsigned integer).
  bool readInteger(std::uint8_t first, Token& token);
  /// ext 8..32 and fixext 1..16 headers, the extension's type byte skipped.
  bool readExtension(std::uint8_t first, Token& token);
  /// bin 8..32, str 8..32, array 16/32 and map 16/32 headers.
  bool readSizedHeader(std::uint8_t first, Token& token);

  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
};
} // namespace nao::lola_detail
