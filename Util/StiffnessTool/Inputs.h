#pragma once
// Parsing and checking the StiffnessTool's inputs. Every error is an InputError whose message names the
// option or file, the line and the column, and what is wrong.
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Stiffness/Chain.h"

#include <Eigen/Core>
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nao::stiffness::tool
{
class InputError : public std::runtime_error
{
public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// "1,0,0.5" -> numbers; `what` names the option in messages. Rejects empty fields, non-numbers, NaN, inf.
std::vector<double> parseNumbers(std::string_view text, const std::string& what);

/// --direction: 6 numbers (m, m, m, rad, rad, rad), not all zero.
kinematics::Vector6 parseDirection(std::string_view text);

/// --kc: empty (identity), 6 positive diagonal values, or 36 values (row-major) of a symmetric positive
/// definite matrix.
kinematics::Matrix6 parseCartesianStiffness(std::string_view text);

/// --hold: comma-separated row names out of x, y, z, rx, ry, rz.
std::array<bool, 6> parseHeldRows(std::string_view text);

/// A q.csv: a header naming every chain joint once (any order), one configuration per line (rad, m).
struct Configurations
{
  std::vector<std::string> columns; ///< the header's joint names, file order
  std::vector<int> chainIndex;      ///< chain joint of each column
  Eigen::MatrixXd q;                ///< n x count, chain order (base -> tip)
  std::vector<int> lines;           ///< file line of each configuration (1-based)
};
Configurations readConfigurations(const std::string& path, const Chain& chain);

/// --q0: n numbers in chain order.
Eigen::VectorXd parseStartConfiguration(std::string_view text, const Chain& chain);
} // namespace nao::stiffness::tool
