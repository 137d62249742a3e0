// Graph resolution: order, every start-up error with its message, `off`.
#include "Framework/Controller.h"
#include "Framework/ModuleGraph.h"
#include "Framework/Tests/TestModules.h"
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::test;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace
{
std::vector<ProviderChoice> choices(std::initializer_list<std::pair<const char*, const char*>> pairs)
{
  std::vector<ProviderChoice> result;
  int line = 2;
  for (const auto& [representation, provider] : pairs)
    result.push_back({representation, provider, {"test.toml", line++, 1}});
  return result;
}

std::vector<std::string> order(const ExecutionPlan& plan)
{
  std::vector<std::string> names;
  for (const ModulePlan& module : plan.modules)
    names.push_back(module.module->name);
  return names;
}

std::string errorOf(const std::vector<ProviderChoice>& c)
{
  try
  {
    resolveModuleGraph(c, Controller::fixedProviders(), "test");
  }
  catch (const StartupError& error)
  {
    return error.what();
  }
  return "(no error)";
}
} // namespace

TEST(ModuleGraph, OrdersByDependenciesNotByScenarioOrder)
{
  const auto plan = resolveModuleGraph(
      choices({{"RepD", "ModC"}, {"RepC", "ModCProvider"}, {"RepB", "ModB"}, {"RepA", "ModA"}}),
      Controller::fixedProviders(), "test");
  const auto names = order(plan);
  auto position = [&](const std::string& name)
  { return std::find(names.begin(), names.end(), name) - names.begin(); };
  ASSERT_EQ(names.size(), 4u);
  EXPECT_LT(position("ModA"), position("ModB"));
  EXPECT_LT(position("ModB"), position("ModC"));
  EXPECT_LT(position("ModB"), position("ModCProvider"));
  // ModC only USES RepC: no edge, so the scenario's order (ModC first) stands between the two.
  EXPECT_LT(position("ModC"), position("ModCProvider"));
  EXPECT_EQ(plan.snapshots, std::vector<RepresentationId>{representationId<RepC>()});
}

TEST(ModuleGraph, MissingProviderNamesModuleRepresentationAndCandidates)
{
  EXPECT_THAT(errorOf(choices({{"RepB", "ModB"}})),
              AllOf(HasSubstr("module 'ModB' requires 'RepA'"), HasSubstr("names no provider"),
                    HasSubstr("ModA, ModA2"), HasSubstr("ModCycle")));
}

TEST(ModuleGraph, UsedRepresentationNeedsAProviderToo)
{
  EXPECT_THAT(errorOf(choices({{"RepA", "ModA"}, {"RepB", "ModB"}, {"RepD", "ModC"}})),
              AllOf(HasSubstr("module 'ModC' uses 'RepC'"), HasSubstr("ModCProvider")));
}

TEST(ModuleGraph, TwoProvidersAreRefused)
{
  // The body fills JointSensorData; naming a module for it as well is a second provider.
  EXPECT_THAT(errorOf(choices({{"JointSensorData", "ModA"}})),
              AllOf(HasSubstr("test.toml:2:1"), HasSubstr("two providers for 'JointSensorData'"),
                    HasSubstr("Body"), HasSubstr("ModA")));
  EXPECT_THAT(errorOf(choices({{"RepA", "ModA"}, {"RepA", "ModA2"}})),
              AllOf(HasSubstr("test.toml:3:1"), HasSubstr("two providers for 'RepA': ModA and ModA2")));
}

TEST(ModuleGraph, UnknownModuleAndUnknownRepresentation)
{
  EXPECT_THAT(errorOf(choices({{"RepA", "NoSuchModule"}})),
              AllOf(HasSubstr("test.toml:2:1"), HasSubstr("'NoSuchModule' of 'RepA' is not a module"),
                    HasSubstr("modules that provide it: ModA, ModA2")));
  EXPECT_THAT(errorOf(choices({{"RepZ", "ModA"}})),
              AllOf(HasSubstr("'RepZ' is not a representation"), HasSubstr("RepA")));
}

TEST(ModuleGraph, ModuleThatDoesNotProvideTheRepresentation)
{
  EXPECT_THAT(errorOf(choices({{"RepA", "ModB"}})),
              AllOf(HasSubstr("module 'ModB' does not provide 'RepA'"), HasSubstr("ModA, ModA2")));
}

TEST(ModuleGraph, CycleNamesEveryModuleAndRepresentationOnIt)
{
  const std::string error =
      errorOf(choices({{"RepA", "ModCycle"}, {"RepB", "ModB"}, {"RepC", "ModCProvider"}}));
  EXPECT_THAT(error, AllOf(HasSubstr("cycle"), HasSubstr("ModCycle requires RepC (provided by ModCProvider)"),
                           HasSubstr("ModCProvider requires RepB (provided by ModB)"),
                           HasSubstr("ModB requires RepA (provided by ModCycle)"), HasSubstr("Uses<>")));
}

TEST(ModuleGraph, OffSatisfiesARequirement)
{
  const auto plan =
      resolveModuleGraph(choices({{"RepA", "off"}, {"RepB", "ModB"}}), Controller::fixedProviders(), "t");
  EXPECT_EQ(order(plan), std::vector<std::string>{"ModB"});
  EXPECT_EQ(plan.off, std::vector<RepresentationId>{representationId<RepA>()});
  EXPECT_EQ(plan.providerOf.at(representationId<RepA>()), "off");
}

TEST(ModuleGraph, RequiringWhatTheFrameworkFillsLaterIsRefused)
{
  EXPECT_THAT(errorOf(choices({{"RepD", "ModNeedsTimes"}})),
              AllOf(HasSubstr("'ModNeedsTimes' requires 'ModuleTimes'"), HasSubstr("Uses<>")));
}
