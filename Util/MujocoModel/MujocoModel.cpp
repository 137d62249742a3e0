#include "Util/MujocoModel/MujocoModel.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace nao::sim
{
MjModelPtr loadMjcf(std::string_view mjcfText)
{
  // mjVFS holds 2000 file slots (a few MB): keep it off the stack.
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* fileName = "nao_sim_model.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), fileName, static_cast<int>(mjcfText.size())) != 0)
    throw std::runtime_error("MuJoCo virtual file system: cannot create the model file");
  const int file = mj_findFileVFS(vfs.get(), fileName);
  std::memcpy(vfs->filedata[file], mjcfText.data(), mjcfText.size());
  char error[1024] = "";
  mjModel* model = mj_loadXML(fileName, vfs.get(), error, sizeof(error));
  mj_deleteVFS(vfs.get());
  if (!model) throw std::runtime_error(std::string("MuJoCo cannot compile the generated model: ") + error);
  return MjModelPtr(model);
}

int requireId(const mjModel& model, mjtObj type, const char* name)
{
  const int id = mj_name2id(&model, type, name);
  if (id < 0) throw std::runtime_error(std::string("MuJoCo model has no '") + name + "'");
  return id;
}
} // namespace nao::sim
