#pragma once
// One object of every representation type this binary knows, plus last frame's copy for USES and a
// default-valued copy for providers set `off`. Objects never move after construction, so modules keep typed
// pointers to them.
#include "Framework/Representation.h"
#include <vector>

namespace nao
{
class Blackboard
{
public:
  Blackboard();

  void* current(RepresentationId id) { return entries_[id].current.get(); }
  const void* current(RepresentationId id) const { return entries_[id].current.get(); }
  const void* previous(RepresentationId id) const { return entries_[id].previous.get(); }

  template<Representation T>
  T& get()
  {
    return *static_cast<T*>(current(representationId<T>()));
  }
  template<Representation T>
  const T& get() const
  {
    return *static_cast<const T*>(current(representationId<T>()));
  }

  /// End of frame: last frame's value for modules that USE the representation. Motion-thread safe.
  void snapshot(RepresentationId id)
  {
    info(id).copy(entries_[id].previous.get(), entries_[id].current.get());
  }
  /// A provider set `off`: the representation returns to its default value. Motion-thread safe.
  void resetToDefault(RepresentationId id)
  {
    info(id).copy(entries_[id].current.get(), entries_[id].defaults.get());
    snapshot(id);
  }
  std::size_t size() const { return entries_.size(); }

private:
  static const RepresentationInfo& info(RepresentationId id)
  {
    return RepresentationRegistry::instance().info(id);
  }

  struct Entry
  {
    RepresentationObject current, previous, defaults;
  };
  std::vector<Entry> entries_;
};
} // namespace nao
