#pragma once
// Boost binary serialization into caller-owned byte buffers, and back out of untrusted bytes.
//
// Writing uses Boost's binary_oarchive without archive header and without codecvt: the bytes are exactly the
// fields, in the host's byte order and with the Boost version's layout ("portable enough" for logs written
// and read on the same kind of machine with the same Boost).
//
// Reading uses BoundedBinaryIArchive, derived from Boost's binary_iarchive_impl. Boost's own archive trusts
// every size field (a forged collection count makes std::vector::resize ask for gigabytes). This archive
// checks each size-carrying field against the bytes still unread BEFORE anything is allocated:
//   - collection sizes (std::vector, std::list, std::map, C arrays, ...): count * 1 byte <= remaining;
//   - std::vector of bitwise-serializable elements (float, int, ...): count * sizeof(element) <= remaining;
//   - std::vector, std::deque, std::list of other elements are filled by appending as elements decode,
//   instead
//     of Boost's resize(count) up front, so memory follows the bytes actually read;
//   - std::string / std::wstring lengths: length * sizeof(character) <= remaining;
//   - raw C strings (char*, wchar_t*) carry a length Boost writes into a buffer of unknown size: refused.
// Every read is served from a fixed span; reading past its end throws. All failures surface as
// nao::binaryio::FormatError.
//
// Limitations: a collection of elements that serialize to zero bytes (empty structs) cannot hold more
// elements than the payload has bytes left. Other containers Boost resizes up front (std::valarray of
// non-bytes) are bounded by one byte per element only: prefer std::vector and std::array in logged types.

#include "Tools/BinaryIO/Errors.h"

#include <boost/archive/archive_exception.hpp>
#include <boost/archive/binary_iarchive_impl.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/archive/detail/register_archive.hpp>
#include <boost/serialization/array_optimization.hpp>
#include <boost/serialization/array_wrapper.hpp>
#include <boost/serialization/collection_size_type.hpp>
#include <boost/serialization/is_bitwise_serializable.hpp>
#include <boost/serialization/item_version_type.hpp>
#include <boost/serialization/library_version_type.hpp>
#include <boost/serialization/nvp.hpp>
#include <boost/serialization/vector.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <span>
#include <streambuf>
#include <string>
#include <type_traits>
#include <vector>

namespace nao::binaryio
{
/// Serialized payloads above this size are refused before any parsing; log chunks use the same default.
inline constexpr std::size_t defaultMaxPayloadBytes = 16u * 1024u * 1024u;

struct DeserializeOptions
{
  std::size_t maxPayloadBytes = defaultMaxPayloadBytes; ///< payloads larger than this are a FormatError
  bool allowTrailingBytes = false; ///< false: bytes left after the object mean a type mismatch, FormatError
};

/// Read-only stream buffer over a fixed byte span: it never grows and reports end-of-data at the span's end.
class SpanStreambuf : public std::streambuf
{
public:
  explicit SpanStreambuf(std::span<const char> bytes);
  std::size_t remainingBytes() const { return static_cast<std::size_t>(egptr() - gptr()); }
  std::size_t consumedBytes() const { return static_cast<std::size_t>(gptr() - eback()); }
};

/// Write-only stream buffer that appends to a caller-owned vector (whose capacity the caller may reserve).
class VectorAppendStreambuf : public std::streambuf
{
public:
  explicit VectorAppendStreambuf(std::vector<char>& destination) : destination_(destination) {}

protected:
  std::streamsize xsputn(const char* bytes, std::streamsize count) override;
  int_type overflow(int_type character) override;

private:
  std::vector<char>& destination_;
};

/// Boost binary input archive whose size fields are bounded by the bytes left in its span (see file comment).
class BoundedBinaryIArchive
    : public boost::archive::binary_iarchive_impl<BoundedBinaryIArchive, char, std::char_traits<char>>
{
  using Base = boost::archive::binary_iarchive_impl<BoundedBinaryIArchive, char, std::char_traits<char>>;
  friend class boost::archive::detail::interface_iarchive<BoundedBinaryIArchive>;
  friend class boost::archive::basic_binary_iarchive<BoundedBinaryIArchive>;
  friend class boost::archive::basic_binary_iprimitive<BoundedBinaryIArchive, char, std::char_traits<char>>;
  friend class boost::archive::load_access;

public:
  /// `source` must outlive the archive; reading starts at its current position.
  explicit BoundedBinaryIArchive(SpanStreambuf& source);

  std::size_t remainingBytes() const { return source_.remainingBytes(); }

  /// Throws FormatError unless `count` elements of at least `minimumElementBytes` each fit in the unread
  /// bytes.
  void requireAvailable(std::uint64_t count, std::size_t minimumElementBytes) const;

  // Every primitive read goes through here so that running past the span's end names the shortfall.
  void load_binary(void* address, std::size_t byteCount);

  template<class ValueType>
  void load_array(boost::serialization::array_wrapper<ValueType>& array, unsigned int /*version*/)
  {
    requireAvailable(array.count(), sizeof(ValueType));
    load_binary(array.address(), array.count() * sizeof(ValueType));
  }

protected:
  template<class T>
  void load(T& value)
  {
    load_binary(&value, sizeof(T));
  }
  void load(bool& value);
  void load(std::string& text);
  void load(std::wstring& text);
  [[noreturn]] void load(char* text);
  [[noreturn]] void load(wchar_t* text);

  template<class T>
  void load_override(T& value)
  {
    Base::load_override(value);
  }
  void load_override(boost::serialization::collection_size_type& count);

private:
  SpanStreambuf& source_;
};

/// Elements Boost reads as one block of bytes: their wire size is exactly sizeof(Element).
template<class Element>
concept BitwiseElement =
    !std::is_same_v<Element, bool> && boost::serialization::is_bitwise_serializable<Element>::value;

/// Elements Boost reads one by one into default-constructed objects (std::vector<bool> keeps Boost's loader).
template<class Element>
concept ElementwiseElement =
    !std::is_same_v<Element, bool> && !BitwiseElement<Element> && std::is_default_constructible_v<Element>;

// The overloads below replace Boost's loaders for our archive only. They are found by argument-dependent
// lookup and preferred over Boost's generic ones because their archive parameter is more specialised.

/// std::vector of bitwise elements: Boost resizes to the stored count before reading the elements, so the
/// count is checked against sizeof(element) first.
template<BitwiseElement Element, class Allocator>
void load(BoundedBinaryIArchive& archive, std::vector<Element, Allocator>& vector, unsigned int /*version*/)
{
  boost::serialization::collection_size_type count;
  archive >> BOOST_SERIALIZATION_NVP(count);
  archive.requireAvailable(count, sizeof(Element));
  vector.resize(count);
  if (BOOST_SERIALIZATION_VECTOR_VERSIONED(archive.get_library_version()))
  {
    unsigned int itemVersion = 0;
    archive >> BOOST_SERIALIZATION_NVP(itemVersion);
  }
  if (!vector.empty())
    archive >> boost::serialization::make_array<Element, boost::serialization::collection_size_type>(
                   vector.data(), count);
}

namespace detail
{
/// Boost resizes std::vector, std::deque and std::list to the stored count before decoding any element, so a
/// count backed by one byte per element could still allocate count * sizeof(element). Appending each element
/// as it decodes makes memory follow the bytes actually read. (Appending moves vector elements, as Boost's
/// own loader for non-default-constructible elements does; logged types are plain values, not pointer
/// targets.)
template<class Sequence>
void loadSequenceByAppending(BoundedBinaryIArchive& archive, Sequence& sequence)
{
  boost::serialization::collection_size_type count;
  archive >> BOOST_SERIALIZATION_NVP(count);
  if (boost::serialization::library_version_type(3) < archive.get_library_version())
  {
    boost::serialization::item_version_type itemVersion(0);
    archive >> BOOST_SERIALIZATION_NVP(itemVersion);
  }
  sequence.clear();
  for (std::size_t index = 0; index < count; ++index)
  {
    sequence.emplace_back();
    archive >> boost::serialization::make_nvp("item", sequence.back());
  }
}
} // namespace detail

template<ElementwiseElement Element, class Allocator>
void load(BoundedBinaryIArchive& archive, std::vector<Element, Allocator>& vector, unsigned int /*version*/)
{
  detail::loadSequenceByAppending(archive, vector);
}

template<ElementwiseElement Element, class Allocator>
void load(BoundedBinaryIArchive& archive, std::deque<Element, Allocator>& deque, unsigned int /*version*/)
{
  detail::loadSequenceByAppending(archive, deque);
}

template<ElementwiseElement Element, class Allocator>
void load(BoundedBinaryIArchive& archive, std::list<Element, Allocator>& list, unsigned int /*version*/)
{
  detail::loadSequenceByAppending(archive, list);
}

/// Appends the Boost binary serialization of `value` to `destination` (no archive header).
template<class T>
void serializeAppend(std::vector<char>& destination, const T& value)
{
  VectorAppendStreambuf sink(destination);
  boost::archive::binary_oarchive archive(sink, boost::archive::no_header | boost::archive::no_codecvt);
  archive << value;
}

/// Replaces the contents of `destination` (keeping its capacity) with the serialization of `value`.
template<class T>
void serializeInto(std::vector<char>& destination, const T& value)
{
  destination.clear();
  serializeAppend(destination, value);
}

/// Throws FormatError naming the size when `payload` exceeds `options.maxPayloadBytes`.
void checkPayloadSize(std::span<const char> payload, const DeserializeOptions& options);
/// Turns Boost's archive exceptions into FormatError with the byte position where decoding stopped.
[[noreturn]] void rethrowAsFormatError(const boost::archive::archive_exception& error,
                                       const SpanStreambuf& source);
/// Throws FormatError when bytes are left over and the options do not allow it.
void checkFullyConsumed(const SpanStreambuf& source, const DeserializeOptions& options);

/// Fills `value` from `payload`; throws FormatError on any size field, length or structure the bytes cannot
/// back.
template<class T>
void deserialize(std::span<const char> payload, T& value, const DeserializeOptions& options = {})
{
  checkPayloadSize(payload, options);
  SpanStreambuf source(payload);
  try
  {
    BoundedBinaryIArchive archive(source);
    archive >> value;
  }
  catch (const boost::archive::archive_exception& error)
  {
    rethrowAsFormatError(error, source);
  }
  checkFullyConsumed(source, options);
}

template<class T>
T deserialize(std::span<const char> payload, const DeserializeOptions& options = {})
{
  T value{};
  deserialize(payload, value, options);
  return value;
}
} // namespace nao::binaryio

BOOST_SERIALIZATION_REGISTER_ARCHIVE(nao::binaryio::BoundedBinaryIArchive)
BOOST_SERIALIZATION_USE_ARRAY_OPTIMIZATION(nao::binaryio::BoundedBinaryIArchive)
