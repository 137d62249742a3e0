#pragma once

// Internal: what the saving archives of this folder (TomlOutputArchive, LeafWalker) share: Boost's archive
// interface (`ar & item`, `ar << item`) and a name for every item. An nvp or a Field goes to the derived archive's
// member(name, value, spec); an unnamed base object's items go into the same table.

#include <boost/mpl/bool.hpp>
#include <boost/serialization/serialization.hpp>
#include <boost/serialization/version.hpp>

#include "Tools/Streams/Field.h"
#include "Tools/Streams/TypeTraits.h"

namespace nao::streams::detail
{
template<class Derived>
class SavingArchive
{
public:
  using is_loading = boost::mpl::false_;
  using is_saving = boost::mpl::true_;

  template<class T>
  Derived& operator<<(const T& item)
  {
    saveItem(item);
    return derived();
  }
  template<class T>
  Derived& operator&(const T& item)
  {
    saveItem(item);
    return derived();
  }

protected:
  /// Runs value's serialize() with the derived archive: its items come back through operator&.
  template<class T>
  void serializeStruct(const T& value)
  {
    // Boost's own saving archives call the non-const serialize() the same way.
    boost::serialization::serialize_adl(derived(), const_cast<T&>(value),
                                        boost::serialization::version<T>::value);
  }

private:
  Derived& derived() { return static_cast<Derived&>(*this); }

  template<class T>
  void saveItem(const T& item)
  {
    if constexpr (NvpItem<T>)
      derived().member(item.name(), item.value(), ValueSpec{});
    else if constexpr (FieldItem<T>)
      derived().member(item.name(), item.value(), item.spec());
    else if constexpr (SerializableStruct<T>)
      serializeStruct(item); // unnamed base object: its keys live in the same table
    else
      static_assert(dependentFalse<T>, "TOML needs a name for every value: use BOOST_SERIALIZATION_NVP, "
                                       "boost::serialization::make_nvp or nao::streams::field");
  }
};
} // namespace nao::streams::detail
