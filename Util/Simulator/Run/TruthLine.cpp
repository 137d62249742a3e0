#include "Util/Simulator/Run/TruthLine.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nao
{
namespace
{
void append(std::string& line, double value)
{
  char text[32];
  std::snprintf(text, sizeof text, " %.6g", value);
  line += text;
}
} // namespace

std::string truthLine(std::uint64_t frame, const sim::SimulatedRobot& robot)
{
  const sim::GroundTruth& truth = robot.groundTruth();
  const Eigen::Matrix3d r = truth.torsoOrientation.normalized().toRotationMatrix();
  std::string line = "frame " + std::to_string(frame) + " torso";
  for (const double value : {truth.torsoPosition.x(), truth.torsoPosition.y(), truth.torsoPosition.z(),
                             std::atan2(r(2, 1), r(2, 2)), std::asin(std::clamp(-r(2, 0), -1.0, 1.0)),
                             std::atan2(r(1, 0), r(0, 0))})
    append(line, value);
  line += " soles";
  append(line, truth.footForces[0]);
  append(line, truth.footForces[1]);
  line += " angles";
  for (const double angle : truth.angles)
    append(line, angle);
  line += " windings";
  for (const double temperature : truth.windingTemperatures)
    append(line, temperature);
  return line;
}
} // namespace nao
