#pragma once
#include <stdexcept>
#include <string>

namespace nao::kinematics
{
/// A robot description or calibration that cannot be used; the message names the file, line and element.
class ModelError : public std::runtime_error
{
public:
  explicit ModelError(const std::string& message) : std::runtime_error(message) {}
};
} // namespace nao::kinematics
