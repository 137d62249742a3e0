// ParameterTable: a module's parameters as the Markdown table of its README's "## Parameters" section, generated from
// the parameter struct's serialize() (names, units, ranges and docs through the field list, defaults through the
// TOML archive in the file's units). ParameterTableTests regenerates every README's table and compares.
#include "Framework/FieldGroups.h"
#include "Framework/Module.h"
#include "Tools/Streams/NumberFormat.h"
#include "Tools/Streams/TomlFiles.h"
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

using namespace nao;

namespace
{
/// A TOML value as the file writes it: shortest numbers, quoted strings, arrays as [...].
std::string valueText(const toml::node& node)
{
  if (const auto* number = node.as_floating_point()) return streams::formatShortest(number->get());
  if (const auto* number = node.as_integer()) return std::to_string(number->get());
  if (const auto* flag = node.as_boolean()) return flag->get() ? "true" : "false";
  if (const auto* text = node.as_string()) return "\"" + text->get() + "\"";
  if (const auto* array = node.as_array())
  {
    std::string result;
    for (const toml::node& element : *array)
      result += (result.empty() ? "" : ", ") + valueText(element);
    return "[" + result + "]";
  }
  throw std::runtime_error("a table where a value was expected");
}

/// The default of a group in the file's units, its elements in serialize() order: "0.5", "[-20, -50]",
/// "{HeadYaw = 0, HeadPitch = 0, ...}" for a named array.
std::string defaultText(const toml::table& defaults, const FieldGroup& group, const std::string& module)
{
  auto leaf = [&](const std::string& path) -> const toml::node&
  {
    const toml::node* node = defaults.at_path(path).node();
    if (!node) throw std::runtime_error(module + ": the saved defaults have no " + path);
    return *node;
  };
  if (!group.elements()) return valueText(leaf(group.name));
  std::vector<std::pair<std::string, std::string>> elements; // name, value
  for (std::size_t i = 0; i < group.count; ++i)
    elements.emplace_back(group.first[i].path.substr(group.name.size() + 1),
                          valueText(leaf(group.first[i].path)));
  std::string result;
  if (group.first->path[group.name.size()] == '[')
  {
    for (const auto& [name, value] : elements)
      result += (result.empty() ? "" : ", ") + value;
    return "[" + result + "]";
  }
  // A named array (one value per joint) as its most common value and the elements that differ.
  std::map<std::string, std::size_t> counts;
  for (const auto& [name, value] : elements)
    ++counts[value];
  const auto common = std::max_element(counts.begin(), counts.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
  if (common->second == 1)
  {
    for (const auto& [name, value] : elements)
      result += (result.empty() ? "" : ", ") + name + " = " + value;
    return "{" + result + "}";
  }
  for (const auto& [name, value] : elements)
    if (value != common->first) result += (result.empty() ? "" : ", ") + name + " = " + value;
  return common->first + " each" + (result.empty() ? "" : ", except " + result);
}

/// Text for a Markdown table cell: a '|' would end the cell.
std::string cell(const std::string& text)
{
  std::string result;
  for (const char character : text)
    result += character == '|' ? std::string("\\|") : std::string(1, character);
  return result;
}

std::string rangeText(const FieldDescription& field)
{
  if (field.type.starts_with("enum:"))
  {
    // Its names; a long list (the joints) by its first and last.
    std::vector<std::string> names;
    for (std::size_t at = 5, end; at <= field.type.size(); at = end + 1)
    {
      end = std::min(field.type.find('|', at), field.type.size());
      names.push_back(field.type.substr(at, end - at));
    }
    if (names.size() > 6)
      return std::to_string(names.size()) + " names: " + names.front() + " .. " + names.back();
    std::string text;
    for (const std::string& name : names)
      text += (text.empty() ? "" : ", ") + name;
    return text;
  }
  if (std::isnan(field.min)) return "";
  return streams::formatShortest(field.min) + " .. " + streams::formatShortest(field.max);
}

/// The Markdown table of `module`'s parameters: one row per field (an array's elements are one row).
std::string parameterTable(const ModuleInfo& module)
{
  const ParameterInfo& info = *module.parameters;
  const std::unique_ptr<void, void (*)(void*)> defaults(info.create(), info.destroy);
  toml::table table;
  info.save(defaults.get(), table);
  std::string text = "| name | default | unit | range | what it does |\n| --- | --- | --- | --- | --- |\n";
  const std::vector<FieldDescription> fields = info.describe();
  for (const FieldGroup& group : groupFields(fields))
    text += "| " + cell(group.name) + " | " + cell(defaultText(table, group, module.name)) + " | " +
            cell(group.first->unit) + " | " + cell(rangeText(*group.first)) + " | " + cell(group.first->doc) +
            " |\n";
  return text;
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app(
      "A module's parameters as a Markdown table (name, default in the file's unit, unit, range, doc)");
  std::string name;
  app.add_option("module", name, "the module, e.g. EnergySavingProvider")->required();
  CLI11_PARSE(app, argc, argv);
  try
  {
    const ModuleInfo* module = ModuleRegistry::instance().find(name);
    if (!module) throw std::runtime_error("no module '" + name + "'");
    if (!module->parameters) throw std::runtime_error("module '" + name + "' has no parameters");
    std::cout << parameterTable(*module);
    return 0;
  }
  catch (const std::exception& error)
  {
    std::cerr << "ParameterTable: " << error.what() << "\n";
    return 1;
  }
}
