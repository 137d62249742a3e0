#include "Util/Simulator/Run/RunRecorder.h"
#include "Representations/Infrastructure/Joints.h"
#include <cstdlib>
#include <fstream>
#include <functional>
#include <stdexcept>

namespace nao
{
void writeCsv(const std::filesystem::path& file, const std::vector<RunSample>& samples)
{
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << "time";
  for (const char* quantity : {"current", "temperature", "status", "stiffness"})
    for (std::string_view joint : jointNames)
      out << "," << quantity << "." << joint;
  out << ",torsoHeight,fsrTotal\n";
  for (const RunSample& sample : samples)
  {
    out << sample.time;
    for (float value : sample.currents)
      out << "," << value;
    for (float value : sample.temperatures)
      out << "," << value;
    for (int value : sample.status)
      out << "," << value;
    for (float value : sample.stiffnessCommands)
      out << "," << value;
    out << "," << sample.torsoHeight << "," << sample.fsrTotal << "\n";
  }
}

namespace
{
/// gnuplot `plot` clause for the given joints of one quantity block (columns start at 2 + block * 25). A
/// joint and its mirror share a colour; right-side joints are dashed.
std::string plotClause(const std::string& csv, int block, bool legs, double scale)
{
  static const char* const colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  std::string clause;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (isLegJoint(jointAt(j)) != legs) continue;
    const std::string name(jointNames[j]);
    const bool right = name.front() == 'R';
    // The mirror's name without the side letter picks the colour, so LKneePitch and RKneePitch match.
    const std::string base = (name.front() == 'L' || right) ? name.substr(1) : name;
    const std::size_t colour = std::hash<std::string>{}(base) % std::size(colours);
    const int column = 2 + block * 25 + static_cast<int>(j);
    clause += std::string(clause.empty() ? "plot " : ", ") + "'" + csv + "' using 1:($" +
              std::to_string(column) + "*" + std::to_string(scale) + ") with lines lw 2 lc rgb '" +
              colours[colour] + "' dt " + (right ? "2" : "1") + " title '" + name + "'";
  }
  return clause + "\n";
}
} // namespace

std::vector<std::filesystem::path> plotCsv(const std::filesystem::path& csv, const std::string& title)
{
  struct Plot
  {
    const char* name;
    int block;
    const char* label;
    double scale;
  };
  const Plot plots[] = {{"currents", 0, "current (mA)", 1000.0},
                        {"temperatures", 1, "temperature (°C)", 1.0},
                        {"stiffness", 3, "stiffness command (0..1)", 1.0}};
  std::vector<std::filesystem::path> written;
  const auto script = csv.parent_path() / "plots.gp";
  std::ofstream out(script);
  out << "set datafile separator ','\nset key outside right top\nset xlabel 'simulated time (s)'\nset grid\n"
      << "set terminal pngcairo size 1400,900 font ',10'\n";
  for (const Plot& plot : plots)
  {
    const auto png = csv.parent_path() / (std::string(plot.name) + ".png");
    out << "set output '" << png.string() << "'\nset multiplot layout 2,1 title '" << title << "'\n"
        << "set ylabel '" << plot.label << "'\nset title 'leg joints'\n"
        << plotClause(csv.string(), plot.block, true, plot.scale) << "set title 'head and arm joints'\n"
        << plotClause(csv.string(), plot.block, false, plot.scale) << "unset multiplot\n";
    written.push_back(png);
  }
  out.close();
  const std::string command =
      "gnuplot '" + script.string() + "' 2>'" + (csv.parent_path() / "plots.err").string() + "'";
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error("gnuplot failed (see " + (csv.parent_path() / "plots.err").string() +
                             "); is gnuplot-nox installed? Make/install-deps installs it");
  return written;
}
} // namespace nao
