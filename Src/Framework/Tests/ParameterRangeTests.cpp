// Every number a user may tune has a declared range: a value like extraMassKg = 1e308 or a threshold of 1e30 must be
// refused when the file is loaded, with the range in the message, not reach a module.
#include "Framework/Module.h"
#include "Framework/ModuleBase.h"
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

TEST(ParameterDefaults, EveryModulesHeaderDefaultsAreItsFilesValues)
{
  // A parameter's default, unit and range are declared once, in its struct; Config/Modules/<Module>.toml states the
  // same values for a team to read and tune per robot (Robots/<robot>/Modules/ overlays). A header default that
  // differs from the file would run wherever the file is not read (a test rig, a tool), so they must not differ.
  std::vector<std::string> differing;
  std::size_t compared = 0;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
  {
    if (!module->parameters) continue;
    const ParameterInfo& info = *module->parameters;
    void* defaults = info.create();
    void* fromFile = info.create();
    toml::table defaultTable, fileTable;
    info.save(defaults, defaultTable);
    info.load(
        streams::loadTomlFile(std::filesystem::path(NAO_CONFIG_DIR) / "Modules" / (module->name + ".toml")),
        fromFile);
    info.save(fromFile, fileTable);
    info.destroy(defaults);
    info.destroy(fromFile);
    std::map<std::string, toml::node_view<const toml::node>> header, file;
    flatten(defaultTable, "", header);
    flatten(fileTable, "", file);
    for (const auto& [path, value] : file)
    {
      ++compared;
      const auto found = header.find(path);
      if (found == header.end() || !sameValue(found->second, value))
      {
        std::ostringstream text;
        text << module->name << "." << path << ": file " << value << ", header "
             << (found == header.end() ? toml::node_view<const toml::node>() : found->second);
        differing.push_back(text.str());
      }
    }
  }
  EXPECT_GT(compared, 50u) << "the walk found hardly any parameter";
  std::string list;
  for (const std::string& line : differing)
    list += "\n  " + line;
  EXPECT_TRUE(differing.empty()) << differing.size() << " values differ:" << list;
}
