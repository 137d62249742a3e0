#include "Tools/BinaryIO/BoundedArchive.h"

// A derived Boost archive must instantiate Boost's archive templates itself (Boost's library only holds them
// for its own archive classes); these implementation files are meant to be included for that purpose.
#include <boost/archive/impl/archive_serializer_map.ipp>
#include <boost/archive/impl/basic_binary_iarchive.ipp>
#include <boost/archive/impl/basic_binary_iprimitive.ipp>
#include <string>

namespace nao::binaryio
{
SpanStreambuf::SpanStreambuf(std::span<const char> bytes)
{
  // The get area is only ever read; std::streambuf merely lacks a const-correct interface.
  char* begin = const_cast<char*>(bytes.data());
  setg(begin, begin, begin + bytes.size());
}

std::streamsize VectorAppendStreambuf::xsputn(const char* bytes, std::streamsize count)
{
  destination_.insert(destination_.end(), bytes, bytes + count);
  return count;
}

VectorAppendStreambuf::int_type VectorAppendStreambuf::overflow(int_type character)
{
  if (!traits_type::eq_int_type(character, traits_type::eof()))
    destination_.push_back(traits_type::to_char_type(character));
  return traits_type::not_eof(character);
}

BoundedBinaryIArchive::BoundedBinaryIArchive(SpanStreambuf& source)
    : Base(source, boost::archive::no_header | boost::archive::no_codecvt), source_(source)
{
  init(boost::archive::no_header | boost::archive::no_codecvt);
}

void BoundedBinaryIArchive::requireAvailable(std::uint64_t count, std::size_t minimumElementBytes) const
{
  const std::uint64_t remaining = remainingBytes();
  // Division instead of multiplication: count * size may overflow 64 bits for a forged count.
  const bool fits = minimumElementBytes == 0 || count <= remaining / minimumElementBytes;
  if (fits) return;
  std::string message = "size field " + std::to_string(count);
  if (minimumElementBytes > 1) message += " (of " + std::to_string(minimumElementBytes) + "-byte elements)";
  message += " exceeds remaining payload " + std::to_string(remaining) + " bytes";
  throw FormatError(message);
}

void BoundedBinaryIArchive::load_binary(void* address, std::size_t byteCount)
{
  const std::size_t remaining = remainingBytes();
  if (byteCount > remaining)
    throw FormatError("payload ends early: needed " + std::to_string(byteCount) + " bytes at byte " +
                      std::to_string(source_.consumedBytes()) + ", only " + std::to_string(remaining) +
                      " remain");
  source_.sgetn(static_cast<char*>(address), static_cast<std::streamsize>(byteCount));
}

void BoundedBinaryIArchive::load(bool& value)
{
  unsigned char byte = 0;
  load_binary(&byte, 1);
  // Any other byte would make the bool's object representation invalid (undefined behaviour on use).
  if (byte > 1) throw FormatError("bool field holds " + std::to_string(byte) + ", expected 0 or 1");
  value = byte == 1;
}

void BoundedBinaryIArchive::load(std::string& text)
{
  std::size_t length = 0;
  load(length);
  requireAvailable(length, sizeof(char));
  text.resize(length);
  if (length > 0) load_binary(text.data(), length);
}

void BoundedBinaryIArchive::load(std::wstring& text)
{
  std::size_t length = 0;
  load(length);
  requireAvailable(length, sizeof(wchar_t));
  text.resize(length);
  if (length > 0) load_binary(text.data(), length * sizeof(wchar_t));
}

void BoundedBinaryIArchive::load(char* /*text*/)
{
  throw FormatError(
      "raw char* strings are not supported: their length cannot be bounded by the target buffer");
}

void BoundedBinaryIArchive::load(wchar_t* /*text*/)
{
  throw FormatError(
      "raw wchar_t* strings are not supported: their length cannot be bounded by the target buffer");
}

void BoundedBinaryIArchive::load_override(boost::serialization::collection_size_type& count)
{
  Base::load_override(count);
  // Every element takes at least one byte (elements that serialize to nothing are the documented exception).
  requireAvailable(count, 1);
}

void checkPayloadSize(std::span<const char> payload, const DeserializeOptions& options)
{
  if (payload.size() > options.maxPayloadBytes)
    throw FormatError("payload of " + std::to_string(payload.size()) + " bytes exceeds the bound of " +
                      std::to_string(options.maxPayloadBytes) + " bytes");
}

void rethrowAsFormatError(const boost::archive::archive_exception& error, const SpanStreambuf& source)
{
  throw FormatError(std::string("payload does not decode at byte ") + std::to_string(source.consumedBytes()) +
                    ": " + error.what());
}

void checkFullyConsumed(const SpanStreambuf& source, const DeserializeOptions& options)
{
  if (!options.allowTrailingBytes && source.remainingBytes() > 0)
    throw FormatError(std::to_string(source.remainingBytes()) + " bytes left after the object at byte " +
                      std::to_string(source.consumedBytes()) + " (type mismatch?)");
}
} // namespace nao::binaryio

template class boost::archive::detail::archive_serializer_map<nao::binaryio::BoundedBinaryIArchive>;
template class boost::archive::basic_binary_iprimitive<nao::binaryio::BoundedBinaryIArchive, char,
                                                       std::char_traits<char>>;
template class boost::archive::basic_binary_iarchive<nao::binaryio::BoundedBinaryIArchive>;
template class boost::archive::binary_iarchive_impl<nao::binaryio::BoundedBinaryIArchive, char,
                                                    std::char_traits<char>>;
