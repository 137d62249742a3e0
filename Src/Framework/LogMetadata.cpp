#include "Framework/LogMetadata.h"

#include "Framework/Controller.h"
#include "Framework/Module.h"
#include <sstream>
#include <stdexcept>

namespace nao
{
debug::ListReply describeModuleGraph(const Controller& controller)
{
  debug::ListReply reply;
  reply.scenario = controller.scenarioName();
  reply.plan = controller.plan().describe();
  const auto& registry = RepresentationRegistry::instance();
  for (RepresentationId id = 0; id < registry.size(); ++id)
  {
    const auto provider = controller.plan().providerOf.find(id);
    reply.representations.push_back({registry.info(id).name,
                                     provider == controller.plan().providerOf.end() ? "" : provider->second,
                                     registry.info(id).fields});
  }
  auto names = [&](const std::vector<RepresentationId>& ids)
  {
    std::vector<std::string> result;
    for (RepresentationId id : ids)
      result.push_back(registry.info(id).name);
    return result;
  };
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
  {
    bool active = false;
    for (const ModulePlan& plan : controller.plan().modules)
      active |= plan.module == module;
    reply.modules.push_back(
        {module->name, active, names(module->requires_), names(module->uses), names(module->provides),
         module->parameters ? module->parameters->fields : std::vector<FieldDescription>{}});
  }
  return reply;
}

namespace
{
void writeList(std::string& text, std::string_view keyword, const std::vector<std::string>& names)
{
  if (names.empty()) return;
  text += "  ";
  text += keyword;
  for (const std::string& name : names)
    text += " " + name;
  text += "\n";
}

std::vector<std::string> words(std::string_view line)
{
  std::vector<std::string> result;
  std::istringstream stream{std::string(line)};
  for (std::string word; stream >> word;)
    result.push_back(word);
  return result;
}
} // namespace

std::string moduleGraphAnnotation(const debug::ListReply& graph)
{
  std::string text(moduleGraphAnnotationHeader);
  text += "\nscenario " + graph.scenario + "\n";
  for (const debug::ModuleEntry& module : graph.modules)
  {
    text += "module " + module.name + (module.active ? " active\n" : " inactive\n");
    writeList(text, "requires", module.requires_);
    writeList(text, "uses", module.uses);
    writeList(text, "provides", module.provides);
  }
  for (const debug::RepresentationEntry& representation : graph.representations)
    text += "representation " + representation.name +
            (representation.provider.empty() ? "" : " " + representation.provider) + "\n";
  text += "plan\n" + graph.plan;
  return text;
}

std::optional<debug::ListReply> parseModuleGraphAnnotation(std::string_view text)
{
  if (!text.starts_with(std::string(moduleGraphAnnotationHeader) + "\n")) return std::nullopt;
  debug::ListReply graph;
  std::size_t position = moduleGraphAnnotationHeader.size() + 1;
  int lineNumber = 1;
  while (position < text.size())
  {
    const std::size_t end = std::min(text.find('\n', position), text.size());
    const std::string_view line = text.substr(position, end - position);
    position = end + 1;
    ++lineNumber;
    const std::vector<std::string> parts = words(line);
    const auto bad = [&]
    {
      return std::runtime_error("module graph annotation, line " + std::to_string(lineNumber) + ": '" +
                                std::string(line) + "' is not understood");
    };
    if (parts.empty()) continue;
    if (parts[0] == "plan" && parts.size() == 1)
    {
      graph.plan = position < text.size() ? std::string(text.substr(position)) : "";
      return graph;
    }
    if (parts[0] == "scenario")
      graph.scenario = parts.size() > 1 ? parts[1] : "";
    else if (parts[0] == "module" && parts.size() == 3)
      graph.modules.push_back({parts[1], parts[2] == "active", {}, {}, {}, {}});
    else if (line.starts_with("  ") && !graph.modules.empty() &&
             (parts[0] == "requires" || parts[0] == "uses" || parts[0] == "provides"))
    {
      debug::ModuleEntry& module = graph.modules.back();
      auto& list = parts[0] == "requires" ? module.requires_
                   : parts[0] == "uses"   ? module.uses
                                          : module.provides;
      list.assign(parts.begin() + 1, parts.end());
    }
    else if (parts[0] == "representation" && parts.size() >= 2)
    {
      // The provider is the rest of the line: "off (pass-through from StiffnessJointRequest)".
      const std::size_t name = line.find(parts[1], std::string_view("representation").size());
      std::string_view provider = line.substr(name + parts[1].size());
      provider.remove_prefix(std::min(provider.find_first_not_of(' '), provider.size()));
      graph.representations.push_back({parts[1], std::string(provider), {}});
    }
    else
      throw bad();
  }
  return graph; // no plan line: the execution order is unknown
}

std::string parametersAnnotation(const LoggedParameters& parameters)
{
  return std::string(parametersAnnotationHeader) + " " + parameters.module +
         (parameters.loaded ? " loaded" : " from frame " + std::to_string(parameters.fromFrame)) + "\n" +
         parameters.toml;
}

std::optional<LoggedParameters> parseParametersAnnotation(std::string_view text)
{
  if (!text.starts_with(std::string(parametersAnnotationHeader) + " ")) return std::nullopt;
  const std::size_t end = std::min(text.find('\n'), text.size());
  const std::vector<std::string> parts = words(text.substr(0, end));
  // "nao-log parameters v1" is three words.
  LoggedParameters parameters;
  if (parts.size() == 5 && parts[4] == "loaded")
    parameters.loaded = true;
  else if (parts.size() == 7 && parts[4] == "from" && parts[5] == "frame" &&
           parts[6].find_first_not_of("0123456789") == std::string::npos && parts[6].size() <= 10)
  {
    parameters.loaded = false;
    const unsigned long long frame = std::stoull(parts[6]);
    if (frame > UINT32_MAX)
      throw std::runtime_error("parameters annotation: frame " + parts[6] + " too large");
    parameters.fromFrame = static_cast<std::uint32_t>(frame);
  }
  else
    throw std::runtime_error("parameters annotation: '" + std::string(text.substr(0, end)) +
                             "' is not understood");
  parameters.module = parts[3];
  parameters.toml = end < text.size() ? std::string(text.substr(end + 1)) : "";
  return parameters;
}

std::string noteAnnotation(const LoggedNote& note)
{
  return std::string(noteAnnotationHeader) + " frame " + std::to_string(note.frame) + "\n" + note.text;
}

std::optional<LoggedNote> parseNoteAnnotation(std::string_view text)
{
  if (!text.starts_with(std::string(noteAnnotationHeader) + " ")) return std::nullopt;
  const std::size_t end = std::min(text.find('\n'), text.size());
  const std::vector<std::string> parts = words(text.substr(0, end));
  // "nao-log note v1" is three words.
  if (parts.size() != 5 || parts[3] != "frame" ||
      parts[4].find_first_not_of("0123456789") != std::string::npos || parts[4].size() > 10 ||
      std::stoull(parts[4]) > UINT32_MAX)
    throw std::runtime_error("note annotation: '" + std::string(text.substr(0, end)) + "' is not understood");
  return LoggedNote{static_cast<std::uint32_t>(std::stoull(parts[4])),
                    end < text.size() ? std::string(text.substr(end + 1)) : ""};
}

LogMetadata LogMetadata::fromAnnotations(const std::vector<binaryio::LogAnnotation>& annotations)
{
  LogMetadata metadata;
  for (const binaryio::LogAnnotation& annotation : annotations)
    try
    {
      if (auto graph = parseModuleGraphAnnotation(annotation.text))
      {
        if (!metadata.graph) metadata.graph = std::move(graph);
      }
      else if (auto parameters = parseParametersAnnotation(annotation.text))
        metadata.parameters.push_back(std::move(*parameters));
    }
    catch (const std::exception& error)
    {
      metadata.errors.push_back("annotation @" + std::to_string(annotation.offset) + ": " + error.what());
    }
  return metadata;
}

bool LogMetadata::isMetadata(std::string_view annotation)
{
  return annotation.starts_with(std::string(moduleGraphAnnotationHeader) + "\n") ||
         annotation.starts_with(std::string(parametersAnnotationHeader) + " ");
}

std::map<std::string, std::string> LogMetadata::parametersAt(std::uint32_t frame) const
{
  std::map<std::string, std::string> result;
  for (const LoggedParameters& entry : parameters)
    if (entry.loaded || entry.fromFrame <= frame) result[entry.module] = entry.toml;
  return result;
}

std::vector<const LoggedParameters*> LogMetadata::edits() const
{
  std::vector<const LoggedParameters*> result;
  for (const LoggedParameters& entry : parameters)
    if (!entry.loaded) result.push_back(&entry);
  return result;
}
} // namespace nao
