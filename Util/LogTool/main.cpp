// LogTool: what is in a robot log, its data as CSV or as a frame dump, and its joints' thermal forecast.
#include "Framework/Client/LogDecoder.h"
#include "Metadata.h"
#include "Modules/Modeling/Common/ThermalBudgetComputation.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Thermal.h"
#include "Tools/Streams/Field.h"
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <map>

using namespace nao;

namespace
{
void printWarnings(LogDecoder& decoder)
{
  for (const std::string& warning : decoder.reader().warnings())
    std::cerr << "warning: " << warning << "\n";
}

int info(const std::string& path)
{
  LogDecoder decoder(path);
  std::uint64_t frames = 0;
  std::uint32_t first = 0, last = 0, frameNumber = 0;
  double firstTime = 0, lastTime = 0;
  bool hasTime = false;
  std::vector<DecodedRecord> records;
  while (decoder.next(frameNumber, records))
  {
    if (frames++ == 0) first = frameNumber;
    last = frameNumber;
    for (const auto& record : records)
      if (record.name == "FrameInfo" && record.object)
      {
        const double time = static_cast<const FrameInfo*>(record.object.get())->time;
        if (!hasTime) firstTime = time;
        lastTime = time;
        hasTime = true;
      }
  }
  std::cout << "log " << path << "\n";
  std::cout << "frames: " << frames << " (frame numbers " << first << " .. " << last << ")\n";
  if (hasTime) std::cout << "duration: " << (lastTime - firstTime) << " s\n";
  std::cout << "closed properly: "
            << (decoder.reader().sawEnd() ? "yes" : "no (cut off: read to its last complete chunk)")
            << "\nrepresentations:\n";
  for (const auto& entry : decoder.reader().typeTable().entries)
  {
    const auto undecodable = decoder.undecodable().find(entry.name);
    std::cout << "  " << entry.name
              << (undecodable == decoder.undecodable().end()
                      ? ""
                      : "  (cannot decode: " + undecodable->second + ")")
              << "\n";
  }
  logtool::printMetadataSummary(LogMetadata::fromAnnotations(decoder.reader().annotations()), std::cout);
  for (const auto& annotation : decoder.reader().annotations())
  {
    if (LogMetadata::isMetadata(annotation.text)) continue;
    std::optional<LoggedNote> note;
    try
    {
      note = parseNoteAnnotation(annotation.text);
    }
    catch (const std::exception& error)
    {
      std::cerr << "warning: annotation @" << annotation.offset << ": " << error.what() << "\n";
    }
    if (note)
      std::cout << "note at frame " << note->frame << ": " << note->text << "\n";
    else
      std::cout << "annotation @" << annotation.offset << ": " << annotation.text << "\n";
  }
  printWarnings(decoder);
  return 0;
}

int csv(const std::string& path, const std::vector<std::string>& fields)
{
  LogDecoder decoder(path);
  const auto& registry = RepresentationRegistry::instance();
  const auto wanted = [&](const std::string& full)
  {
    return std::any_of(fields.begin(), fields.end(),
                       [&](const std::string& prefix) {
                         return full == prefix || full.starts_with(prefix + ".") ||
                                full.starts_with(prefix + "[");
                       });
  };
  // The header comes from the log's type table: every field of every logged representation this binary decodes,
  // whatever the first frame holds. A frame without a representation leaves its cells empty.
  std::vector<std::string> header;
  std::map<std::string, std::size_t> column;
  std::vector<std::string> undecodableWanted;
  for (const auto& entry : decoder.reader().typeTable().entries)
  {
    if (const auto reason = decoder.undecodable().find(entry.name); reason != decoder.undecodable().end())
    {
      if (wanted(entry.name) ||
          std::any_of(fields.begin(), fields.end(),
                      [&](const std::string& prefix) { return prefix.starts_with(entry.name + "."); }))
        undecodableWanted.push_back(entry.name + " (" + reason->second + ")");
      continue;
    }
    const int id = registry.find(entry.name);
    for (const FieldDescription& field : registry.info(static_cast<RepresentationId>(id)).fields)
      if (const std::string full = entry.name + "." + field.path; wanted(full) && !column.contains(full))
      {
        column.emplace(full, header.size());
        header.push_back(streams::labelWithUnit(full, field.unit));
      }
  }
  if (header.empty())
  {
    std::cerr << "LogTool csv: no field of the log matches";
    for (const auto& prefix : fields)
      std::cerr << " '" << prefix << "'";
    for (const auto& name : undecodableWanted)
      std::cerr << "; cannot decode " << name;
    std::cerr
        << " (use Representation.field, e.g. JointSensorData.currents.LKneePitch; `LogTool info` lists the "
           "representations)\n";
    return 2;
  }
  std::cout << "frame";
  for (const std::string& name : header)
    std::cout << "," << name;
  std::cout << "\n";
  std::vector<DecodedRecord> records;
  std::vector<std::string> cells(header.size());
  std::uint32_t frameNumber = 0;
  while (decoder.next(frameNumber, records))
  {
    std::fill(cells.begin(), cells.end(), std::string());
    for (const auto& record : records)
    {
      if (!record.object) continue;
      const int id = registry.find(record.name);
      for (auto& [leaf, value] : registry.info(static_cast<RepresentationId>(id)).values(record.object.get()))
        if (auto found = column.find(record.name + "." + leaf); found != column.end())
          cells[found->second] = std::move(value);
    }
    std::cout << frameNumber;
    for (const std::string& cell : cells)
      std::cout << "," << cell;
    std::cout << "\n";
  }
  printWarnings(decoder);
  return 0;
}

int dump(const std::string& path, std::uint32_t wantedFrame)
{
  LogDecoder decoder(path);
  std::vector<DecodedRecord> records;
  std::uint32_t frameNumber = 0;
  while (decoder.next(frameNumber, records))
  {
    if (frameNumber != wantedFrame) continue;
    std::cout << "frame " << frameNumber << "\n";
    for (const auto& record : records)
    {
      std::cout << record.name << ":\n";
      if (!record.object)
      {
        std::cout << "  (cannot decode: " << record.error << ")\n";
        continue;
      }
      const int id = RepresentationRegistry::instance().find(record.name);
      for (const FieldValue& field :
           fieldValues(RepresentationRegistry::instance().info(static_cast<RepresentationId>(id)),
                       record.object.get()))
        std::cout << "  " << field.label() << " = " << field.text << "\n";
    }
    printWarnings(decoder);
    return 0;
  }
  std::cerr << "LogTool dump: frame " << wantedFrame << " is not in " << path << "\n";
  printWarnings(decoder);
  return 2;
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Reads the robot's logs"};
  app.require_subcommand(1);
  std::string path;
  std::vector<std::string> fields;
  std::uint32_t frame = 0;
  auto* infoCommand = app.add_subcommand("info", "representations, frames and duration of a log");
  infoCommand->add_option("log", path, "log file")->required()->check(CLI::ExistingFile);
  auto* csvCommand = app.add_subcommand(
      "csv", "time series of fields as CSV on standard output; headers carry units: currents.LKneePitch [A]");
  csvCommand->add_option("log", path, "log file")->required()->check(CLI::ExistingFile);
  csvCommand->add_option("fields", fields, "Representation.field prefixes, e.g. JointSensorData.currents")
      ->required();
  auto* dumpCommand = app.add_subcommand("dump", "every representation of one frame");
  dumpCommand->add_option("log", path, "log file")->required()->check(CLI::ExistingFile);
  dumpCommand->add_option("frame", frame, "frame number")->required();
  auto* thermalCommand = app.add_subcommand(
      "thermal", "each joint's fitted thermal model and forecast to statuses 1-3 (JointThermalState)");
  std::vector<std::string> thermalLogs;
  thermalCommand
      ->add_option("logs", thermalLogs,
                   "log files; several: one line per log (hottest joint, minutes left, limiting joint, rest)")
      ->required()
      ->check(CLI::ExistingFile);
  float restBelow = defaultRestBelowMinutes;
  thermalCommand
      ->add_option(
          "--rest-below", restBelow,
          "min: 'rest' below this, for a log without ThermalBudget (ThermalBudgetProvider's restBelow)")
      ->check(CLI::Range(0.0, 120.0));
  std::optional<std::filesystem::path> overlay;
  thermalCommand->add_option(
      "--overlay", overlay,
      "also write the thresholds the robot taught, its settled node gains and its ambient into this overlay "
      "of JointThermalStateProvider (Config/Robots/<robot>/Modules/JointThermalStateProvider.toml)");
  std::optional<std::uint32_t> parametersFrame;
  auto* parametersCommand = app.add_subcommand(
      "parameters",
      "every module's parameters (TOML, file units) in force at a frame, as the log recorded them");
  parametersCommand->add_option("log", path, "log file")->required()->check(CLI::ExistingFile);
  parametersCommand->add_option("frame", parametersFrame, "frame number (default: the log's first)");
  CLI11_PARSE(app, argc, argv);
  try
  {
    if (*infoCommand) return info(path);
    if (*csvCommand) return csv(path, fields);
    if (*parametersCommand) return logtool::printParameters(path, parametersFrame);
    if (*thermalCommand && thermalLogs.size() > 1 && overlay)
    {
      std::cerr << "LogTool thermal: --overlay writes what one robot taught: give one log\n";
      return 1;
    }
    if (*thermalCommand && thermalLogs.size() > 1) return printThermalBudgets(thermalLogs, restBelow);
    if (*thermalCommand) return printThermal(thermalLogs.front(), overlay, restBelow);
    return dump(path, frame);
  }
  catch (const std::exception& error)
  {
    std::cerr << "LogTool: " << error.what() << "\n";
    return 1;
  }
}
