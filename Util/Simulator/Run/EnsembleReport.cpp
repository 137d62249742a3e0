// Ensemble tables, CSVs and the distribution figure (Ensemble.h).
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/HeatFigures.h"
#include "Util/Simulator/Run/TextTable.h"

#include "Representations/Infrastructure/Joints.h"

#include <algorithm>
#include <array>
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
  HeatFigures heat;           ///< from the samples
  double hottest = 0;         ///< °C, highest final temperature
  int status = 0;             ///< highest status
  double firstHot = -1;       ///< s, earliest status 1 of any joint
  double energy = 0;          ///< J, all motors
  double lowestTorso = 0;     ///< m
};

RobotFigures figuresOf(const SimulationResult& run, const std::vector<RunSample>& samples = {})
{
  RobotFigures f;
  f.heat = heatFigures(samples, run.holdStart);
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

/// Text for a gnuplot string in single quotes, where a quote is written twice.
std::string gnuplotText(const std::string& text)
{
  std::string quoted;
  for (char c : text)
    quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted;
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

/// Runs gnuplot on `script`; throws naming its error file if it fails.
void runGnuplot(const std::filesystem::path& script)
{
  const std::string command = "gnuplot '" + script.string() + "' 2>'" + script.string() + ".err'";
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error("gnuplot failed (see " + script.string() +
                             ".err); is gnuplot-nox installed? Make/install-deps installs it");
}

/// Each robot's highest leg current (mA) and highest leg temperature (°C) over time into `csv`: time in column 1,
/// then the robots' currents, then their temperatures (robot r's current in column 2 + r).
void writeRobotCurves(const EnsembleReport& report, const std::filesystem::path& csv)
{
  std::size_t samples = report.robots.front().samples.size();
  for (const RobotRun& robot : report.robots)
    samples = std::min(samples, robot.samples.size());
  std::ofstream out(csv);
  if (!out) throw std::runtime_error("cannot write " + csv.string());
  out << "time [s]";
  for (const char* quantity : {"highest leg current [mA]", "highest leg temperature [°C]"})
    for (const RobotRun& robot : report.robots)
      out << ",seed " << robot.summary.seed << ' ' << quantity;
  out << "\n";
  for (std::size_t s = 0; s < samples; ++s)
  {
    out << report.robots.front().samples[s].time;
    for (const bool current : {true, false})
      for (const RobotRun& robot : report.robots)
      {
        double highest = 0;
        for (std::size_t j = 0; j < numOfJoints; ++j)
          if (isLegJoint(jointAt(j)))
            highest = std::max(highest, static_cast<double>(current ? robot.samples[s].currents[j] * 1000.f
                                                                    : robot.samples[s].temperatures[j]));
        out << ',' << highest;
      }
    out << "\n";
  }
}

/// Fewer robots than percentiles need: each robot's highest leg current and temperature over time, a curve each,
/// into `csv` and `png`.
void plotRobots(const EnsembleReport& report, const std::filesystem::path& csv,
                const std::filesystem::path& png, const std::string& title)
{
  static const char* const colours[] = {"#1f77b4", "#d95f02", "#2ca02c", "#d62728", "#6a3d9a",
                                        "#8c564b", "#17becf", "#555555", "#e7298a"};
  writeRobotCurves(report, csv);
  const auto script = png.parent_path() / (png.stem().string() + ".gp");
  std::ofstream gp(script);
  gp << "set datafile separator ','\nset terminal pngcairo size 1400,900 font ',10'\nset output '"
     << png.string() << "'\nset multiplot layout 2,1 title '" << gnuplotText(title)
     << ": each robot (percentiles from " << percentileRobots << " robots on)'\n"
     << "set grid\nset key outside right top\nset lmargin 12\nset rmargin 38\nset xlabel 'simulated time "
        "(s)'\n"
     << "set ylabel 'highest leg current (mA)'\nset logscale y\nset yrange [5:*]\n";
  const std::size_t robots = report.robots.size();
  for (int panel = 0; panel < 2; ++panel)
  {
    if (panel == 1) gp << "unset logscale y\nset yrange [*:*]\nset ylabel 'highest leg temperature (°C)'\n";
    gp << "plot ";
    for (std::size_t r = 0; r < robots; ++r)
      gp << (r ? ", " : "") << "'" << csv.string() << "' skip 1 using 1:" << 2 + r + panel * robots
         << " with lines lw 2 lc rgb '" << colours[r % std::size(colours)] << "' title 'seed "
         << report.robots[r].summary.seed << (report.robots[r].summary.preset.empty() ? "" : " ")
         << report.robots[r].summary.preset << "'";
    gp << (panel == 0 ? ", 300 with lines dt 2 lc rgb '#888888' title '300 mA'"
                      : ", 76 with lines dt 2 lc rgb '#888888' title 'status 1 (76 °C)'")
       << "\n";
  }
  gp << "unset multiplot\n";
  gp.close();
  runGnuplot(script);
}
} // namespace

std::vector<std::string> ensembleColumnLabels()
{
  using streams::labelWithUnit, streams::unitSymbol, streams::Unit;
  const std::string mA(unitSymbol(Unit::milliamperes)), s(unitSymbol(Unit::seconds));
  return {"robot",
          "preset",
          "worst leg joint",
          labelWithUnit("its highest current", mA),
          labelWithUnit("highest leg current, last 10 s", mA),
          labelWithUnit("all leg joints below 300 mA after hold", s),
          labelWithUnit("80 % of leg joints below 50 mA after hold", s),
          labelWithUnit("time a leg joint was at 300 mA or more", unitSymbol(Unit::percent)),
          labelWithUnit("hottest joint at the end", unitSymbol(Unit::degreesCelsius)),
          "highest status",
          labelWithUnit("first status 1 at", s),
          labelWithUnit("motor energy", unitSymbol(Unit::joules)),
          labelWithUnit("lowest torso height", unitSymbol(Unit::meters))};
}

std::string ensembleTable(const EnsembleReport& report)
{
  // Columns (ensembleColumnLabels): the worst leg joint's highest current and the highest leg current of the last
  // 10 s; once the posture is held, the first moment every leg joint is below 300 mA and 80 % of them below 50 mA,
  // and the share of the time from 10 s on with a leg joint at 300 mA or more; the hottest final temperature,
  // highest status and first status 1; all motors' energy; the lowest torso height.
  constexpr int count = 10;
  std::vector<double> columns[count];
  auto orInfinity = [](double value) { return value < 0 ? INFINITY : value; };
  for (const RobotRun& robot : report.robots)
  {
    const RobotFigures f = figuresOf(robot.summary, robot.samples);
    const double figures[count] = {f.maxLegCurrent * 1000,
                                   f.finalLegCurrent * 1000,
                                   orInfinity(f.heat.allLegsBelowHeating),
                                   orInfinity(f.heat.mostLegsQuiet),
                                   f.heat.shareAboveHeatingLater * 100,
                                   f.hottest,
                                   static_cast<double>(f.status),
                                   orInfinity(f.firstHot),
                                   f.energy,
                                   f.lowestTorso};
    for (int c = 0; c < count; ++c)
      columns[c].push_back(figures[c]);
  }
  auto cell = [](int c, double value)
  {
    char text[32];
    if (std::isinf(value))
      std::snprintf(text, sizeof(text), "never");
    else
      std::snprintf(text, sizeof(text),
                    c == 9                                 ? "%.3f"
                    : c == 2 || c == 3 || c == 4 || c == 7 ? "%.1f"
                                                           : "%.0f",
                    value);
    return std::string(text);
  };
  std::vector<std::vector<std::string>> rows;
  auto row = [&](const std::string& name, const std::string& preset, const std::string& worst,
                 const std::array<double, count>& values)
  {
    rows.push_back({name, preset, worst});
    for (int c = 0; c < count; ++c)
      rows.back().push_back(cell(c, values[c]));
  };
  for (std::size_t r = 0; r < report.robots.size(); ++r)
  {
    const RobotRun& robot = report.robots[r];
    std::array<double, count> values{};
    for (int c = 0; c < count; ++c)
      values[c] = columns[c][r];
    row("seed " + std::to_string(robot.summary.seed),
        robot.summary.preset.empty() ? "-" : robot.summary.preset, figuresOf(robot.summary).worstLeg, values);
  }
  // Percentiles of a few robots say no more than the rows above them, and look as if they did.
  const bool percentiles = report.robots.size() >= percentileRobots;
  if (percentiles)
    for (const double p : {0.1, 0.5, 0.9})
    {
      std::array<double, count> values{};
      for (int c = 0; c < count; ++c)
        values[c] = percentile(columns[c], p);
      row(p == 0.5 ? "median" : std::to_string(static_cast<int>(p * 100)) + "th percentile", "", "", values);
    }
  std::vector<TextColumn> labels;
  for (const std::string& label : ensembleColumnLabels())
    labels.push_back({label, labels.size() < 3});
  std::string text = textTable(labels, rows, 4);
  if (!percentiles && report.robots.size() > 1)
    text += "no percentiles: " + std::to_string(report.robots.size()) + " robots are too few (they need " +
            std::to_string(percentileRobots) + ")\n";
  return text;
}

std::filesystem::path writeEnsembleFiles(const EnsembleReport& report, const std::filesystem::path& folder)
{
  std::ofstream out(folder / "ensemble.csv");
  if (!out) throw std::runtime_error("cannot write " + (folder / "ensemble.csv").string());
  out << "seed,preset,legsBelow300mAAfter [s],holdStart [s],allLegsBelow300mA [s after holdStart],"
         "mostLegsBelow50mA [s after holdStart],shareAbove300mAFrom10s,legWarming [K],energy [J],lowestTorso "
         "[m]";
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (isLegJoint(jointAt(j)))
      out << ",maxCurrent." << jointNames[j] << " [A],finalCurrent." << jointNames[j] << " [A],finalError."
          << jointNames[j] << " [rad],finalTemperature." << jointNames[j] << " [°C],maxStatus."
          << jointNames[j] << ",hotAfter." << jointNames[j] << " [s]";
  out << "\n";
  for (const RobotRun& robot : report.robots)
  {
    const SimulationResult& run = robot.summary;
    const RobotFigures f = figuresOf(run, robot.samples);
    out << run.seed << ',' << run.preset << ',' << run.legsBelowHeatingAfter << ',' << run.holdStart << ','
        << f.heat.allLegsBelowHeating << ',' << f.heat.mostLegsQuiet << ',' << f.heat.shareAboveHeatingLater
        << ',' << f.heat.legWarming << ',' << f.energy << ',' << run.minTorsoHeight;
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (isLegJoint(jointAt(j)))
        out << ',' << run.joints[j].maxCurrent << ',' << run.joints[j].finalCurrent << ','
            << run.joints[j].finalError << ',' << run.joints[j].finalTemperature << ','
            << run.joints[j].maxStatus << ',' << run.joints[j].hotAfter;
    out << "\n";
  }
  out.close();
  const auto png = folder / "distribution.png";
  const std::string title =
      report.scenario + ", " + std::to_string(report.robots.size()) + " simulated robots";
  if (report.robots.size() >= percentileRobots)
  {
    writeBand(bandOf(report), folder / "distribution.csv");
    plotEnsembles({report}, {""}, png, title);
  }
  else
    plotRobots(report, folder / "distribution.csv", png, title);
  return png;
}

void plotEnsembles(const std::vector<EnsembleReport>& reports, const std::vector<std::string>& labels,
                   const std::filesystem::path& png, const std::string& title)
{
  static const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
  const auto script = png.parent_path() / (png.stem().string() + ".gp");
  // A folder with enough robots gets its band; one with fewer, a curve per robot (percentiles of a few robots would
  // draw a band that is not there), in the folder's colour, each robot's curve dashed its own way.
  std::vector<std::filesystem::path> bands;
  bool allBands = true;
  for (std::size_t r = 0; r < reports.size(); ++r)
  {
    bands.push_back(png.parent_path() / (png.stem().string() + "-" + std::to_string(r) + ".csv"));
    if (reports[r].robots.size() >= percentileRobots)
      writeBand(bandOf(reports[r]), bands.back());
    else
    {
      writeRobotCurves(reports[r], bands.back());
      allBands = false;
    }
  }
  std::ofstream out(script);
  out << "set datafile separator ','\nset terminal pngcairo size 1400,900 font ',10'\nset output '"
      << png.string() << "'\nset multiplot layout 2,1 title '" << gnuplotText(title)
      << (allBands ? ": median and 10-90 % of the robots'\n"
                   : ": median and 10-90 % of the robots, or each robot (fewer than " +
                         std::to_string(percentileRobots) + " robots)'\n")
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
      const std::string label = labels[r].empty() ? "" : gnuplotText(labels[r]) + ": ";
      const char* colour = colours[r % std::size(colours)];
      const std::size_t robots = reports[r].robots.size();
      if (robots < percentileRobots)
      {
        for (std::size_t robot = 0; robot < robots; ++robot)
          out << (r || robot ? ", " : "") << "'" << bands[r].string()
              << "' skip 1 using 1:" << 2 + robot + (panel == 0 ? 0 : robots) << " with lines lw 2 dt "
              << 1 + robot % 5 << " lc rgb '" << colour << "' title '" << label << "seed "
              << reports[r].robots[robot].summary.seed << "'";
        continue;
      }
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
  runGnuplot(script);
}
} // namespace nao
