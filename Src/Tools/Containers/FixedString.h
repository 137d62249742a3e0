#pragma once
// A string with inline capacity: copying it never allocates, so representations that carry names
// (ModuleTimes) can be copied in the motion thread. Serialized as a std::string.
#include <algorithm>
#include <array>
#include <boost/serialization/nvp.hpp>
#include <boost/serialization/split_member.hpp>
#include <boost/serialization/string.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace nao
{
template<std::size_t Capacity>
class FixedString
{
public:
  FixedString() = default;
  FixedString(std::string_view text) { assign(text); } // NOLINT: implicit on purpose, like std::string

  /// Copies up to Capacity characters; longer text is truncated (names are for people, not for look-ups).
  void assign(std::string_view text)
  {
    length_ = static_cast<std::uint8_t>(std::min(text.size(), Capacity));
    std::copy_n(text.data(), length_, chars_.data());
  }
  std::string_view view() const { return {chars_.data(), length_}; }
  operator std::string_view() const { return view(); } // NOLINT
  bool operator==(const FixedString& other) const { return view() == other.view(); }

  template<class Archive>
  void save(Archive& ar, const unsigned) const
  {
    const std::string text(view());
    ar& boost::serialization::make_nvp("text", text);
  }
  template<class Archive>
  void load(Archive& ar, const unsigned)
  {
    std::string text;
    ar& boost::serialization::make_nvp("text", text);
    assign(text);
  }
  BOOST_SERIALIZATION_SPLIT_MEMBER()

private:
  static_assert(Capacity < 256, "length is stored in one byte");
  std::array<char, Capacity> chars_{};
  std::uint8_t length_ = 0;
};
} // namespace nao
