#pragma once
// A representation as the debug channel describes and sends it (the robot's own serialisation), into a GUI store:
// how the GUI's display functions are tested on values no live robot shows on demand.
#include "Framework/Representation.h"
#include "Util/DebugGui/RobotLink.h"
#include "Util/DebugGui/SeriesStore.h"
#include <gtest/gtest.h>
#include <optional>
#include <string>

namespace nao::gui::test
{
template<class T>
void receive(SeriesStore& store, const std::string& name, const T& object)
{
  const auto& registry = RepresentationRegistry::instance();
  const RepresentationId id = representationId<T>();
  ASSERT_EQ(registry.find(name), static_cast<int>(id)) << name;
  store.setFields(name, registry.info(id).describe());
  debug::Data data;
  data.representation = name;
  data.frameNumber = 400;
  data.time = 4.8;
  registry.info(id).saveBinary(&object, data.payload);
  const std::optional<Sample> sample = decodeSample(data);
  ASSERT_TRUE(sample) << name;
  store.add(*sample);
}
} // namespace nao::gui::test
