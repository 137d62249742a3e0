#pragma once
// Owning handles for MuJoCo's model and data, and loading a model from MJCF text. MuJoCo 2.2.2 has no
// load-from-string call: the text goes through its virtual file system.
#include <memory>
#include <string_view>

#include <mujoco/mujoco.h>

namespace nao::sim
{
struct MjModelDeleter
{
  void operator()(mjModel* model) const { mj_deleteModel(model); }
};
struct MjDataDeleter
{
  void operator()(mjData* data) const { mj_deleteData(data); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjModelDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

/// Compiles MJCF text; throws std::runtime_error with MuJoCo's message (which names the element) on failure.
MjModelPtr loadMjcf(std::string_view mjcfText);

/// Model element id by name; throws std::runtime_error naming what is missing.
int requireId(const mjModel& model, mjtObj type, const char* name);
} // namespace nao::sim
