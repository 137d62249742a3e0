#pragma once
// The simulate command's figure, drawn by gnuplot (pngcairo, headless): the chain and its stiffness ellipse
// at the start and the end in one plane of the base frame (the paper's Fig 12), and p over time.
#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <vector>

namespace nao::stiffness::tool
{
struct ArmPicture
{
  std::vector<Eigen::Vector2d> points; ///< m: base origin, joint origins, tip, projected on the plane
  Eigen::Matrix2d stiffness;           ///< the plane's 2 x 2 block of K_c J J^T K_c
};

struct SimulationFigure
{
  std::string title;
  std::string horizontalAxis, verticalAxis; ///< e.g. "x (m)"
  ArmPicture start, end;
  std::vector<double> times;   ///< s
  std::vector<double> metrics; ///< p
};

/// Writes the PNG; throws std::runtime_error naming gnuplot's complaint if it fails.
void writeSimulationFigure(const std::filesystem::path& png, const SimulationFigure& figure);
} // namespace nao::stiffness::tool
