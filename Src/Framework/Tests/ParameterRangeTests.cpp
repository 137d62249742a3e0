// Every number a user may tune has a declared range: a value like extraMassKg = 1e308 or a threshold of 1e30 must be
// refused when the file is loaded, with the range in the message, not reach a module.
#include "Framework/Module.h"
#include "Framework/ModuleBase.h"
#include "Framework/ParameterFiles.h"
#include "Tools/Streams/TomlFiles.h"
#include <cmath>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

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

TEST(ParameterDocs, EveryParameterOfEveryModuleSaysWhatItDoes)
{
  // The one-line doc of serialize() (`.doc("...")`) is what the GUI, `DebugClient get` and the README tables show.
  std::vector<std::string> missing;
  std::size_t fields = 0;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
  {
    if (!module->parameters) continue;
    for (const FieldDescription& field : module->parameters->describe())
    {
      ++fields;
      if (field.doc.empty()) missing.push_back(module->name + "." + field.path);
    }
  }
  EXPECT_GT(fields, 50u) << "the walk found hardly any parameter";
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
      EXPECT_EQ(kept.doc, described[i].doc) << module->name << "." << kept.path;
    }
  }
  EXPECT_GT(modules, 5u) << "the walk found hardly any module with parameters";
}

namespace
{
/// Every value of a table by its dotted key path, as its text (numbers as doubles, to compare with a tolerance).
void flatten(const toml::table& table, const std::string& prefix,
             std::map<std::string, toml::node_view<const toml::node>>& out)
{
  for (const auto& [key, node] : table)
  {
    const std::string path = prefix + std::string(key.str());
    if (const toml::table* inner = node.as_table())
      flatten(*inner, path + ".", out);
    else
      out.emplace(path, toml::node_view<const toml::node>(node));
  }
}

bool sameValue(toml::node_view<const toml::node> a, toml::node_view<const toml::node> b)
{
  if (a.is_number() && b.is_number())
  {
    const double x = a.value<double>().value(), y = b.value<double>().value();
    return std::abs(x - y) <= 1e-6 * std::max(1.0, std::abs(x));
  }
  if (const toml::array* left = a.as_array())
  {
    const toml::array* right = b.as_array();
    if (!right || left->size() != right->size()) return false;
    for (std::size_t i = 0; i < left->size(); ++i)
      if (!sameValue(toml::node_view<const toml::node>(left->get(i)),
                     toml::node_view<const toml::node>(right->get(i))))
        return false;
    return true;
  }
  return a == b;
}
} // namespace

TEST(ParameterDefaults, EveryValueIsWrittenOnceAndEveryFileLoads)
{
  // A parameter's default, unit, range and reason are declared once, in its struct. Config/Modules/<Module>.toml
  // states only what this project runs differently (and Robots/<robot>/Modules/ what one robot does): a file line
  // that repeats the default would be a second place to change, and the two would drift apart.
  const std::filesystem::path folder = std::filesystem::path(NAO_CONFIG_DIR) / "Modules";
  std::vector<std::string> repeated, withParameters;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
  {
    if (!module->parameters) continue;
    withParameters.push_back(module->name);
    const ParameterInfo& info = *module->parameters;
    toml::table defaultTable;
    void* parameters = info.create();
    info.save(parameters, defaultTable);
    const ConfigLocation location{NAO_CONFIG_DIR, "Default"};
    EXPECT_NO_THROW(info.load(layeredParameterTable(defaultTable, location, module->name), parameters))
        << module->name << ": its files must load over its defaults";
    info.destroy(parameters);
    if (!std::filesystem::exists(location.moduleFile(module->name))) continue;
    std::map<std::string, toml::node_view<const toml::node>> defaults, file;
    const toml::table fileTable = streams::loadTomlFile(location.moduleFile(module->name));
    flatten(defaultTable, "", defaults);
    flatten(fileTable, "", file);
    for (const auto& [path, value] : file)
      if (const auto found = defaults.find(path); found != defaults.end() && sameValue(found->second, value))
        repeated.push_back(module->name + "." + path + " = " + (std::ostringstream() << value).str());
  }
  EXPECT_GT(withParameters.size(), 10u) << "the walk found hardly any module";
  std::string list;
  for (const std::string& line : repeated)
    list += "\n  " + line;
  EXPECT_TRUE(repeated.empty()) << repeated.size() << " file values repeat their struct's default:" << list;
  // A file named after no module would be ignored, and a team's tuning in it would never run.
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".toml")
      EXPECT_THAT(withParameters, testing::Contains(entry.path().stem().string()))
          << entry.path() << " names no module with parameters";
}
