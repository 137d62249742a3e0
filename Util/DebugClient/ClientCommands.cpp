// DebugClient's subcommands (ClientCommands.h): the replies of the debug channel as text.
#include "Util/DebugClient/ClientCommands.h"
#include "Framework/Client/DebugClient.h"
#include "Framework/Client/ParameterValue.h"
#include "Framework/FieldGroups.h"
#include "Platform/LoLA/LolaProtocol.h"
#include "Tools/Streams/ClosestName.h"
#include "Tools/Streams/Field.h"
#include "Tools/Streams/TerminalText.h"
#include "Util/DebugClient/HealthReport.h"
#include <algorithm>
#include <chrono>
#include <fnmatch.h>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

using namespace nao;

namespace
{
/// "# units (...): angles.* [deg], transitionTime [ms]": the units of a module's TOML, one entry per group of
/// leaves that share a parent and a unit.
std::string unitsLine(const debug::Parameters& parameters)
{
  std::string line, lastGroup;
  for (const FieldDescription& field : parameters.fields)
  {
    if (field.unit.empty()) continue;
    const std::size_t split = field.path.find_last_of(".[");
    const std::string group = split == std::string::npos ? field.path : field.path.substr(0, split) + ".*";
    const std::string entry = streams::labelWithUnit(group, field.unit);
    if (entry == lastGroup) continue;
    line += (line.empty() ? "" : ", ") + entry;
    lastGroup = entry;
  }
  return "# " + parameters.module + " in the units of Config/Modules/" + parameters.module +
         ".toml: " + (line.empty() ? "every value dimensionless" : line + "; the rest dimensionless");
}

/// "# angles.* [deg]: the pose's joint angles ...": what each parameter does, one TOML comment line per field (an
/// array's elements share one), in serialize() order.
std::string docLines(const debug::Parameters& parameters)
{
  std::string lines;
  for (const FieldGroup& group : groupFields(parameters.fields))
    if (!group.first->doc.empty())
      lines +=
          "# " + streams::labelWithUnit(group.pattern(), group.first->unit) + ": " + group.first->doc + "\n";
  return lines;
}

int printReply(const debug::Reply& reply)
{
  (reply.ok ? std::cout : std::cerr) << terminalSafe(reply.message) << "\n";
  return reply.ok ? 0 : 1;
}

/// The representation object of a sample, or nothing when this client does not know its type.
std::optional<std::vector<FieldValue>> valuesOf(const debug::Data& data)
{
  const int id = RepresentationRegistry::instance().find(data.representation);
  if (id < 0) return std::nullopt;
  const auto& info = RepresentationRegistry::instance().info(static_cast<RepresentationId>(id));
  RepresentationObject object = RepresentationRegistry::instance().create(static_cast<RepresentationId>(id));
  info.loadBinary(data.payload, object.get());
  return fieldValues(info, object.get());
}

/// Every field, one line each (`get`, and `subscribe` without fields).
void printSample(const debug::Data& data)
{
  std::cout << terminalSafe(data.representation) << " frame " << data.frameNumber << " t=" << data.time
            << " s";
  if (data.dropped) std::cout << " (" << data.dropped << " dropped)";
  std::cout << "\n";
  const auto values = valuesOf(data);
  if (!values)
  {
    std::cout << "  (this client does not know the type; " << data.payload.size() << " bytes)\n";
    return;
  }
  for (const FieldValue& field : *values)
    std::cout << "  " << terminalSafe(field.label()) << " = " << terminalSafe(field.text) << "\n";
}

/// Whether the field `path` is selected by `pattern`: the same path, a glob (`temperatures.*`, `*.LKnee*`), or a
/// prefix up to a `.` or `[` (`currents` selects every `currents.<joint>`).
bool selects(const std::string& pattern, const std::string& path)
{
  if (pattern == path) return true;
  if (pattern.find_first_of("*?[") != std::string::npos)
    return ::fnmatch(pattern.c_str(), path.c_str(), 0) == 0;
  return path.size() > pattern.size() && path.compare(0, pattern.size(), pattern) == 0 &&
         (path[pattern.size()] == '.' || path[pattern.size()] == '[');
}

/// The chosen fields of a representation as a table: a header line with the labels and units, then one row per
/// sample (`subscribe <representation> <field>...`).
class SampleTable
{
public:
  /// The indexes of `fields` that `patterns` select, in the representation's order; throws when a pattern
  /// selects nothing (naming the closest field).
  SampleTable(const std::string& representation, const std::vector<FieldDescription>& fields,
              const std::vector<std::string>& patterns)
  {
    std::vector<std::string> paths;
    for (const FieldDescription& field : fields)
      paths.push_back(field.path);
    for (const std::string& pattern : patterns)
    {
      if (std::none_of(paths.begin(), paths.end(),
                       [&](const std::string& path) { return selects(pattern, path); }))
        throw std::runtime_error("no field of " + representation + " matches '" + pattern + "'" +
                                 streams::didYouMean(pattern, paths) + "; `DebugClient list` counts them, " +
                                 "`get " + representation + "` shows them");
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (std::any_of(patterns.begin(), patterns.end(),
                      [&](const std::string& p) { return selects(p, paths[i]); }))
      {
        columns_.push_back(i);
        labels_.push_back(streams::labelWithUnit(fields[i].path, fields[i].unit));
      }
  }

  void printHeader() const
  {
    std::cout << std::setw(frameWidth) << "frame"
              << "  " << std::setw(timeWidth) << "time [s]";
    for (const std::string& label : labels_)
      std::cout << "  " << std::setw(width(label)) << terminalSafe(label);
    std::cout << "\n";
  }

  void printRow(const debug::Data& data, const std::vector<FieldValue>& values) const
  {
    std::ostringstream time;
    time << std::fixed << std::setprecision(3) << data.time;
    std::cout << std::setw(frameWidth) << data.frameNumber << "  " << std::setw(timeWidth) << time.str();
    for (std::size_t c = 0; c < columns_.size(); ++c)
      std::cout << "  " << std::setw(width(labels_[c]))
                << (columns_[c] < values.size() ? terminalSafe(values[columns_[c]].text) : "?");
    if (data.dropped) std::cout << "  (" << data.dropped << " dropped)";
    std::cout << "\n";
  }

private:
  static constexpr int frameWidth = 8, timeWidth = 10;
  /// Columns as wide as their labels, at least 10 characters (a float's text). Labels are ASCII but for units
  /// such as °C, whose bytes are counted by setw: count the characters.
  static int width(const std::string& label)
  {
    const auto characters =
        std::count_if(label.begin(), label.end(), [](char c) { return (c & 0xC0) != 0x80; });
    return static_cast<int>(std::max<std::ptrdiff_t>(10, characters) + (label.size() - characters));
  }

  std::vector<std::size_t> columns_;
  std::vector<std::string> labels_;
};

/// What a name that is not a representation is: a module (and what it provides), or a typo of a representation
/// or a module. For messages that reject `name` as a representation.
std::string notARepresentation(const std::string& name, const debug::ListReply& known)
{
  for (const auto& module : known.modules)
    if (module.name == name)
    {
      std::string provides;
      for (const std::string& representation : module.provides)
        provides += (provides.empty() ? "" : ", ") + representation;
      return "'" + name + "' is a module, not a representation" +
             (provides.empty()
                  ? std::string(" (it provides nothing)")
                  : "; it provides " + provides + (module.active ? "" : " (not active in this scenario)")) +
             "; `get " + name + "` shows its parameters";
    }
  std::vector<std::string> names;
  for (const auto& representation : known.representations)
    names.push_back(representation.name);
  for (const auto& module : known.modules)
    names.push_back(module.name);
  const auto closest = streams::closestName(name, names);
  std::string message = "'" + name + "' is neither a representation nor a module of this robot";
  if (!closest) return message + "; `DebugClient list` lists them";
  const bool isModule =
      std::any_of(known.modules.begin(), known.modules.end(),
                  [&](const debug::ModuleEntry& module) { return module.name == *closest; });
  return message + " (did you mean '" + *closest + "'" + (isModule ? ", a module" : ", a representation") +
         "?)";
}

/// The file unit of `key` among a module's parameters ("" when dimensionless or unknown).
std::string unitOf(const debug::Parameters& parameters, const std::string& key)
{
  for (const FieldDescription& field : parameters.fields)
    if (field.path == key) return field.unit;
  return {};
}
} // namespace

namespace nao::debugclient
{
int listCommand(DebugClient& client)
{
  const auto reply = client.list();
  std::cout << "scenario " << terminalSafe(reply.scenario) << "\nexecution order:\n"
            << terminalSafe(reply.plan) << "\nrepresentations:\n";
  for (const auto& representation : reply.representations)
    std::cout << "  " << terminalSafe(representation.name) << " <- "
              << (representation.provider.empty() ? "(none)" : terminalSafe(representation.provider)) << " ("
              << representation.fields.size() << " fields)\n";
  std::cout << "modules:\n";
  for (const auto& module : reply.modules)
    std::cout << "  " << terminalSafe(module.name) << (module.active ? " [active]" : "") << "\n";
  return 0;
}

int getCommand(DebugClient& client, const Options& options)
{
  const std::string& name = options.name;
  const auto known = client.list();
  for (const auto& module : known.modules)
    if (module.name == name)
    {
      const debug::Parameters parameters = client.parameters(name);
      std::cout << terminalSafe(unitsLine(parameters)) << "\n"
                << terminalSafe(docLines(parameters)) << terminalSafe(parameters.toml) << "\n";
      return 0;
    }
  if (std::none_of(known.representations.begin(), known.representations.end(),
                   [&](const debug::RepresentationEntry& entry) { return entry.name == name; }))
    throw std::runtime_error(notARepresentation(name, known));
  if (const auto reply = client.subscribe(name, 0); !reply.ok) return printReply(reply);
  const auto sample = client.nextData(std::chrono::seconds(5));
  client.unsubscribe(name);
  if (!sample)
    throw std::runtime_error("no sample of " + name + " within 5 s (is the motion thread running?)");
  printSample(*sample);
  return 0;
}

int setCommand(DebugClient& client, const Options& options)
{
  const std::string &name = options.name, &key = options.key;
  // The value in the unit of the module's file; a unit written after the number is converted to it.
  const debug::Parameters parameters = client.parameters(name);
  const std::string unit = unitOf(parameters, key);
  const debug::ParameterValue typed = debug::parameterValue(options.value, unit);
  if (!typed.error.empty()) throw std::runtime_error("set " + name + "." + key + ": " + typed.error);
  if (!typed.note.empty()) std::cout << terminalSafe(name + "." + key + ": " + typed.note) << "\n";
  const debug::Reply reply = client.setParameter(name, key, typed.text);
  const int status = printReply(reply);
  if (const std::string warning = debug::shortTimeWarning(name + "." + key, typed, unit, lolaFrameSeconds);
      reply.ok && !warning.empty())
    std::cerr << "DebugClient: warning: " << terminalSafe(warning) << "\n";
  return status;
}

int providerCommand(DebugClient& client, const Options& options)
{
  return printReply(client.setProvider(options.name, options.value));
}

int logCommand(DebugClient& client, const Options& options)
{
  return printReply(options.key == "start" ? client.startLog(options.path) : client.stopLog());
}

int annotateCommand(DebugClient& client, const Options& options)
{
  return printReply(client.annotate(options.value));
}

int healthCommand(DebugClient& client, const Options& options)
{
  const auto known = client.list();
  const auto entry =
      std::find_if(known.representations.begin(), known.representations.end(),
                   [](const debug::RepresentationEntry& e) { return e.name == "SensorHealth"; });
  if (entry == known.representations.end() || entry->provider.empty())
    throw std::runtime_error("this robot's module graph has no SensorHealth (SensorHealthProvider is in the "
                             "default graph: Config/Scenarios/default.toml)");
  const auto& registry = RepresentationRegistry::instance();
  const int id = registry.find("SensorHealth");
  if (id < 0) throw std::runtime_error("this client does not know the type of SensorHealth");
  // One report comes at once (every frame); a series at the rate asked for.
  if (const auto reply = client.subscribe("SensorHealth", options.count > 1 ? options.healthRate : 0);
      !reply.ok)
    return printReply(reply);
  for (std::uint32_t i = 0; i < options.count; ++i)
  {
    const auto sample = client.nextData(std::chrono::seconds(5));
    if (!sample)
      throw std::runtime_error("no sample of SensorHealth within 5 s (is the motion thread running?)");
    const RepresentationObject object = registry.create(static_cast<RepresentationId>(id));
    registry.info(static_cast<RepresentationId>(id)).loadBinary(sample->payload, object.get());
    const auto& sensorHealth = *static_cast<const SensorHealth*>(object.get());
    std::cout << "SensorHealth frame " << sample->frameNumber << " t=" << sample->time << " s, "
              << sensorHealth.changes << (sensorHealth.changes == 1 ? " change" : " changes")
              << " since the start\n"
              << healthReport(sensorHealth);
    std::cout.flush(); // a report per sample as it comes, also into a pipe
  }
  return 0;
}

int subscribeCommand(DebugClient& client, const Options& options)
{
  const std::string& name = options.name;
  const auto known = client.list();
  const auto entry = std::find_if(known.representations.begin(), known.representations.end(),
                                  [&](const debug::RepresentationEntry& e) { return e.name == name; });
  if (entry == known.representations.end()) throw std::runtime_error(notARepresentation(name, known));
  std::optional<SampleTable> table;
  if (!options.fieldPatterns.empty()) table.emplace(name, entry->fields, options.fieldPatterns);
  if (const auto reply = client.subscribe(name, options.rate); !reply.ok) return printReply(reply);
  if (table) table->printHeader();
  for (std::uint32_t i = 0; i < options.count; ++i)
  {
    const auto sample = client.nextData(std::chrono::seconds(5));
    if (!sample) throw std::runtime_error("stream of " + name + " stopped");
    if (!table)
      printSample(*sample);
    else if (const auto values = valuesOf(*sample))
      table->printRow(*sample, *values);
    else
      throw std::runtime_error("this client does not know the type of " + name);
    std::cout.flush(); // a row per sample as it comes, also into a pipe
  }
  return 0;
}
} // namespace nao::debugclient
