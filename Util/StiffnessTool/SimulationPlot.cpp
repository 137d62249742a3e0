#include "Util/StiffnessTool/SimulationPlot.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace nao::stiffness::tool
{
namespace
{
using Points = std::vector<Eigen::Vector2d>;

/// The ellipse d^T S d = 1 has radii 1/sqrt(lambda): long where the chain is stiff. Drawn radii are
/// scale/sqrt(lambda), capped at `cap` (a singular direction would be infinite).
Points ellipse(const ArmPicture& arm, double scale, double cap)
{
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> solver(0.5 *
                                                              (arm.stiffness + arm.stiffness.transpose()));
  Eigen::Vector2d radii;
  for (int i = 0; i < 2; ++i)
  {
    const double value = solver.eigenvalues()[i];
    radii[i] = value > 0.0 ? std::min(cap, scale / std::sqrt(value)) : cap;
  }
  Points points;
  for (int k = 0; k <= 120; ++k)
  {
    const double angle = 2.0 * std::numbers::pi * k / 120.0;
    points.push_back(arm.points.back() + solver.eigenvectors() * Eigen::Vector2d(radii[0] * std::cos(angle),
                                                                                 radii[1] * std::sin(angle)));
  }
  return points;
}

void writeBlock(std::ostream& out, const char* name, const Points& points)
{
  out << "$" << name << " << EOD\n";
  for (const Eigen::Vector2d& p : points)
    out << p.x() << " " << p.y() << "\n";
  out << "EOD\n";
}

std::string quoted(const std::string& text)
{
  std::string escaped;
  for (const char c : text)
    escaped += c == '\'' ? std::string("''") : std::string(1, c);
  return "'" + escaped + "'";
}
} // namespace

void writeSimulationFigure(const std::filesystem::path& png, const SimulationFigure& figure)
{
  double reach = 0.0;
  for (std::size_t i = 1; i < figure.start.points.size(); ++i)
    reach += (figure.start.points[i] - figure.start.points[i - 1]).norm();
  reach = std::max(reach, 1e-3);
  // One scale for both ellipses: the start ellipse's smallest drawn radius is a tenth of the chain's length.
  const double largestStart =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(figure.start.stiffness).eigenvalues().maxCoeff();
  const double scale = largestStart > 0.0 ? 0.1 * reach * std::sqrt(largestStart) : 0.1 * reach;

  const Points startEllipse = ellipse(figure.start, scale, 2.0 * reach);
  const Points endEllipse = ellipse(figure.end, scale, 2.0 * reach);
  // A square window around everything drawn, so that the equal-axis picture fills its panel.
  Eigen::Vector2d low = figure.start.points.front(), high = low;
  for (const Points* points : {&figure.start.points, &figure.end.points, &startEllipse, &endEllipse})
    for (const Eigen::Vector2d& p : *points)
    {
      low = low.cwiseMin(p);
      high = high.cwiseMax(p);
    }
  const Eigen::Vector2d center = 0.5 * (low + high);
  const double half = 0.55 * (high - low).maxCoeff();

  std::ostringstream script;
  script.precision(10);
  script << "set terminal pngcairo size 1400,700 font ',11'\nset output " << quoted(png.string()) << "\n";
  writeBlock(script, "startArm", figure.start.points);
  writeBlock(script, "endArm", figure.end.points);
  writeBlock(script, "startEllipse", startEllipse);
  writeBlock(script, "endEllipse", endEllipse);
  Points metric;
  for (std::size_t i = 0; i < figure.times.size(); ++i)
    metric.emplace_back(figure.times[i], figure.metrics[i]);
  writeBlock(script, "metric", metric);
  script << "set multiplot layout 1,2 title " << quoted(figure.title) << " noenhanced\n"
         << "set size ratio -1\nset grid\nset key top left box opaque\n"
         << "set xrange [" << center.x() - half << ":" << center.x() + half << "]\n"
         << "set yrange [" << center.y() - half << ":" << center.y() + half << "]\n"
         << "set xlabel " << quoted(figure.horizontalAxis) << "\nset ylabel " << quoted(figure.verticalAxis)
         << "\n"
         << "set title 'arm and stiffness ellipse at the tip (radii ~ 1/sqrt(eigenvalue): long = stiff)' "
            "noenhanced\n"
         << "plot $startArm with linespoints lw 3 pt 7 lc rgb '#4477aa' title 'start', "
            "$startEllipse with lines lw 2 dt 2 lc rgb '#4477aa' notitle, "
            "$endArm with linespoints lw 3 pt 7 lc rgb '#cc3311' title 'end', "
            "$endEllipse with lines lw 2 dt 2 lc rgb '#cc3311' notitle\n"
         << "set size noratio\nset autoscale\nset key top right\nset xlabel 'time (s)'\nset ylabel 'p'\n"
         << "set title 'metric p = 1/2 |J^T K_c dx|^2 (Eq 13)'\n"
         << "plot $metric with lines lw 2 lc rgb '#228833' title 'p'\nunset multiplot\n";

  const std::filesystem::path directory = std::filesystem::temp_directory_path();
  const std::string stem = "stiffness-tool-" + std::to_string(::getpid());
  const std::filesystem::path scriptFile = directory / (stem + ".gp"),
                              errorFile = directory / (stem + ".err");
  std::ofstream(scriptFile) << script.str();
  const std::string command = "gnuplot " + quoted(scriptFile.string()) + " 2>" + quoted(errorFile.string());
  const int status = std::system(command.c_str());
  std::ostringstream complaint;
  complaint << std::ifstream(errorFile).rdbuf();
  std::filesystem::remove(scriptFile);
  std::filesystem::remove(errorFile);
  if (status != 0)
    throw std::runtime_error("gnuplot failed writing " + png.string() + " (is gnuplot-nox installed? " +
                             "Make/install-deps installs it): " + complaint.str());
}
} // namespace nao::stiffness::tool
