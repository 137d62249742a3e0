#pragma once
#include <stdexcept>
#include <string>

namespace nao::stiffness
{
/// A chain, query or simulation that cannot be evaluated; the message names the link, joint or value.
class StiffnessError : public std::runtime_error
{
public:
  explicit StiffnessError(const std::string& message) : std::runtime_error(message) {}
};
} // namespace nao::stiffness
