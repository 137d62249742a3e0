// Ensemble tables, CSVs and the distribution figure (Ensemble.h).
#include "Util/Simulator/Run/Ensemble.h"

#include "Representations/Infrastructure/Joints.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace nao
{
namespace
{
/// What the table shows of one robot.
struct RobotFigures
{
  std::string worstLeg;       ///< the leg joint with the highest current
  double maxLegCurrent = 0;   ///< A
  double finalLegCurrent = 0; ///< A, highest over the leg joints of the last 10 s' mean
  double legsBelowAfter = -1; ///< s
  double hottest = 0;         ///< °C, highest final temperature
  int status = 0;             ///< highest status
  double firstHot = -1;       ///< s, earliest status 1 of any joint
  double energy = 0;          ///< J, all motors
  double lowestTorso = 0;     ///< m
};

RobotFigures figuresOf(const SimulationResult& run)
{
  RobotFigures f;
  f.legsBelowAfter = run.legsBelowHeatingAfter;
  f.lowestTorso = run.minTorsoHeight;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const JointSummary& joint = run.joints[j];
    if (isLegJoint(jointAt(j)))
    {
      if (joint.maxCurrent > f.maxLegCurrent)
      {
        f.maxLegCurrent = joint.maxCurrent;
        f.worstLeg = std::string(jointNames[j]);
      }
      f.finalLegCurrent = std::max(f.finalLegCurrent, joint.finalCurrent);
    }
    f.hottest = std::max(f.hottest, joint.finalTemperature);
    f.status = std::max(f.status, joint.maxStatus);
    if (joint.hotAfter >= 0 && (f.firstHot < 0 || joint.hotAfter < f.firstHot)) f.firstHot = joint.hotAfter;
    f.energy += joint.energy;
  }
  return f;
}

std::string seconds(double value)
{
  if (value < 0) return "never";
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", value);
  return text;
}

/// Per sample index: highest leg current (mA) and highest leg temperature (°C) of each robot.
struct Band
{
  std::vector<double> time;
  std::vector<double> current[3], temperature[3]; ///< 10 %, 50 %, 90 %
};

Band bandOf(const EnsembleReport& report)
{
  Band band;
  std::size_t samples = report.robots.front().samples.size();
  for (const RobotRun& robot : report.robots)
    samples = std::min(samples, robot.samples.size());
  for (std::size_t s = 0; s < samples; ++s)
  {
    std::vector<double> currents, temperatures;
    for (const RobotRun& robot : report.robots)
    {
      double current = 0, temperature = 0;
      for (std::size_t j = 0; j < numOfJoints; ++j)
        if (isLegJoint(jointAt(j)))
        {
          current = std::max(current, static_cast<double>(robot.samples[s].currents[j]));
          temperature = std::max(temperature, static_cast<double>(robot.samples[s].temperatures[j]));
        }
      currents.push_back(current * 1000.0);
      temperatures.push_back(temperature);
    }
    band.time.push_back(report.robots.front().samples[s].time);
    for (int k = 0; k < 3; ++k)
    {
      const double p = k == 0 ? 0.1 : k == 1 ? 0.5 : 0.9;
      band.current[k].push_back(percentile(currents, p));
      band.temperature[k].push_back(percentile(temperatures, p));
    }
  }
  return band;
}

void writeBand(const Band& band, const std::filesystem::path& file)
{
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << "time [s],highest leg current p10 [mA],p50 [mA],p90 [mA],highest leg temperature p10 [°C],p50 [°C],"
         "p90 [°C]\n";
  for (std::size_t s = 0; s < band.time.size(); ++s)
    out << band.time[s] << ',' << band.current[0][s] << ',' << band.current[1][s] << ',' << band.current[2][s]
        << ',' << band.temperature[0][s] << ',' << band.temperature[1][s] << ',' << band.temperature[2][s]
        << "\n";
}
} // namespace

std::string ensembleTable(const EnsembleReport& report)
{
  std::string text;
  char line[300];
  const char* format = "%-10s %-6s %-13s %9s %9s %11s %9s %6s %10s %9s %8s\n";
  std::snprintf(line, sizeof(line), format, "robot", "preset", "worst leg", "max mA", "final mA",
                "<300mA at s", "final °C", "status", "hot at s", "energy J", "torso m");
  text += line;
  std::vector<double> columns[8];
  for (const RobotRun& robot : report.robots)
  {
    const RobotFigures f = figuresOf(robot.summary);
    char values[8][32];
    std::snprintf(values[0], 32, "%.0f", f.maxLegCurrent * 1000);
    std::snprintf(values[1], 32, "%.0f", f.finalLegCurrent * 1000);
    std::snprintf(values[2], 32, "%s", seconds(f.legsBelowAfter).c_str());
    std::snprintf(values[3], 32, "%.0f", f.hottest);
    std::snprintf(values[4], 32, "%d", f.status);
    std::snprintf(values[5], 32, "%s", seconds(f.firstHot).c_str());
    std::snprintf(values[6], 32, "%.0f", f.energy);
    std::snprintf(values[7], 32, "%.3f", f.lowestTorso);
    std::snprintf(line, sizeof(line), format, ("seed " + std::to_string(robot.summary.seed)).c_str(),
                  robot.summary.preset.empty() ? "-" : robot.summary.preset.c_str(), f.worstLeg.c_str(),
                  values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]);
    text += line;
    const double figures[8] = {f.maxLegCurrent * 1000,
                               f.finalLegCurrent * 1000,
                               f.legsBelowAfter < 0 ? INFINITY : f.legsBelowAfter,
                               f.hottest,
                               static_cast<double>(f.status),
                               f.firstHot < 0 ? INFINITY : f.firstHot,
                               f.energy,
                               f.lowestTorso};
    for (int c = 0; c < 8; ++c)
      columns[c].push_back(figures[c]);
  }
  for (const double p : {0.1, 0.5, 0.9})
  {
    char values[8][32];
    for (int c = 0; c < 8; ++c)
    {
      const double value = percentile(columns[c], p);
      if (std::isinf(value))
        std::snprintf(values[c], 32, "never");
      else
        std::snprintf(values[c], 32, c == 7 ? "%.3f" : c == 2 || c == 5 ? "%.1f" : "%.0f", value);
    }
    std::snprintf(line, sizeof(line), format, ("p" + std::to_string(static_cast<int>(p * 100))).c_str(), "",
                  "", values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]);
    text += line;
  }
  return text;
}

std::filesystem::path writeEnsembleFiles(const EnsembleReport& report, const std::filesystem::path& folder)
{
  std::ofstream out(folder / "ensemble.csv");
  if (!out) throw std::runtime_error("cannot write " + (folder / "ensemble.csv").string());
  out << "seed,preset,legsBelow300mAAfter [s],energy [J],lowestTorso [m]";
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (isLegJoint(jointAt(j)))
      out << ",maxCurrent." << jointNames[j] << " [A],finalCurrent." << jointNames[j] << " [A],finalError."
          << jointNames[j] << " [rad],finalTemperature." << jointNames[j] << " [°C],maxStatus."
          << jointNames[j] << ",hotAfter." << jointNames[j] << " [s]";
  out << "\n";
  for (const RobotRun& robot : report.robots)
  {
    const SimulationResult& run = robot.summary;
    out << run.seed << ',' << run.preset << ',' << run.legsBelowHeatingAfter << ',' << figuresOf(run).energy
        << ',' << run.minTorsoHeight;
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (isLegJoint(jointAt(j)))
        out << ',' << run.joints[j].maxCurrent << ',' << run.joints[j].finalCurrent << ','
            << run.joints[j].finalError << ',' << run.joints[j].finalTemperature << ','
            << run.joints[j].maxStatus << ',' << run.joints[j].hotAfter;
    out << "\n";
  }
  out.close();
  writeBand(bandOf(report), folder / "distribution.csv");
  const auto png = folder / "distribution.png";
  plotEnsembles({report}, {""}, png,
                report.scenario + ", " + std::to_string(report.robots.size()) + " simulated robots");
  return png;
}

void plotEnsembles(const std::vector<EnsembleReport>& reports, const std::vector<std::string>& labels,
                   const std::filesystem::path& png, const std::string& title)
{
  static const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
  const auto script = png.parent_path() / (png.stem().string() + ".gp");
  std::vector<std::filesystem::path> bands;
  for (std::size_t r = 0; r < reports.size(); ++r)
  {
    bands.push_back(png.parent_path() / (png.stem().string() + "-" + std::to_string(r) + ".csv"));
    writeBand(bandOf(reports[r]), bands.back());
  }
  std::ofstream out(script);
  out << "set datafile separator ','\nset terminal pngcairo size 1400,900 font ',10'\nset output '"
      << png.string() << "'\nset multiplot layout 2,1 title '" << title
      << ": median and 10-90 % of the robots'\n"
      << "set grid\nset key outside right top\nset lmargin 12\nset rmargin 38\nset xlabel 'simulated time "
         "(s)'\n"
      << "set ylabel 'highest leg current (mA)'\nset logscale y\nset yrange [5:*]\n";
  for (int panel = 0; panel < 2; ++panel)
  {
    if (panel == 1) out << "unset logscale y\nset yrange [*:*]\nset ylabel 'highest leg temperature (°C)'\n";
    const int low = panel == 0 ? 2 : 5;
    out << "plot ";
    for (std::size_t r = 0; r < reports.size(); ++r)
    {
      const std::string label = labels[r].empty() ? "" : labels[r] + ": ";
      const char* colour = colours[r % std::size(colours)];
      out << (r ? ", " : "") << "'" << bands[r].string() << "' skip 1 using 1:" << low << ":" << low + 2
          << " with filledcurves fs transparent solid 0.25 noborder lc rgb '" << colour << "' title '"
          << label << "10-90 %', '" << bands[r].string() << "' skip 1 using 1:" << low + 1
          << " with lines lw 2 lc rgb '" << colour << "' title '" << label << "median'";
    }
    if (panel == 0) out << ", 300 with lines dt 2 lc rgb '#888888' title '300 mA'";
    if (panel == 1) out << ", 76 with lines dt 2 lc rgb '#888888' title 'status 1 (76 °C)'";
    out << "\n";
  }
  out << "unset multiplot\n";
  out.close();
  const std::string command = "gnuplot '" + script.string() + "' 2>'" + script.string() + ".err'";
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error("gnuplot failed (see " + script.string() +
                             ".err); is gnuplot-nox installed? Make/install-deps installs it");
}
} // namespace nao
