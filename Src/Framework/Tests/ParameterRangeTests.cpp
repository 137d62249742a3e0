// Every number a user may tune has a declared range: a value like extraMassKg = 1e308 or a threshold of 1e30 must be
// refused when the file is loaded, with the range in the message, not reach a module.
#include "Framework/Module.h"
#include "Framework/ModuleBase.h"
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace nao;

TEST(ParameterRanges, EveryNumericParameterOfEveryModuleDeclaresARange)
{
  std::vector<std::string> missing;
  std::size_t numbers = 0;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
  {
    if (!module->parameters) continue;
    for (const FieldDescription& field : module->parameters->describe())
    {
      const bool numeric = field.type == "float" || field.type == "double" || field.type.starts_with("int") ||
                           field.type.starts_with("uint");
      if (!numeric) continue;
      ++numbers;
      if (!std::isfinite(field.min) || !std::isfinite(field.max))
        missing.push_back(module->name + "." + field.path + " (" + field.type + ")");
    }
  }
  EXPECT_GT(numbers, 50u) << "the walk found hardly any parameter";
  EXPECT_THAT(missing, ::testing::IsEmpty());
}

TEST(ParameterRanges, TheKeptFieldListIsWhatDescribeGives)
{
  // The debug channel's list, get and set read ParameterInfo::fields, kept from start-up, instead of walking the
  // struct for every request.
  // Non-numeric fields have no range: NaN bounds, equal to each other here.
  auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  std::size_t modules = 0;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
  {
    if (!module->parameters) continue;
    ++modules;
    const std::vector<FieldDescription> described = module->parameters->describe();
    ASSERT_EQ(module->parameters->fields.size(), described.size()) << module->name;
    for (std::size_t i = 0; i < described.size(); ++i)
    {
      const FieldDescription& kept = module->parameters->fields[i];
      EXPECT_EQ(kept.path, described[i].path) << module->name;
      EXPECT_EQ(kept.type, described[i].type) << module->name << "." << kept.path;
      EXPECT_EQ(kept.unit, described[i].unit) << module->name << "." << kept.path;
      EXPECT_TRUE(same(kept.min, described[i].min)) << module->name << "." << kept.path;
      EXPECT_TRUE(same(kept.max, described[i].max)) << module->name << "." << kept.path;
    }
  }
  EXPECT_GT(modules, 5u) << "the walk found hardly any module with parameters";
}
