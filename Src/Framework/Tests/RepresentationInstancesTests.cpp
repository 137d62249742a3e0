// RepresentationInstances.h lists every representation a module of this binary reads or writes, so that none of
// them has its operations compiled again in each module's translation unit; and the listed ones work as before.
#include "Framework/Module.h"
#include "Framework/RepresentationInstances.h"
#include "Representations/MotionControl/JointRequest.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace nao;

namespace
{
bool listed(const std::string& name)
{
  const auto names = listedRepresentations();
  return std::find(names.begin(), names.end(), name) != names.end();
}
} // namespace

TEST(RepresentationInstances, EveryRepresentationOfTheModulesAndTheFrameLoopIsListed)
{
  registerFrameworkRepresentations();
  std::set<std::string> missing;
  const RepresentationRegistry& registry = RepresentationRegistry::instance();
  ASSERT_FALSE(ModuleRegistry::instance().modules().empty());
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
    for (const auto* ids : {&module->requires_, &module->uses, &module->provides})
      for (RepresentationId id : *ids)
        if (!listed(registry.info(id).name))
          missing.insert(registry.info(id).name + " (" + module->name + ")");
  for (std::size_t id = 0; id < registry.size(); ++id)
    if (const std::string& name = registry.info(static_cast<RepresentationId>(id)).name; !listed(name))
      missing.insert(name);
  std::string text;
  for (const std::string& name : missing)
    text += " " + name;
  EXPECT_TRUE(missing.empty()) << "add to NAO_FOR_EACH_LISTED_REPRESENTATION (and its header to "
                                  "RepresentationInstances.cpp):"
                               << text;
}

TEST(RepresentationInstances, AListedRepresentationRoundTripsThroughItsOperations)
{
  const RepresentationInfo& info = RepresentationRegistry::instance().info(representationId<JointRequest>());
  EXPECT_EQ(info.name, "JointRequest");
  EXPECT_EQ(info.size, sizeof(JointRequest));
  JointRequest request;
  request.angles[Joint::LKneePitch] = 0.75f;
  request.stiffnesses[Joint::LKneePitch] = 0.5f;
  std::vector<char> bytes;
  info.saveBinary(&request, bytes);
  RepresentationObject copy = RepresentationRegistry::instance().create(representationId<JointRequest>());
  info.loadBinary(bytes, copy.get());
  EXPECT_EQ(static_cast<const JointRequest*>(copy.get())->angles[Joint::LKneePitch], 0.75f);
  EXPECT_EQ(static_cast<const JointRequest*>(copy.get())->stiffnesses[Joint::LKneePitch], 0.5f);
  EXPECT_FALSE(info.schema.empty());
}
