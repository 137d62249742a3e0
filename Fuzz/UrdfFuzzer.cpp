// URDF loader: a robot model from arbitrary XML text (the robot reads Config/Robots/<robot>/nao-v6.urdf at start-up).
// Anything it cannot represent must be a ModelError, never a crash, a hang or a model with non-finite numbers.
#include "Tools/Kinematics/UrdfLoader.h"
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  try
  {
    const nao::kinematics::Model model = nao::kinematics::buildModel(xml, {}, "fuzz.urdf");
    if (!std::isfinite(model.totalMass())) std::abort();
  }
  catch (const std::exception&)
  {
  }
  return 0;
}
