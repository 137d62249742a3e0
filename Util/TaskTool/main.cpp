// TaskTool: solves hierarchies of tasks given as JSON with NaoTaskStack and prints each answer as a JSON line
// (README.md of this folder: the format, the checks on the input and the exit codes).
#include "Tools/Streams/Enum.h"
#include "Tools/TaskStack/HqpSolver.h"
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

using nao::taskstack::unboundedMagnitude;
/// Objects keep their keys in the order written (the output's: id, x, slackNorms, status).
using json = nlohmann::ordered_json;

namespace
{
/// The most variables plus rows of one case: the solver's QP is dense, (variables + rows)^2 doubles.
constexpr int maxSize = 4000;

/// A case's input that cannot be solved: what is wrong and where ("cases[3].levels[1].A row 2 has ...").
struct InputError : std::runtime_error
{
  using std::runtime_error::runtime_error;
};

struct Level
{
  Eigen::MatrixXd a, c;
  Eigen::VectorXd b, lo, hi;
};

struct Case
{
  int n = 0;
  std::vector<Level> levels;
};

std::string count(std::size_t number, const std::string& noun)
{
  return std::to_string(number) + " " + noun + (number == 1 ? "" : "s");
}

/// A JSON value for a message: short ones as written, long ones by their type.
std::string shown(const json& value)
{
  const std::string text = value.dump();
  return text.size() <= 40 ? text : std::string("a long ") + value.type_name();
}

void checkKeys(const json& object, const std::string& where, std::initializer_list<const char*> keys)
{
  for (const auto& item : object.items())
    if (std::find_if(keys.begin(), keys.end(), [&](const char* key) { return item.key() == key; }) ==
        keys.end())
    {
      std::string known;
      for (const char* key : keys)
        known += std::string(known.empty() ? "" : ", ") + key;
      throw InputError(where + " has the unknown key \"" + item.key() + "\" (known: " + known + ")");
    }
}

/// The array at object[key], empty when the key is missing.
const json& arrayAt(const json& object, const char* key, const std::string& where)
{
  static const json empty = json::array();
  const auto it = object.find(key);
  if (it == object.end()) return empty;
  if (!it->is_array()) throw InputError(where + " is " + shown(*it) + ", not a list");
  return *it;
}

/// A number of a matrix or a target: finite and below the magnitude that means "unbounded".
double entry(const json& value, const std::string& where)
{
  if (!value.is_number()) throw InputError(where + " is " + shown(value) + ", not a number");
  const double v = value.get<double>();
  if (!std::isfinite(v) || std::abs(v) >= unboundedMagnitude)
    throw InputError(where + " is 1e300 or more in magnitude: only a bound (lo, hi) may be unbounded");
  return v;
}

/// A bound: magnitude 1e300 or more is unbounded (passed on as ±1e300).
double bound(const json& value, const std::string& where)
{
  if (!value.is_number()) throw InputError(where + " is " + shown(value) + ", not a number");
  const double v = value.get<double>();
  return std::abs(v) >= unboundedMagnitude ? std::copysign(unboundedMagnitude, v) : v;
}

Eigen::MatrixXd matrix(const json& level, const char* key, const std::string& where, int n)
{
  const std::string name = where + "." + key;
  const json& rows = arrayAt(level, key, name);
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), n);
  for (std::size_t i = 0; i < rows.size(); ++i)
  {
    const json& row = rows[i];
    if (!row.is_array())
      throw InputError(name + " row " + std::to_string(i) + " is " + shown(row) + ", not a list of numbers");
    if (row.size() != static_cast<std::size_t>(n))
      throw InputError(name + " row " + std::to_string(i) + " has " + count(row.size(), "number") +
                       ", n is " + std::to_string(n));
    for (int j = 0; j < n; ++j)
      m(static_cast<Eigen::Index>(i), j) = entry(
          row[static_cast<std::size_t>(j)], name + "[" + std::to_string(i) + "][" + std::to_string(j) + "]");
  }
  return m;
}

Eigen::VectorXd vector(const json& level, const char* key, const std::string& where, Eigen::Index rows,
                       const char* matrixKey, bool isBound)
{
  const std::string name = where + "." + key;
  const json& values = arrayAt(level, key, name);
  if (values.size() != static_cast<std::size_t>(rows))
    throw InputError(name + " has " + count(values.size(), "number") + ", " + matrixKey + " has " +
                     count(static_cast<std::size_t>(rows), "row"));
  Eigen::VectorXd v(rows);
  for (Eigen::Index i = 0; i < rows; ++i)
  {
    const std::string at = name + "[" + std::to_string(i) + "]";
    v[i] = isBound ? bound(values[static_cast<std::size_t>(i)], at)
                   : entry(values[static_cast<std::size_t>(i)], at);
  }
  return v;
}

Level readLevel(const json& input, const std::string& where, int n)
{
  if (!input.is_object()) throw InputError(where + " is " + shown(input) + ", not an object");
  checkKeys(input, where, {"A", "b", "C", "lo", "hi"});
  Level level;
  level.a = matrix(input, "A", where, n);
  level.b = vector(input, "b", where, level.a.rows(), "A", false);
  level.c = matrix(input, "C", where, n);
  level.lo = vector(input, "lo", where, level.c.rows(), "C", true);
  level.hi = vector(input, "hi", where, level.c.rows(), "C", true);
  for (Eigen::Index i = 0; i < level.c.rows(); ++i)
  {
    const std::string row = "[" + std::to_string(i) + "]";
    if (level.lo[i] >= unboundedMagnitude)
      throw InputError(where + ".lo" + row + " is +1e300 or more: a lower bound cannot be +unbounded");
    if (level.hi[i] <= -unboundedMagnitude)
      throw InputError(where + ".hi" + row + " is -1e300 or less: an upper bound cannot be -unbounded");
    if (level.lo[i] > level.hi[i])
    {
      std::ostringstream message;
      message.precision(17);
      message << where << ".lo" << row << " = " << level.lo[i] << " is above hi" << row << " = "
              << level.hi[i];
      throw InputError(message.str());
    }
  }
  return level;
}

Case readCase(const json& input, const std::string& where)
{
  if (!input.is_object()) throw InputError(where + " is " + shown(input) + ", not an object");
  checkKeys(input, where, {"id", "n", "levels"});
  const auto n = input.find("n");
  if (n == input.end()) throw InputError(where + " has no \"n\" (the number of variables)");
  if (!n->is_number_integer() || n->get<std::int64_t>() < 1 || n->get<std::int64_t>() > maxSize)
    throw InputError(where + ".n is " + shown(*n) + ", not a whole number from 1 to " +
                     std::to_string(maxSize));
  const auto levels = input.find("levels");
  if (levels == input.end()) throw InputError(where + " has no \"levels\" (a list, highest priority first)");
  if (!levels->is_array()) throw InputError(where + ".levels is " + shown(*levels) + ", not a list");
  Case result;
  result.n = n->get<int>();
  long size = result.n;
  for (std::size_t k = 0; k < levels->size(); ++k)
  {
    result.levels.push_back(readLevel((*levels)[k], where + ".levels[" + std::to_string(k) + "]", result.n));
    size += result.levels.back().a.rows() + result.levels.back().c.rows();
  }
  if (size > maxSize)
    throw InputError(where + " has " + std::to_string(size) + " variables and rows in all, more than " +
                     std::to_string(maxSize));
  return result;
}

json solve(const Case& problem)
{
  nao::taskstack::HqpCapacity capacity{problem.n, static_cast<int>(problem.levels.size()), 0, 0};
  for (const Level& level : problem.levels)
  {
    capacity.equalityRows += static_cast<int>(level.a.rows());
    capacity.inequalityRows += static_cast<int>(level.c.rows());
  }
  nao::taskstack::HqpSolver solver(capacity);
  solver.clear(problem.n);
  for (const Level& level : problem.levels)
    solver.addLevel(level.a, level.b, level.c, level.lo, level.hi);
  const nao::taskstack::HqpStatus status = solver.solve();
  const auto x = solver.solution();
  json answer;
  answer["x"] = std::vector<double>(x.data(), x.data() + x.size());
  if (status == nao::taskstack::HqpStatus::optimal)
  {
    const auto slackNorms = solver.slackNorms();
    answer["slackNorms"] = std::vector<double>(slackNorms.begin(), slackNorms.end());
  }
  answer["status"] = std::string(nao::streams::enumName(status));
  // Otherwise the solver stopped at a level (the number of levels: the final least-norm step): x is where it
  // stopped, and it computed no slack norms.
  if (status != nao::taskstack::HqpStatus::optimal) answer["failedLevel"] = solver.failedLevel();
  return answer;
}

/// `text` with every number too large for a double (1e400) written as ±1e308, padded to its length so that a
/// parse error's column stays where it was: such numbers are accepted as unbounded bounds.
std::string clampHugeNumbers(std::string text)
{
  for (std::size_t i = 0; i < text.size();)
  {
    const char c = text[i];
    if (c == '"')
    {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    }
    else if (c == '-' || (c >= '0' && c <= '9'))
    {
      std::size_t end = i + 1;
      while (end < text.size() &&
             std::string_view("0123456789.eE+-").find(text[end]) != std::string_view::npos)
        ++end;
      const std::string token = text.substr(i, end - i);
      if (std::isinf(std::strtod(token.c_str(), nullptr)))
      {
        std::string replacement = c == '-' ? "-1e308" : "1e308";
        replacement.resize(token.size(), ' ');
        text.replace(i, token.size(), replacement);
      }
      i = end;
    }
    else
      ++i;
  }
  return text;
}

/// The whole of `file` (standard input for "-"); none, with the reason on standard error, if it cannot be read.
std::optional<std::string> readInput(const std::string& file)
{
  std::string text;
  if (file == "-")
  {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return text;
  }
  std::error_code error;
  if (std::filesystem::is_directory(file, error))
  {
    std::cerr << "TaskTool hqp: cannot read " << file << ": it is a folder\n";
    return std::nullopt;
  }
  std::ifstream stream(file, std::ios::binary);
  if (!stream)
  {
    std::cerr << "TaskTool hqp: cannot read " << file << ": " << std::strerror(errno) << "\n";
    return std::nullopt;
  }
  try
  {
    text.assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
  }
  catch (const std::exception& failure)
  {
    std::cerr << "TaskTool hqp: cannot read " << file << ": " << failure.what() << "\n";
    return std::nullopt;
  }
  return text;
}

int hqp(const std::string& file)
{
  std::optional<std::string> text = readInput(file);
  if (!text) return 2;
  const std::string name = file == "-" ? "standard input" : file;
  json input;
  try
  {
    input = json::parse(clampHugeNumbers(std::move(*text)));
  }
  catch (const json::exception& error)
  {
    std::cerr << "TaskTool hqp: " << name << " is not JSON: " << error.what() << "\n";
    return 2;
  }
  const auto cases = input.is_object() ? input.find("cases") : input.end();
  if (!input.is_object() || cases == input.end() || !cases->is_array() || input.size() != 1)
  {
    std::cerr << "TaskTool hqp: " << name << " must be one object {\"cases\": [...]} and nothing else\n";
    return 2;
  }
  int status = 0;
  for (std::size_t i = 0; i < cases->size(); ++i)
  {
    const json& item = (*cases)[i];
    const std::string where = "cases[" + std::to_string(i) + "]";
    json line;
    line["id"] = item.is_object() && item.contains("id") ? item["id"] : json();
    try
    {
      const json answer = solve(readCase(item, where));
      for (const auto& field : answer.items())
        line[field.key()] = field.value();
      if (line["status"] != "optimal")
        std::cerr << "TaskTool hqp: " << name << ": " << where << ": the solver says "
                  << line["status"].get<std::string>() << " at level " << line["failedLevel"].dump() << "\n";
    }
    catch (const InputError& error)
    {
      std::cerr << "TaskTool hqp: " << name << ": " << error.what() << "\n";
      line["status"] = "invalidInput";
      line["error"] = error.what();
      status = 1;
    }
    std::cout << line.dump() << std::endl;
  }
  return status;
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Solves hierarchies of tasks (hierarchical least squares) given as JSON"};
  app.require_subcommand(1);
  std::string file;
  auto* hqpCommand = app.add_subcommand(
      "hqp", "each case of FILE solved by NaoTaskStack's HqpSolver (exact mode), one JSON line per case");
  hqpCommand->add_option("FILE", file, "the cases as JSON ({\"cases\": [...]}), - for standard input")
      ->required();
  CLI11_PARSE(app, argc, argv);
  return hqp(file);
}
