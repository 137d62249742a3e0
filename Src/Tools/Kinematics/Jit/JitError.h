#pragma once
#include <stdexcept>
#include <string>

namespace nao::kinematics::jit
{
/// The JIT cannot be used: this CPU cannot run the generated code, or asmjit reported an error.
class JitError : public std::runtime_error
{
public:
  explicit JitError(const std::string& message) : std::runtime_error(message) {}
};
} // namespace nao::kinematics::jit
