#include "Util/StiffnessTool/Inputs.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>

namespace nao::stiffness::tool
{
using kinematics::Matrix6;
using kinematics::Vector6;

namespace
{
std::string trim(std::string_view text)
{
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  return std::string(text.substr(first, text.find_last_not_of(" \t\r") - first + 1));
}

std::vector<std::string> split(std::string_view text)
{
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true)
  {
    const std::size_t comma = text.find(',', start);
    fields.push_back(trim(text.substr(start, comma == std::string_view::npos ? comma : comma - start)));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

/// The number in `field`, or nullopt-like failure reported through `ok`.
bool toNumber(const std::string& field, double& value)
{
  const char* end = field.data() + field.size();
  const auto [parsed, error] = std::from_chars(field.data(), end, value);
  return error == std::errc() && parsed == end && std::isfinite(value);
}

const char* const rowNames[6] = {"x", "y", "z", "rx", "ry", "rz"};
} // namespace

std::vector<double> parseNumbers(std::string_view text, const std::string& what)
{
  std::vector<double> numbers;
  int position = 0;
  for (const std::string& field : split(text))
  {
    ++position;
    double value = 0.0;
    if (!toNumber(field, value))
      throw InputError(what + ": value " + std::to_string(position) + " '" + field +
                       "' is not a finite number");
    numbers.push_back(value);
  }
  return numbers;
}

Vector6 parseDirection(std::string_view text)
{
  const std::vector<double> values = parseNumbers(text, "--direction");
  if (values.size() != 6)
    throw InputError("--direction needs 6 comma-separated numbers dx,dy,dz,rx,ry,rz (m and rad), got " +
                     std::to_string(values.size()));
  const Vector6 direction = Eigen::Map<const Vector6>(values.data());
  if (direction.isZero(0.0)) throw InputError("--direction is zero: p would be 0 for every configuration");
  return direction;
}

Matrix6 parseCartesianStiffness(std::string_view text)
{
  if (trim(text).empty()) return Matrix6::Identity();
  const std::vector<double> values = parseNumbers(text, "--kc");
  if (values.size() == 6)
  {
    for (std::size_t i = 0; i < 6; ++i)
      if (!(values[i] > 0.0))
        throw InputError("--kc: diagonal value " + std::to_string(i + 1) + " (" + rowNames[i] +
                         ") must be > 0, got " + std::to_string(values[i]));
    return Eigen::Map<const Vector6>(values.data()).asDiagonal();
  }
  if (values.size() != 36)
    throw InputError("--kc takes 6 diagonal values or 36 values of a symmetric matrix (row-major), got " +
                     std::to_string(values.size()));
  const Matrix6 k = Eigen::Map<const Eigen::Matrix<double, 6, 6, Eigen::RowMajor>>(values.data());
  for (int r = 0; r < 6; ++r)
    for (int c = r + 1; c < 6; ++c)
      if (std::abs(k(r, c) - k(c, r)) > 1e-12 * k.cwiseAbs().maxCoeff())
        throw InputError("--kc is not symmetric: entry (" + std::to_string(r + 1) + "," +
                         std::to_string(c + 1) + ") differs from (" + std::to_string(c + 1) + "," +
                         std::to_string(r + 1) + ")");
  if (Eigen::LLT<Matrix6>(k).info() != Eigen::Success)
    throw InputError("--kc is not positive definite (a singular or indefinite Cartesian stiffness)");
  return k;
}

std::array<bool, 6> parseHeldRows(std::string_view text)
{
  std::array<bool, 6> rows{};
  for (const std::string& name : split(text))
  {
    int found = -1;
    for (int r = 0; r < 6; ++r)
      if (name == rowNames[r]) found = r;
    if (found < 0) throw InputError("--hold: '" + name + "' is not one of x, y, z, rx, ry, rz");
    if (rows[static_cast<std::size_t>(found)]) throw InputError("--hold: '" + name + "' is named twice");
    rows[static_cast<std::size_t>(found)] = true;
  }
  return rows;
}

Configurations readConfigurations(const std::string& path, const Chain& chain)
{
  std::ifstream file(path);
  if (!file) throw InputError(path + ": cannot open the configurations file");
  const int n = chain.jointCount();
  const std::string chainText = "the joints between base '" + chain.baseLinkName() + "' and tip '" +
                                chain.tipLinkName() + "' are " + chain.jointNames();
  Configurations result;
  std::vector<std::vector<double>> rows;
  std::string line;
  int lineNumber = 0;
  while (std::getline(file, line))
  {
    ++lineNumber;
    const std::string text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    const std::vector<std::string> fields = split(text);
    const std::string where = path + " line " + std::to_string(lineNumber);
    if (result.columns.empty())
    {
      for (const std::string& name : fields)
      {
        const int index = chain.findJoint(name);
        if (index < 0) throw InputError(where + ": column '" + name + "' is not a chain joint; " + chainText);
        for (const std::string& earlier : result.columns)
          if (earlier == name) throw InputError(where + ": column '" + name + "' appears twice");
        result.columns.push_back(name);
        result.chainIndex.push_back(index);
      }
      if (static_cast<int>(fields.size()) != n)
      {
        std::string missing;
        for (const ChainJoint& joint : chain.joints())
          if (std::find(result.columns.begin(), result.columns.end(), joint.name) == result.columns.end())
            missing += (missing.empty() ? "'" : ", '") + joint.name + "'";
        throw InputError(where + ": the header names " + std::to_string(fields.size()) +
                         " joints, the chain has " + std::to_string(n) + " (missing " + missing + "); " +
                         chainText);
      }
      continue;
    }
    if (static_cast<int>(fields.size()) != n)
      throw InputError(where + ": " + std::to_string(fields.size()) + " joint values, the header names " +
                       std::to_string(n) + " joints");
    std::vector<double> q(static_cast<std::size_t>(n));
    for (std::size_t c = 0; c < fields.size(); ++c)
    {
      double value = 0.0;
      if (!toNumber(fields[c], value))
        throw InputError(where + ", column '" + result.columns[c] + "': '" + fields[c] +
                         "' is not a finite number (rad, or m for prismatic joints)");
      q[static_cast<std::size_t>(result.chainIndex[c])] = value;
    }
    rows.push_back(std::move(q));
    result.lines.push_back(lineNumber);
  }
  if (result.columns.empty()) throw InputError(path + ": no header line naming the joints; " + chainText);
  if (rows.empty()) throw InputError(path + ": no configuration after the header");
  result.q.resize(n, static_cast<Eigen::Index>(rows.size()));
  for (std::size_t c = 0; c < rows.size(); ++c)
    result.q.col(static_cast<Eigen::Index>(c)) = Eigen::Map<const Eigen::VectorXd>(rows[c].data(), n);
  return result;
}

Eigen::VectorXd parseStartConfiguration(std::string_view text, const Chain& chain)
{
  const std::vector<double> values = parseNumbers(text, "--q0");
  if (static_cast<int>(values.size()) != chain.jointCount())
    throw InputError("--q0 has " + std::to_string(values.size()) + " values, the chain from '" +
                     chain.baseLinkName() + "' to '" + chain.tipLinkName() + "' has " +
                     std::to_string(chain.jointCount()) + " joints (" + chain.jointNames() +
                     "), base to tip");
  return Eigen::Map<const Eigen::VectorXd>(values.data(), chain.jointCount());
}
} // namespace nao::stiffness::tool
