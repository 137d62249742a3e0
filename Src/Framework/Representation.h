#pragma once
// What a representation is (a concept), and the run-time table of all representation types the modules of
// this binary mention. The table gives type-erased operations (create, copy, serialize, describe) to the
// parts of the framework that handle representations by name: blackboard, logger, debug channel, log tool.
#include "Framework/TypeName.h"
#include "Representations/Infrastructure/PassThroughFrom.h"
#include <boost/serialization/version.hpp>
#include <concepts>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace nao
{
/// An archive type that only exists to ask whether a type has a serialize() member template.
struct SerializeProbeArchive
{
};

/// A plain struct that can be default-constructed, copied without side effects and serialized.
template<class T>
concept Representation = std::is_class_v<T> && std::default_initializable<T> && std::copyable<T> &&
    requires(T& value, SerializeProbeArchive& archive)
{
  value.serialize(archive, 0u);
};

using RepresentationId = std::uint16_t;

/// One leaf of a representation or parameter struct, as tools show it. Travels on the debug channel in Boost's
/// binary archive with its class version (BOOST_CLASS_VERSION below): version 0 had no doc.
struct FieldDescription
{
  std::string path;        ///< e.g. "angles.LKneePitch"
  std::string type;        ///< e.g. "float", "enum:regular|hot|veryHot|criticallyHot"
  std::string unit;        ///< unit people read ("deg", "mA", ""), empty when the value is shown in SI
  double min = 0, max = 0; ///< allowed range in that unit; NaN when there is none
  std::string doc;         ///< what the value does, one line (streams::Field::doc); empty when undocumented

  template<class Archive>
  void serialize(Archive& ar, const unsigned version)
  {
    ar& path& type& unit& min& max;
    if (version >= 1) ar& doc;
  }
};

struct RepresentationInfo
{
  std::string name;
  std::size_t size = 0;
  void* (*create)() = nullptr; ///< a default-constructed object
  void (*destroy)(void*) = nullptr;
  void (*copy)(void* destination, const void* source) = nullptr; ///< plain assignment; motion-thread safe
  void (*saveBinary)(const void* object, std::vector<char>& out) = nullptr; ///< appends a binary archive
  void (*loadBinary)(std::span<const char> bytes, void* object) = nullptr;  ///< bounded; throws on bad bytes
  std::vector<FieldDescription> (*describe)() = nullptr;
  std::vector<std::pair<std::string, std::string>> (*values)(const void* object) = nullptr; ///< path, text
  std::vector<FieldDescription> fields; ///< describe() of a default object, kept for labelling values
  std::string schema;                   ///< describe() flattened to one line; logs carry it
  int passThroughFrom = -1; ///< id of the representation `off` copies from (PassThroughFrom), or -1
  void (*passThroughCopy)(void* destination, const void* input) = nullptr; ///< motion-thread safe
};

/// One leaf of a representation object as tools show it.
struct FieldValue
{
  std::string path; ///< "currents.LKneePitch"
  std::string unit; ///< "A", "" when dimensionless
  std::string text; ///< the value in that unit
  /// "currents.LKneePitch [A]" (streams::labelWithUnit), the label every output uses.
  std::string label() const;
};

/// Every leaf of `object` (of the type `info` describes) with its unit, in serialize() order.
std::vector<FieldValue> fieldValues(const RepresentationInfo& info, const void* object);

/// Deleter for type-erased representation objects.
struct RepresentationDeleter
{
  const RepresentationInfo* info = nullptr;
  void operator()(void* object) const
  {
    if (object) info->destroy(object);
  }
};
using RepresentationObject = std::unique_ptr<void, RepresentationDeleter>;

class RepresentationRegistry
{
public:
  static RepresentationRegistry& instance();

  /// Registers a type once (first mention) and returns its id. Ids are dense, in order of registration.
  RepresentationId add(RepresentationInfo (*make)());
  const RepresentationInfo& info(RepresentationId id) const { return *infos_[id]; }
  std::size_t size() const { return infos_.size(); }
  /// The id of a representation named `name`, or -1.
  int find(std::string_view name) const;
  RepresentationObject create(RepresentationId id) const;

private:
  std::vector<std::unique_ptr<RepresentationInfo>> infos_;
};

/// The table entry of T (RepresentationOps.h). Unconstrained, so that RepresentationInstances.h can name types it
/// only declares; representationId() below is the check.
template<class T>
RepresentationInfo makeRepresentationInfo();

/// The id of T, registering it on first use (safe during static initialization).
template<Representation T>
RepresentationId representationId()
{
  static const RepresentationId id = RepresentationRegistry::instance().add(&makeRepresentationInfo<T>);
  return id;
}
/// Registers the representations the frame loop itself fills or reads (sensors, JointRequest, ModuleTimes),
/// so that tools that never build a blackboard (log reader, debug client) know them too.
void registerFrameworkRepresentations();
} // namespace nao

BOOST_CLASS_VERSION(nao::FieldDescription, 1)

#include "Framework/RepresentationInstances.h"
#include "Framework/RepresentationOps.h"
