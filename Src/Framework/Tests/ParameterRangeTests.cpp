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
