#include "Util/Simulator/Run/TaskSpaceEvaluation.h"
#include "Framework/ScenarioScript.h"
#include "Util/Simulator/Run/PosedBody.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

namespace nao
{
namespace
{
/// The left sole (geometry.md section 4), m, relative to the point below the ankle: front 100, back 50, outer
/// (left) 50.02, inner 38.77 mm; the right sole is its mirror image.
constexpr double soleFront = 0.1, soleBack = -0.05, soleOuter = 0.05002, soleInner = -0.03877;
/// m: a sole higher than this above the floor carries nothing.
constexpr double liftedHeight = 0.005;

using Point = Eigen::Vector2d;

double cross(const Point& o, const Point& a, const Point& b)
{
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

/// Andrew's monotone chain: the hull counter-clockwise.
std::vector<Point> convexHull(std::vector<Point> points)
{
  std::sort(points.begin(), points.end(),
            [](const Point& a, const Point& b)
            { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  std::vector<Point> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
  {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0)
      --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;)
  {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0)
      --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  return hull;
}

/// Signed distance of p inside a counter-clockwise convex polygon (> 0 inside).
double marginInside(const std::vector<Point>& polygon, const Point& p)
{
  double inside = 1e9, outside = 0;
  bool out = false;
  for (std::size_t i = 0; i < polygon.size(); ++i)
  {
    const Point& a = polygon[i];
    const Point& b = polygon[(i + 1) % polygon.size()];
    const Point edge = b - a;
    const double side = cross(a, b, p) / edge.norm(); // > 0: left of the edge, inside
    inside = std::min(inside, side);
    if (side < 0)
    {
      out = true;
      const double t = std::clamp((p - a).dot(edge) / edge.squaredNorm(), 0.0, 1.0);
      outside = std::max(outside, (a + t * edge - p).norm());
    }
  }
  return out ? -outside : inside;
}

/// The corners of a sole on the floor, in the left sole's frame; `mirror` for the right sole.
void addSoleCorners(const math::Pose& sole, bool mirror, std::vector<Point>& corners)
{
  const double left = mirror ? -soleInner : soleOuter, right = mirror ? -soleOuter : soleInner;
  for (const double x : {soleBack, soleFront})
    for (const double y : {right, left})
      corners.push_back((sole * Eigen::Vector3d(x, y, 0)).head<2>());
}

int linkNamed(const kinematics::Model& model, const char* name)
{
  const int link = model.findLink(name);
  if (link < 0) throw std::runtime_error(std::string("the robot description has no link '") + name + "'");
  return link;
}
/// The robot posed sample by sample (PosedBody), with the links the evaluation measures.
struct TaskBody : PosedBody
{
  explicit TaskBody(const ConfigFiles& files)
      : PosedBody(files), leftSole(linkNamed(robot.model, "l_sole")),
        rightSole(linkNamed(robot.model, "r_sole")), leftWrist(linkNamed(robot.model, "l_wrist")),
        rightWrist(linkNamed(robot.model, "r_wrist")), gaze(linkNamed(robot.model, "gaze"))
  {
  }

  int leftSole, rightSole, leftWrist, rightWrist, gaze;
};

/// The script's targets to reach (not a push's direction), each with where its time ends: the next target of its
/// task, or the run's end.
std::vector<TaskTargetOutcome> targetsOf(const ScenarioScript& script, const SimulationResult& result)
{
  std::vector<TaskTargetOutcome> targets;
  for (std::size_t i = 0; i < script.targets.size(); ++i)
  {
    // A push's direction is no target to reach.
    if (!script.targets[i].active || script.targets[i].task == ScriptTask::stiffestAgainst) continue;
    double end = result.samples.back().time;
    for (std::size_t k = i + 1; k < script.targets.size(); ++k)
      if (script.targets[k].task == script.targets[i].task)
      {
        end = script.targets[k].time;
        break;
      }
    targets.push_back({script.targets[i], end, -1});
  }
  return targets;
}

/// The closest pair of shapes so far, with its distance in mm.
void updateClosestPair(const TaskBody& robot, TaskScenarioOutcome& outcome)
{
  if (const int closest = robot.closestPair(); closest >= 0)
  {
    const double distance = 1000 * robot.pairDistance(closest);
    if (distance < outcome.minPairDistance)
    {
      outcome.minPairDistance = distance;
      outcome.closestPair = robot.pairName(closest);
    }
  }
}

/// m: the centre of mass's margin inside the support polygon (the left sole, and the right one unless lifted).
double comMargin(const TaskBody& robot, const math::Pose& fromBase, const math::Pose& right, bool lifted)
{
  std::vector<Point> corners;
  addSoleCorners(math::Pose{}, false, corners);
  if (!lifted) addSoleCorners(right, true, corners);
  const Point com = (fromBase * robot.data.centerOfMass).head<2>();
  return marginInside(convexHull(corners), com);
}

/// A target's error in the left sole's frame: mm of a hand or the right foot from its point, degrees of the gaze.
void measureTarget(const TaskBody& robot, const math::Pose& fromBase, const math::Pose& right,
                   TaskTargetOutcome& target)
{
  const Eigen::Vector3d point(target.target.point[0], target.target.point[1], target.target.point[2]);
  const auto inSole = [&](int link) { return fromBase * robot.linkPose(link); };
  switch (target.target.task)
  {
  case ScriptTask::leftHand:
    target.error = 1000 * (inSole(robot.leftWrist).translation - point).norm();
    break;
  case ScriptTask::rightHand:
    target.error = 1000 * (inSole(robot.rightWrist).translation - point).norm();
    break;
  case ScriptTask::rightFoot:
    target.error = 1000 * (right.translation - point).norm();
    break;
  case ScriptTask::stiffestAgainst:
    break;
  case ScriptTask::lookAt:
  {
    const math::Pose eye = inSole(robot.gaze);
    const Eigen::Vector3d toPoint = point - eye.translation;
    const double cosine = std::clamp(eye.rotation.col(0).dot(toPoint.normalized()), -1.0, 1.0);
    target.error = std::acos(cosine) * 180 / std::numbers::pi;
    break;
  }
  }
}
} // namespace

TaskScenarioOutcome evaluateTaskSpaceRun(const std::filesystem::path& configDirectory,
                                         const std::string& scenario, const SimulationResult& result)
{
  const ConfigFiles files{{configDirectory, "Default"}, configDirectory / "Scenarios" / (scenario + ".toml")};
  const ScenarioScript script = ScenarioScript::load(files.scenarioFile);
  if (script.targets.empty()) throw std::runtime_error(scenario + ": the scenario has no [[Script.targets]]");
  if (result.samples.size() < 2 || result.samples[1].time - result.samples[0].time > 0.013)
    throw std::runtime_error(scenario + ": the run needs a sample per frame (record period 0.012 s)");
  TaskBody robot(files);
  TaskScenarioOutcome outcome;
  outcome.scenario = scenario;
  outcome.seed = result.seed;
  outcome.targets = targetsOf(script, result);
  for (std::size_t s = 0; s < result.samples.size(); ++s)
  {
    const RunSample& sample = result.samples[s];
    outcome.fell = outcome.fell || sample.upperBodyOnGround;
    robot.pose(JointArray<float>{sample.angles}, true);
    updateClosestPair(robot, outcome);
    const math::Pose fromBase = robot.linkPose(robot.leftSole).inverse();
    const math::Pose right = fromBase * robot.linkPose(robot.rightSole);
    const bool lifted = right.translation.z() > liftedHeight;
    if (lifted && s > 0) outcome.footLifted += sample.time - result.samples[s - 1].time;
    outcome.minComMargin = std::min(outcome.minComMargin, 1000 * comMargin(robot, fromBase, right, lifted));
    // A target's error: at the last sample before its time ends.
    const bool last = s + 1 == result.samples.size();
    for (TaskTargetOutcome& target : outcome.targets)
    {
      if (!(last || result.samples[s + 1].time > target.endTime) || target.error >= 0 ||
          sample.time < target.target.time)
        continue;
      measureTarget(robot, fromBase, right, target);
    }
  }
  return outcome;
}

TaskScenarioOutcome runTaskSpaceScenario(const std::filesystem::path& configDirectory,
                                         const std::string& scenario, std::uint64_t seed,
                                         const std::filesystem::path& outputDirectory)
{
  const ScenarioScript script = ScenarioScript::load(configDirectory / "Scenarios" / (scenario + ".toml"));
  if (script.targets.empty()) throw std::runtime_error(scenario + ": the scenario has no [[Script.targets]]");
  SimulationOptions options;
  options.configDirectory = configDirectory;
  options.scenario = scenario;
  options.seed = seed;
  // The last target's time, then as long again as the targets took on average to settle on it, at least 6 s.
  options.minutes = (script.targets.back().time + 6.0) / 60.0;
  options.recordPeriod = 0.012;
  options.writePlots = false;
  options.writeLog = false;
  options.outputDirectory = outputDirectory;
  return evaluateTaskSpaceRun(configDirectory, scenario, runSimulation(options));
}

std::string taskSpaceTable(const std::vector<TaskScenarioOutcome>& outcomes, const std::string& command)
{
  std::string text;
  char line[400];
  if (!command.empty()) text += "Written by `" + command + "`.\n\n";
  text +=
      "The Stack of Tasks' scenarios on simulated robots (TaskSpaceMotionProvider), judged from the measured "
      "joint angles of every frame: a target's error at the end of its time (mm; lookAt: degrees of the line "
      "of sight), the smallest signed distance of any shape pair of selfCollision.toml (< 0: inside the "
      "body), the centre of mass's smallest margin inside the soles on the floor (geometry.md section 4's "
      "rectangles; < 0: outside), how long the right foot was lifted, and whether the upper body touched the "
      "floor.\n\n";
  text +=
      "| scenario | seed | targets | worst error | smallest pair distance [mm] | closest pair | "
      "smallest CoM margin [mm] | foot lifted [s] | fell |\n| --- | ---: | ---: | ---: | ---: | --- | ---: | "
      "---: | --- |\n";
  for (const TaskScenarioOutcome& o : outcomes)
  {
    double worst = 0;
    for (const TaskTargetOutcome& t : o.targets)
      worst = std::max(worst, t.error);
    std::snprintf(line, sizeof(line), "| %s | %llu | %zu | %.1f | %.1f | %s | %.1f | %.1f | %s |\n",
                  o.scenario.c_str(), static_cast<unsigned long long>(o.seed), o.targets.size(), worst,
                  o.minPairDistance, o.closestPair.c_str(), o.minComMargin, o.footLifted,
                  o.fell ? "yes" : "no");
    text += line;
  }
  text += "\n| scenario | seed | from [s] | to [s] | task | point [mm] | error |\n| --- | ---: | ---: | ---: "
          "| --- | "
          "--- | ---: |\n";
  for (const TaskScenarioOutcome& o : outcomes)
    for (const TaskTargetOutcome& t : o.targets)
    {
      std::snprintf(line, sizeof(line), "| %s | %llu | %.1f | %.1f | %s | (%.0f, %.0f, %.0f) | %.1f %s |\n",
                    o.scenario.c_str(), static_cast<unsigned long long>(o.seed), t.target.time, t.endTime,
                    std::string(streams::enumName(t.target.task)).c_str(), 1000 * t.target.point[0],
                    1000 * t.target.point[1], 1000 * t.target.point[2], t.error,
                    t.target.task == ScriptTask::lookAt ? "°" : "mm");
      text += line;
    }
  return text;
}
} // namespace nao
