#include "Util/Simulator/Run/RunRecorder.h"
#include "Representations/Infrastructure/Joints.h"
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace nao
{
namespace
{
using streams::Unit;

template<auto Member>
constexpr RunColumn jointColumn(const char* name, Unit unit)
{
  return {name, unit, true,
          [](const RunSample& s, std::size_t j) { return static_cast<double>((s.*Member)[j]); },
          [](RunSample& s, std::size_t j, double v)
          { (s.*Member)[j] = static_cast<std::remove_reference_t<decltype((s.*Member)[j])>>(v); }};
}

template<auto Member>
constexpr RunColumn singleColumn(const char* name, Unit unit)
{
  return {name, unit, false, [](const RunSample& s, std::size_t) { return static_cast<double>(s.*Member); },
          [](RunSample& s, std::size_t, double v)
          { s.*Member = static_cast<std::remove_reference_t<decltype(s.*Member)>>(v); }};
}

const RunColumn columns[] = {
    singleColumn<&RunSample::time>("time", Unit::seconds),
    jointColumn<&RunSample::currents>("current", Unit::amperes),
    jointColumn<&RunSample::temperatures>("temperature", Unit::degreesCelsius),
    jointColumn<&RunSample::status>("status", Unit::none),
    jointColumn<&RunSample::stiffnessCommands>("stiffness", Unit::none),
    jointColumn<&RunSample::angles>("angle", Unit::radians),
    jointColumn<&RunSample::angleErrors>("angleError", Unit::radians),
    singleColumn<&RunSample::torsoHeight>("torsoHeight", Unit::meters),
    singleColumn<&RunSample::fsrTotal>("fsrTotal", Unit::kilograms),
    singleColumn<&RunSample::upperBodyOnGround>("upperBodyOnGround", Unit::none),
    {"footForce.left", Unit::newtons, false,
     [](const RunSample& s, std::size_t) { return double(s.footForces[0]); },
     [](RunSample& s, std::size_t, double v) { s.footForces[0] = static_cast<float>(v); }},
    {"footForce.right", Unit::newtons, false,
     [](const RunSample& s, std::size_t) { return double(s.footForces[1]); },
     [](RunSample& s, std::size_t, double v) { s.footForces[1] = static_cast<float>(v); }},
};

std::string labelOf(const RunColumn& column, std::size_t joint)
{
  const std::string name = column.perJoint ? std::string(column.name) + "." + std::string(jointNames[joint])
                                           : std::string(column.name);
  return streams::labelWithUnit(name, streams::unitSymbol(column.unit));
}

/// 1-based gnuplot column of a quantity (and joint) in the CSV.
int columnNumber(const char* name, std::size_t joint)
{
  int number = 1;
  for (const RunColumn& column : columns)
  {
    if (std::string_view(column.name) == name)
      return number + (column.perJoint ? static_cast<int>(joint) : 0);
    number += column.perJoint ? static_cast<int>(numOfJoints) : 1;
  }
  throw std::logic_error(std::string("no run column ") + name);
}

std::vector<std::string> split(const std::string& line)
{
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');)
    fields.push_back(field);
  return fields;
}

[[noreturn]] void fail(const std::filesystem::path& file, int line, const std::string& what)
{
  throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + what);
}

/// Text for a gnuplot string in single quotes, where a quote is written twice.
std::string gnuplotText(const std::string& text)
{
  std::string quoted;
  for (char c : text)
    quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted;
}

/// One hue per joint of a panel (by its name without the side letter), dark for the left joint and the head,
/// light for the right one: every curve of a panel has its own colour, and a joint's pair shares its hue.
struct Hue
{
  const char* dark;
  const char* light;
};
constexpr Hue hues[] = {{"#1f77b4", "#8cc4ea"}, {"#d95f02", "#fdae6b"}, {"#2ca02c", "#98df8a"},
                        {"#d62728", "#ff9896"}, {"#6a3d9a", "#c5b0d5"}, {"#8c564b", "#c49c94"},
                        {"#17becf", "#9edae5"}, {"#555555", "#b0b0b0"}};

/// Character widths left and right of every panel (gnuplot's lmargin and rmargin): room for the tick labels and
/// the longest legend entry ("LShoulderPitch"), the same in every panel.
constexpr struct
{
  int left = 12, right = 24;
} plotMargins;

/// How many joints' columns one datablock holds: gnuplot's `with table` writes at most 14 columns, time and 13.
constexpr std::size_t jointsPerBlock = 13;

/// The joints of a panel (legs, or head and arms) in LoLA order.
std::vector<std::size_t> panelJoints(bool legs)
{
  std::vector<std::size_t> joints;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (isLegJoint(jointAt(j)) == legs) joints.push_back(j);
  return joints;
}

std::string blockName(const char* quantity, bool legs, std::size_t block)
{
  return std::string("$") + quantity + (legs ? "_legs_" : "_others_") + std::to_string(block);
}

/// Copies a panel's columns of one quantity from the CSV into datablocks of at most jointsPerBlock joints: the
/// CSV's 155 columns are read once per block instead of once per curve, which halves the time the plots take.
std::string tableClause(const std::string& csv, const char* quantity, bool legs)
{
  const std::vector<std::size_t> joints = panelJoints(legs);
  std::string clause;
  for (std::size_t first = 0; first < joints.size(); first += jointsPerBlock)
  {
    clause += "set table " + blockName(quantity, legs, first / jointsPerBlock) + "\nplot '" + csv +
              "' skip 1 using 1";
    for (std::size_t k = first; k < std::min(joints.size(), first + jointsPerBlock); ++k)
      clause += ":" + std::to_string(columnNumber(quantity, joints[k]));
    clause += " with table\nunset table\n";
  }
  return clause;
}

std::string plotClause(const char* quantity, bool legs, double scale)
{
  std::vector<std::string> bases; // hue order within the panel
  std::string clause;
  const std::vector<std::size_t> joints = panelJoints(legs);
  for (std::size_t k = 0; k < joints.size(); ++k)
  {
    const std::string name(jointNames[joints[k]]);
    const bool right = name.front() == 'R';
    const std::string base = (name.front() == 'L' || right) ? name.substr(1) : name;
    auto at = std::find(bases.begin(), bases.end(), base);
    if (at == bases.end()) at = bases.insert(bases.end(), base);
    const Hue& hue = hues[static_cast<std::size_t>(at - bases.begin()) % std::size(hues)];
    clause += std::string(clause.empty() ? "plot " : ", ") + blockName(quantity, legs, k / jointsPerBlock) +
              " using 1:($" + std::to_string(k % jointsPerBlock + 2) + "*" + std::to_string(scale) +
              ") with lines lw 2 lc rgb '" + (right ? hue.light : hue.dark) + "' dt " + (right ? "2" : "1") +
              " title '" + name + "'";
  }
  return clause + "\n";
}

/// Text for a shell string in single quotes: a quote ends it, is escaped and starts it again.
std::string shellQuoted(const std::string& text)
{
  std::string quoted;
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted;
}

} // namespace

std::span<const RunColumn> runColumns()
{
  return columns;
}

std::vector<std::string> runCsvHeader()
{
  std::vector<std::string> header;
  for (const RunColumn& column : columns)
    for (std::size_t j = 0; j < (column.perJoint ? numOfJoints : 1); ++j)
      header.push_back(labelOf(column, j));
  return header;
}

void writeCsv(const std::filesystem::path& file, const std::vector<RunSample>& samples)
{
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  const std::vector<std::string> header = runCsvHeader();
  for (std::size_t c = 0; c < header.size(); ++c)
    out << (c ? "," : "") << header[c];
  out << "\n";
  for (const RunSample& sample : samples)
  {
    bool first = true;
    for (const RunColumn& column : columns)
      for (std::size_t j = 0; j < (column.perJoint ? numOfJoints : 1); ++j)
      {
        out << (first ? "" : ",") << column.get(sample, j);
        first = false;
      }
    out << "\n";
  }
}

std::vector<RunSample> readSamples(const std::filesystem::path& csv)
{
  std::ifstream in(csv);
  if (!in) throw std::runtime_error("cannot read " + csv.string());
  std::string text;
  if (!std::getline(in, text)) fail(csv, 1, "empty");
  const std::vector<std::string> labels = split(text);
  std::map<std::string, std::size_t> position;
  for (std::size_t c = 0; c < labels.size(); ++c)
    position[labels[c]] = c;
  struct Source
  {
    const RunColumn* column;
    std::size_t joint, field;
  };
  std::vector<Source> sources;
  for (const RunColumn& column : columns)
    for (std::size_t j = 0; j < (column.perJoint ? numOfJoints : 1); ++j)
    {
      const auto found = position.find(labelOf(column, j));
      if (found == position.end())
        fail(csv, 1, "no column '" + labelOf(column, j) + "' (a CSV of an older simulator?)");
      sources.push_back({&column, j, found->second});
    }
  std::vector<RunSample> samples;
  int line = 1;
  while (std::getline(in, text))
  {
    ++line;
    const std::vector<std::string> fields = split(text);
    if (fields.size() != labels.size())
      fail(csv, line,
           "has " + std::to_string(fields.size()) + " fields, the header " + std::to_string(labels.size()));
    RunSample sample;
    for (const Source& source : sources)
    {
      const std::string& field = fields[source.field];
      double value = 0;
      const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
      if (error != std::errc() || end != field.data() + field.size())
        fail(csv, line, "'" + field + "' is not a number");
      source.column->set(sample, source.joint, value);
    }
    samples.push_back(sample);
  }
  return samples;
}

std::string plotScript(const std::filesystem::path& csv, const std::string& title,
                       const std::vector<ScriptEvent>& events, std::vector<std::filesystem::path>& pngs,
                       const std::optional<FaultEvent>& fault, const std::vector<ControlRecord>& controls)
{
  struct Plot
  {
    const char* name;
    const char* quantity;
    const char* label;
    double scale;
    const char* yrange; ///< gnuplot range, "" for automatic
  };
  constexpr double degreesPerRadian = 180.0 / std::numbers::pi;
  const Plot plots[] = {
      {"currents", "current", "current (mA)", 1000.0, ""},
      {"temperatures", "temperature", "temperature (°C)", 1.0, ""},
      {"stiffness", "stiffness", "stiffness command (0..1)", 1.0, "[-0.05:1.15]"},
      {"angles", "angle", "measured angle, LoLA (deg)", degreesPerRadian, ""},
      {"errors", "angleError", "tracking error: request − measured (deg)", degreesPerRadian, ""}};
  std::ostringstream out;
  // The script names its files relative to its own folder: `gnuplot plots.gp` there draws the plots again.
  const std::string data = csv.filename().string();
  out << "set datafile separator ','\n";
  for (const Plot& plot : plots)
    out << tableClause(data, plot.quantity, true) << tableClause(data, plot.quantity, false);
  out << "set table $feet\nplot '" << data << "' skip 1 using 1:" << columnNumber("footForce.left", 0) << ":"
      << columnNumber("footForce.right", 0) << " with table\nunset table\n";
  out << "set datafile separator whitespace\nset key outside right top\nset xlabel 'simulated time (s)'\n"
      << "set grid\nset terminal pngcairo size 1400,900 font ',10'\n";
  // The same margins for every panel, whatever its tick labels and legend need: the panels' x axes, and the
  // events' lines across them, line up.
  out << "set lmargin " << plotMargins.left << "\nset rmargin " << plotMargins.right << "\n";
  // Room above the curves for the events' names (autoscaled axes; stiffness leaves it in its range).
  out << "set offsets 0, 0, graph 0.1, 0\n";
  // The scenario's events: a dotted vertical line in every panel, named at its top.
  std::vector<std::pair<double, std::string>> lines;
  for (const ScriptEvent& event : events)
    lines.emplace_back(event.time, eventLabel(event));
  if (fault)
  {
    lines.emplace_back(fault->onset, "sensor fault " + fault->name);
    if (fault->end >= 0) lines.emplace_back(fault->end, fault->name + " ends");
  }
  for (const ControlRecord& control : controls)
    lines.emplace_back(control.time, control.command);
  for (const auto& [time, label] : lines)
    out << "set arrow from " << time << ", graph 0 to " << time
        << ", graph 1 nohead dt 3 lw 1.5 lc rgb '#333333'\nset label '" << gnuplotText(label) << "' at "
        << time << ", graph 1 offset 0.5,-1 font ',9' tc rgb '#333333'\n";
  pngs.clear();
  for (const Plot& plot : plots)
  {
    const std::string png = std::string(plot.name) + ".png";
    out << "set output '" << png << "'\nset yrange " << (*plot.yrange ? plot.yrange : "[*:*]")
        << "\nset multiplot layout 2,1 title '" << gnuplotText(title) << "'\n"
        << "set ylabel '" << plot.label << "'\nset title 'leg joints'\n"
        << plotClause(plot.quantity, true, plot.scale) << "set title 'head and arm joints'\n"
        << plotClause(plot.quantity, false, plot.scale) << "unset multiplot\n";
    pngs.push_back(csv.parent_path() / png);
  }
  out << "set output 'feet.png'\nset yrange [*:*]\nset title '" << gnuplotText(title)
      << "'\nset ylabel 'ground force on the sole (N)'\nplot $feet using 1:2 with lines lw 2 lc rgb '"
      << hues[0].dark << "' title 'left foot', $feet using 1:3 with lines lw 2 lc rgb '" << hues[1].dark
      << "' title 'right foot'\n";
  pngs.push_back(csv.parent_path() / "feet.png");
  return out.str();
}

std::vector<std::filesystem::path> plotCsv(const std::filesystem::path& csv, const std::string& title,
                                           const std::vector<ScriptEvent>& events,
                                           const std::optional<FaultEvent>& fault,
                                           const std::vector<ControlRecord>& controls)
{
  std::vector<std::filesystem::path> written;
  const std::filesystem::path folder = csv.parent_path().empty() ? "." : csv.parent_path();
  std::ofstream(folder / "plots.gp") << plotScript(csv, title, events, written, fault, controls);
  const std::string command = "cd '" + shellQuoted(folder.string()) + "' && gnuplot plots.gp 2>plots.err";
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error("gnuplot failed (see " + (csv.parent_path() / "plots.err").string() +
                             "); is gnuplot-nox installed? Make/install-deps installs it");
  return written;
}
} // namespace nao
