// `Simulator matrix`'s Markdown (harmMatrixTable, HarmMatrix.h): the harm counts, the heat figures, the worn robots and
// every harm. Apart from HarmMatrix.cpp (the runs) to keep both files short.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/HarmMatrix.h"
#include "Util/Simulator/Run/HeatFigures.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace nao
{
namespace
{
/// What a cell shows of one robot.
struct CellFigures
{
  double allLegsBelowHeating = -1; ///< s after holdStart, −1: never
  double mostLegsQuiet = -1;       ///< s after holdStart, −1: never
  double legCurrent = 0;           ///< A, the leg joints' true currents summed, mean while held
  double worstJointCurrent = 0;    ///< A, the highest single joint's true mean current while held
  double energy = 0;               ///< J, all motors
  double hottest = 0;              ///< °C, highest final winding temperature
};

CellFigures figuresOf(const RobotRun& robot)
{
  CellFigures f;
  const HeatFigures heat = heatFigures(robot.samples, robot.summary.holdStart);
  f.allLegsBelowHeating = heat.allLegsBelowHeating;
  f.mostLegsQuiet = heat.mostLegsQuiet;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const JointSummary& joint = robot.summary.joints[j];
    if (isLegJoint(jointAt(j))) f.legCurrent += joint.heldMeanCurrent;
    f.worstJointCurrent = std::max(f.worstJointCurrent, joint.heldMeanCurrent);
    f.energy += joint.energy;
    f.hottest = std::max(f.hottest, joint.finalWinding);
  }
  return f;
}

std::string seconds(double value)
{
  if (value < 0) return "never";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", value);
  return text;
}

/// The median of times where "never" (−1) counts as longer than any time.
double medianTime(std::vector<double> values)
{
  for (double& value : values)
    if (value < 0) value = 1e12;
  const double median = percentile(values, 0.5);
  return median >= 1e11 ? -1 : median;
}

/// Robots of `stages` on which a joint's briefPeakCurrent exceeds the same robot's in `off` by the margin.
int briefExcesses(const MatrixCell& off, const MatrixCell& stages, const HarmMargin& margin)
{
  int robots = 0;
  for (const RobotRun& robot : stages.report.robots)
    for (const RobotRun& without : off.report.robots)
    {
      if (without.summary.seed != robot.summary.seed) continue;
      bool exceeds = false;
      for (std::size_t j = 0; j < numOfJoints; ++j)
        exceeds |= robot.summary.joints[j].briefPeakCurrent >
                   without.summary.joints[j].briefPeakCurrent * (1 + margin.fraction) + margin.current;
      robots += exceeds;
    }
  return robots;
}

double worstTime(const std::vector<double>& values)
{
  double worst = 0;
  for (double value : values)
  {
    if (value < 0) return -1;
    worst = std::max(worst, value);
  }
  return worst;
}

std::string format(const char* pattern, double value)
{
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}
/// The matrix's variants in the order of its cells.
std::vector<std::string> variantsOf(const HarmMatrix& matrix)
{
  std::vector<std::string> variants;
  for (const MatrixCell& cell : matrix.cells)
    if (std::find(variants.begin(), variants.end(), cell.variant) == variants.end())
      variants.push_back(cell.variant);
  return variants;
}

/// The cell of a variant and configuration, or nullptr when the matrix has none.
const MatrixCell* cellOf(const HarmMatrix& matrix, const std::string& variant,
                         const std::string& configuration)
{
  for (const MatrixCell& cell : matrix.cells)
    if (cell.variant == variant && cell.configuration == configuration) return &cell;
  return nullptr;
}

/// The paragraph that says what counts as harm, with the matrix's margins.
void writeHarmIntro(std::ostringstream& out, const HarmMatrix& matrix)
{
  const std::size_t robots = matrix.cells.empty() ? 0 : matrix.cells.front().report.robots.size();
  out << "Harm: robots on which a stage left a joint worse than without the stages (" << matrix.scenario
      << ", " << format("%.3g", matrix.minutes) << " min, " << robots
      << " robots a cell). A joint is worse when its true "
      << "current from " << format("%.0f", settleAfterHold)
      << " s after the posture is held on, its mean or its "
      << "highest " << format("%.0f", peakWindow)
      << "-second mean, exceeds the highest of the three runs without "
      << "the stages (three draws of the robot's sensor and board noise) by more than "
      << format("%.0f", matrix.margin.fraction * 100) << " % + " << format("%.0f", matrix.margin.counts)
      << " counts of its board's current (at least " << format("%.0f", matrix.margin.current * 1000)
      << " mA), or its final winding is hotter than theirs by more than their spread + "
      << format("%.0f", matrix.margin.fraction * 100) << " % of their rise + "
      << format("%.0f", matrix.margin.temperature)
      << " K. The first column judges the third run without the stages against the other two the same way: "
         "the "
         "plant's own spread (a joint at rest holds a whole number of its board's counts, and which one "
         "friction "
         "locks it at after a motion, noise decides). In brackets: robots on which a joint's highest "
         "one-second "
         "mean, from the hold's start on, exceeded the first run without the stages by "
      << format("%.0f", matrix.margin.fraction * 100) << " % + "
      << format("%.0f", matrix.margin.current * 1000)
      << " mA (the motion's end, a search's probing rounds; not counted as harm).\n\n";
}

/// Per variant and configuration with the stages: robots harmed, and in brackets the brief excesses.
void writeHarmCounts(std::ostringstream& out, const HarmMatrix& matrix,
                     const std::vector<std::string>& variants)
{
  const auto& configurations = stageConfigurations();
  out << "| variant |";
  for (std::size_t c = 2; c < configurations.size(); ++c)
    out << ' ' << (c == 2 ? std::string("no stage, 3rd noise draw") : configurations[c].name) << " |";
  out << "\n| --- |";
  for (std::size_t c = 2; c < configurations.size(); ++c)
    out << " ---: |";
  out << '\n';
  for (const std::string& variant : variants)
  {
    out << "| " << variantLabel(variant) << " |";
    for (std::size_t c = 2; c < configurations.size(); ++c)
    {
      const MatrixCell* cell = cellOf(matrix, variant, configurations[c].name);
      if (!cell)
      {
        out << " - |";
        continue;
      }
      std::vector<std::uint64_t> harmed;
      for (const Harm& harm : cell->harms)
        if (std::find(harmed.begin(), harmed.end(), harm.seed) == harmed.end()) harmed.push_back(harm.seed);
      out << ' ' << harmed.size() << " of " << cell->report.robots.size() << " ("
          << briefExcesses(*cellOf(matrix, variant, "off"), *cell, matrix.margin) << ") |";
    }
    out << '\n';
  }
}

/// Per variant and configuration: the heat figures, medians over the robots and the worst robot.
void writeFigures(std::ostringstream& out, const HarmMatrix& matrix, const std::vector<std::string>& variants)
{
  const auto& configurations = stageConfigurations();
  out << "\nFigures (median over the robots; worst robot in brackets): every leg joint below 300 mA and 80 % "
         "of them "
         "below 50 mA (first time, s after the posture is held), the leg joints' true currents summed (mean "
         "while "
         "held), the highest single joint's mean, motor energy, the hottest winding at the end.\n\n";
  out << "| variant | stages | legs < 300 mA | 80 % < 50 mA | leg current | worst joint | energy | hottest "
         "|\n"
      << "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const std::string& variant : variants)
    for (const StageConfiguration& configuration : configurations)
    {
      const MatrixCell* cell = cellOf(matrix, variant, configuration.name);
      if (!cell) continue;
      std::vector<double> below, quiet, leg, worst, energy, hottest;
      for (const RobotRun& robot : cell->report.robots)
      {
        const CellFigures f = figuresOf(robot);
        below.push_back(f.allLegsBelowHeating);
        quiet.push_back(f.mostLegsQuiet);
        leg.push_back(f.legCurrent * 1000);
        worst.push_back(f.worstJointCurrent * 1000);
        energy.push_back(f.energy);
        hottest.push_back(f.hottest);
      }
      out << "| " << variantLabel(variant) << " | " << configuration.name << " | "
          << seconds(medianTime(below)) << " (" << seconds(worstTime(below)) << ") | "
          << seconds(medianTime(quiet)) << " (" << seconds(worstTime(quiet)) << ") | "
          << format("%.0f mA", percentile(leg, 0.5)) << " (" << format("%.0f", percentile(leg, 1.0)) << ") | "
          << format("%.0f mA", percentile(worst, 0.5)) << " (" << format("%.0f", percentile(worst, 1.0))
          << ") | " << format("%.0f J", percentile(energy, 0.5)) << " ("
          << format("%.0f", percentile(energy, 1.0)) << ") | " << format("%.1f °C", percentile(hottest, 0.5))
          << " (" << format("%.1f", percentile(hottest, 1.0)) << ") |\n";
    }
}

/// Per worn robot and configuration: the highest joint's mean current and the hottest winding.
void writeWornRobots(std::ostringstream& out, const HarmMatrix& matrix,
                     const std::vector<std::string>& variants)
{
  const auto& configurations = stageConfigurations();
  out << "\nWorn robots (robots.toml preset `worn`): the highest single joint's true mean current while "
         "held, and "
         "the hottest winding at the end.\n\n| variant | robot |";
  for (const StageConfiguration& configuration : configurations)
    out << ' ' << configuration.name << " |";
  out << "\n| --- | --- |";
  for (std::size_t c = 0; c < configurations.size(); ++c)
    out << " ---: |";
  out << '\n';
  for (const std::string& variant : variants)
  {
    const MatrixCell* off = cellOf(matrix, variant, "off");
    if (!off) continue;
    for (std::size_t r = 0; r < off->report.robots.size(); ++r)
    {
      if (off->report.robots[r].summary.preset != "worn") continue;
      out << "| " << variantLabel(variant) << " | " << off->report.robots[r].summary.seed << " |";
      for (const StageConfiguration& configuration : configurations)
      {
        const MatrixCell* cell = cellOf(matrix, variant, configuration.name);
        if (!cell || r >= cell->report.robots.size())
        {
          out << " - |";
          continue;
        }
        const CellFigures f = figuresOf(cell->report.robots[r]);
        out << ' ' << format("%.0f mA", f.worstJointCurrent * 1000) << ", " << format("%.1f °C", f.hottest)
            << " |";
      }
      out << '\n';
    }
  }
}

/// Every harm, one line each, or that there is none.
void writeHarms(std::ostringstream& out, const HarmMatrix& matrix)
{
  std::vector<const Harm*> all;
  std::vector<std::string> where;
  for (const MatrixCell& cell : matrix.cells)
    for (const Harm& harm : cell.harms)
    {
      all.push_back(&harm);
      where.push_back(variantLabel(cell.variant) + ", " + cell.configuration);
    }
  if (all.empty())
  {
    out << "\nNo harm on any robot.\n";
    return;
  }
  out << "\nEvery harm (variant, stages, robot, joint, what: with the stages / without / allowed):\n\n";
  for (std::size_t k = 0; k < all.size(); ++k)
  {
    const Harm& h = *all[k];
    const bool temperature = h.what == "final temperature";
    const double scale = temperature ? 1 : 1000;
    const char* unit = temperature ? "°C" : "mA";
    out << "- " << where[k] << ", seed " << h.seed << (h.preset.empty() ? "" : " " + h.preset)
        << (h.variant.empty() || h.variant == where[k].substr(0, where[k].find(',')) ? ""
                                                                                     : " (" + h.variant + ")")
        << ", " << h.joint << ", " << h.what << ": " << format("%.0f", h.withStages * scale) << " / "
        << format("%.0f", h.withoutStages * scale) << " / " << format("%.0f", h.allowed * scale) << ' '
        << unit << '\n';
  }
}
} // namespace

std::string harmMatrixTable(const HarmMatrix& matrix)
{
  std::ostringstream out;
  const std::vector<std::string> variants = variantsOf(matrix);
  writeHarmIntro(out, matrix);
  writeHarmCounts(out, matrix, variants);
  writeFigures(out, matrix, variants);
  writeWornRobots(out, matrix, variants);
  writeHarms(out, matrix);
  return out.str();
}
} // namespace nao
