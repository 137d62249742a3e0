#include "Util/StiffnessTool/Commands.h"

#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/StiffnessError.h"
#include "Util/StiffnessTool/Inputs.h"
#include "Util/StiffnessTool/JsonWriter.h"
#include "Util/StiffnessTool/NullSpaceSimulation.h"
#include "Util/StiffnessTool/Ranking.h"
#include "Util/StiffnessTool/SimulationPlot.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace nao::stiffness::tool
{
namespace
{
/// The model and the chain in it (the chain points into the model, so both live here and never move).
struct LoadedChain
{
  kinematics::Model model;
  Chain chain;

  explicit LoadedChain(const ChainOptions& options)
      : model(kinematics::loadModel(options.urdf)), chain(makeChain(model, options))
  {
  }
  LoadedChain(const LoadedChain&) = delete;
  LoadedChain& operator=(const LoadedChain&) = delete;

  static Chain makeChain(const kinematics::Model& model, const ChainOptions& options)
  {
    try
    {
      return Chain(model, options.base, options.tip);
    }
    catch (const StiffnessError& error)
    {
      throw StiffnessError(options.urdf + ": " + error.what());
    }
  }
};

StiffnessQuery makeQuery(const QueryOptions& options)
{
  return {parseDirection(options.direction), parseCartesianStiffness(options.kc)};
}

/// The configuration's values in the file's column order.
Eigen::VectorXd inFileOrder(const Configurations& configurations, const Eigen::VectorXd& chainOrder)
{
  Eigen::VectorXd values(chainOrder.size());
  for (std::size_t c = 0; c < configurations.chainIndex.size(); ++c)
    values[static_cast<Eigen::Index>(c)] = chainOrder[configurations.chainIndex[c]];
  return values;
}

void printVector(std::ostream& out, const Eigen::VectorXd& values)
{
  out << "[";
  for (Eigen::Index i = 0; i < values.size(); ++i)
    out << (i > 0 ? ", " : "") << values[i];
  out << "]";
}

void printHeader(std::ostream& out, const Chain& chain, const StiffnessQuery& query, const std::string& file)
{
  out << "chain " << chain.baseLinkName() << " -> " << chain.tipLinkName() << " (" << chain.jointNames()
      << "), configurations from " << file << "\ndirection dx = ";
  printVector(out, query.direction);
  out << (query.cartesianStiffness.isIdentity(0.0) ? ", K_c = identity\n" : ", K_c as given\n");
}

const char* const rowNames[6] = {"x", "y", "z", "rx", "ry", "rz"};

/// The two rows of a position that `--view` plots (0 = x, 1 = y, 2 = z).
struct ViewAxes
{
  int horizontal = 0, vertical = 1;
};

ViewAxes viewAxes(const std::string& view)
{
  if (view == "xy") return {0, 1};
  if (view == "xz") return {0, 2};
  if (view == "yz") return {1, 2};
  throw InputError("--view: '" + view + "' is not one of xy, xz, yz");
}

SimulationSettings simulationSettings(const SimulateOptions& options)
{
  SimulationSettings settings;
  settings.redundancy = {options.alpha, options.jointDamping};
  settings.hold.rows = parseHeldRows(options.hold);
  settings.hold.stiffness = options.holdStiffness;
  settings.hold.damping = options.holdDamping;
  settings.duration = options.duration;
  settings.step = options.step;
  return settings;
}

/// The null-space motion; a singular case names what the user can change.
SimulationResult simulate(const Chain& chain, const StiffnessQuery& query, const Eigen::VectorXd& start,
                          const SimulationSettings& settings)
{
  try
  {
    return simulateNullSpaceMotion(chain, query, start, settings);
  }
  catch (const StiffnessError& error)
  {
    const std::string message = error.what();
    if (message.find("singular case") == std::string::npos) throw;
    throw StiffnessError(message +
                         " (leave rows the chain cannot move out of --hold, e.g. z of a planar arm, " +
                         "or start away from the singular configuration)");
  }
}

/// One row per sample: time, each joint's angle, the metric and both drifts (the folder is made if missing).
void writeSimulationCsv(const std::string& csvPath, const Chain& chain, const SimulationResult& result)
{
  if (const std::filesystem::path folder = std::filesystem::path(csvPath).parent_path(); !folder.empty())
  {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) throw InputError("--out: cannot make the folder " + folder.string() + ": " + error.message());
  }
  std::ofstream csv(csvPath);
  if (!csv) throw InputError("--out: cannot write " + csvPath);
  csv << std::setprecision(17) << "time_s";
  for (const ChainJoint& joint : chain.joints())
    csv << "," << joint.name;
  csv << ",p,endpoint_drift_m,rotation_drift_rad\n";
  for (const SimulationSample& sample : result.samples)
  {
    csv << sample.time;
    for (const double value : sample.q)
      csv << "," << value;
    csv << "," << sample.metric << "," << sample.endpointDrift << "," << sample.rotationDrift << "\n";
  }
  if (!csv.flush()) throw InputError("--out: cannot write " + csvPath);
}

/// The arm at `q` in the view's plane, with the plane's block of the Cartesian stiffness.
ArmPicture armPicture(const Chain& chain, const StiffnessQuery& query, ViewAxes axes,
                      const Eigen::VectorXd& q)
{
  Workspace workspace(chain);
  updateChain(chain, workspace, q);
  ArmPicture arm;
  arm.points.emplace_back(0.0, 0.0);
  for (int i = 0; i < chain.jointCount(); ++i)
    arm.points.emplace_back(workspace.origins(axes.horizontal, i), workspace.origins(axes.vertical, i));
  arm.points.emplace_back(workspace.tipPoint[axes.horizontal], workspace.tipPoint[axes.vertical]);
  const kinematics::Matrix6 kc = query.cartesianStiffness;
  const kinematics::Matrix6 s = kc * workspace.jacobian * workspace.jacobian.transpose() * kc;
  arm.stiffness << s(axes.horizontal, axes.horizontal), s(axes.horizontal, axes.vertical),
      s(axes.vertical, axes.horizontal), s(axes.vertical, axes.vertical);
  return arm;
}

SimulationFigure simulationFigure(const LoadedChain& loaded, const StiffnessQuery& query,
                                  const SimulateOptions& options, ViewAxes axes,
                                  const SimulationResult& result)
{
  const Chain& chain = loaded.chain;
  const SimulationSample& first = result.samples.front();
  const SimulationSample& last = result.samples.back();
  std::ostringstream title;
  title << std::setprecision(4) << loaded.model.name() << " " << chain.baseLinkName() << " -> "
        << chain.tipLinkName() << ", dx = (" << options.query.direction << "), alpha = " << options.alpha
        << (options.alpha < 0 ? " (toward stiffness)" : " (toward compliance)") << ": p " << first.metric
        << " -> " << last.metric << ", max endpoint drift " << std::setprecision(2) << result.maxEndpointDrift
        << " m";
  SimulationFigure figure{title.str(),
                          std::string(rowNames[axes.horizontal]) + " (m)",
                          std::string(rowNames[axes.vertical]) + " (m)",
                          armPicture(chain, query, axes, first.q),
                          armPicture(chain, query, axes, last.q),
                          {},
                          {}};
  for (const SimulationSample& sample : result.samples)
  {
    figure.times.push_back(sample.time);
    figure.metrics.push_back(sample.metric);
  }
  return figure;
}

void printSimulationJson(std::ostream& out, const Chain& chain, const SimulationResult& result,
                         const std::string& csvPath, const std::string& pngPath)
{
  out << std::setprecision(17);
  JsonWriter json(out);
  json.beginObject();
  json.key("joints");
  std::vector<std::string> names;
  for (const ChainJoint& joint : chain.joints())
    names.push_back(joint.name);
  json.value(names);
  json.key("q_start");
  json.value(result.samples.front().q);
  json.key("q_end");
  json.value(result.samples.back().q);
  json.key("p_start");
  json.value(result.samples.front().metric);
  json.key("p_end");
  json.value(result.samples.back().metric);
  json.key("max_endpoint_drift_m");
  json.value(result.maxEndpointDrift);
  json.key("max_rotation_drift_rad");
  json.value(result.maxRotationDrift);
  json.key("csv");
  json.value(csvPath);
  json.key("png");
  json.value(pngPath);
  json.endObject();
}

void printSimulationText(std::ostream& out, const Chain& chain, const SimulateOptions& options,
                         const SimulationResult& result, const std::string& csvPath,
                         const std::string& pngPath)
{
  const SimulationSample& first = result.samples.front();
  const SimulationSample& last = result.samples.back();
  out << std::setprecision(6) << "p " << first.metric << " -> " << last.metric << " over " << last.time
      << " s (alpha " << options.alpha << "), max endpoint drift " << result.maxEndpointDrift
      << " m\nq_end = ";
  printVector(out, last.q);
  out << " (" << chain.jointNames() << ")\nwrote " << csvPath << " and " << pngPath << "\n";
}
} // namespace

int runMetric(const MetricOptions& options, std::ostream& out)
{
  const LoadedChain loaded(options.chain);
  const Chain& chain = loaded.chain;
  const StiffnessQuery query = makeQuery(options.query);
  const Configurations configurations = readConfigurations(options.configurations, chain);
  Workspace workspace(chain);
  Eigen::VectorXd gradient(chain.jointCount());
  JsonWriter json(out);
  if (options.json)
    json.beginArray();
  else
    printHeader(out, chain, query, options.configurations);
  out << std::setprecision(options.json ? 17 : 6);
  for (Eigen::Index c = 0; c < configurations.q.cols(); ++c)
  {
    updateChain(chain, workspace, configurations.q.col(c));
    const double p = computeMetricGradient(chain, workspace, query, gradient);
    const StiffnessEllipsoid ellipsoid = computeStiffnessEllipsoid(workspace, query.cartesianStiffness);
    const Eigen::VectorXd q = inFileOrder(configurations, configurations.q.col(c));
    const Eigen::VectorXd fileGradient = inFileOrder(configurations, gradient);
    const int line = configurations.lines[static_cast<std::size_t>(c)];
    if (options.json)
    {
      json.beginObject();
      json.key("configuration");
      json.value(static_cast<int>(c + 1));
      json.key("line");
      json.value(line);
      json.key("joints");
      json.value(configurations.columns);
      json.key("q");
      json.value(q);
      json.key("p");
      json.value(p);
      json.key("gradient");
      json.value(fileGradient);
      json.key("ellipsoid");
      json.beginObject();
      json.key("values");
      json.value(Eigen::VectorXd(ellipsoid.values));
      json.key("vectors");
      json.beginArray();
      for (int i = 0; i < 6; ++i)
        json.value(Eigen::VectorXd(ellipsoid.vectors.col(i)));
      json.endArray();
      json.endObject();
      json.endObject();
      continue;
    }
    out << "\nconfiguration " << c + 1 << " (line " << line << ")\n  q        = ";
    printVector(out, q);
    out << "\n  p        = " << p << "\n  gradient = ";
    printVector(out, fileGradient);
    out << "\n  ellipsoid eigenvalues, ascending (stiffest direction first) = ";
    printVector(out, ellipsoid.values);
    out << "\n  eigenvectors (x, y, z, rx, ry, rz), one per eigenvalue:\n";
    for (int i = 0; i < 6; ++i)
    {
      out << "    ";
      printVector(out, ellipsoid.vectors.col(i));
      out << "\n";
    }
  }
  if (options.json) json.endArray();
  return 0;
}

int runRank(const MetricOptions& options, std::ostream& out)
{
  const LoadedChain loaded(options.chain);
  const Chain& chain = loaded.chain;
  const StiffnessQuery query = makeQuery(options.query);
  const Configurations configurations = readConfigurations(options.configurations, chain);
  Workspace workspace(chain);
  const std::vector<RankedConfiguration> ranking =
      rankConfigurations(chain, workspace, query, configurations.q);
  if (options.json)
  {
    out << std::setprecision(17);
    JsonWriter json(out);
    json.beginArray();
    for (std::size_t r = 0; r < ranking.size(); ++r)
    {
      json.beginObject();
      json.key("rank");
      json.value(static_cast<int>(r + 1));
      json.key("configuration");
      json.value(ranking[r].index + 1);
      json.key("line");
      json.value(configurations.lines[static_cast<std::size_t>(ranking[r].index)]);
      json.key("p");
      json.value(ranking[r].metric);
      json.key("joints");
      json.value(configurations.columns);
      json.key("q");
      json.value(inFileOrder(configurations, configurations.q.col(ranking[r].index)));
      json.endObject();
    }
    json.endArray();
    return 0;
  }
  printHeader(out, chain, query, options.configurations);
  out << "\nrank  configuration  line  p             p / p_stiffest\n";
  for (std::size_t r = 0; r < ranking.size(); ++r)
    out << std::setw(4) << r + 1 << "  " << std::setw(13) << ranking[r].index + 1 << "  " << std::setw(4)
        << configurations.lines[static_cast<std::size_t>(ranking[r].index)] << "  " << std::setw(12)
        << std::setprecision(6) << ranking[r].metric << "  " << std::setw(8) << std::setprecision(4)
        << (ranking.front().metric > 0.0
                ? std::to_string(ranking[r].metric / ranking.front().metric).substr(0, 5)
                : std::string("-"))
        << "\n";
  out << "(smallest p = stiffest along dx; largest = most compliant)\n";
  return 0;
}

int runSimulate(const SimulateOptions& options, std::ostream& out)
{
  const LoadedChain loaded(options.chain);
  const Chain& chain = loaded.chain;
  const StiffnessQuery query = makeQuery(options.query);
  const Eigen::VectorXd start = parseStartConfiguration(options.start, chain);
  const ViewAxes axes = viewAxes(options.view);
  const SimulationResult result = simulate(chain, query, start, simulationSettings(options));
  const std::string csvPath = options.out + ".csv", pngPath = options.out + ".png";
  writeSimulationCsv(csvPath, chain, result);
  writeSimulationFigure(pngPath, simulationFigure(loaded, query, options, axes, result));
  if (options.json)
    printSimulationJson(out, chain, result, csvPath, pngPath);
  else
    printSimulationText(out, chain, options, result, csvPath, pngPath);
  return 0;
}

} // namespace nao::stiffness::tool
