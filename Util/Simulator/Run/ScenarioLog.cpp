#include "Util/Simulator/Run/ScenarioLog.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nao
{
std::string withLoggedRepresentations(const std::string& scenarioText, const std::vector<std::string>& names)
{
  std::string list = "[";
  for (std::size_t k = 0; k < names.size(); ++k)
    list += (k == 0 ? "\"" : ", \"") + names[k] + "\"";
  list += "]";
  std::istringstream in(scenarioText);
  std::string line, out;
  bool inLog = false, skipping = false;
  while (std::getline(in, line))
  {
    if (skipping)
    {
      skipping = line.find(']') == std::string::npos;
      continue;
    }
    if (!line.empty() && line[0] == '[') inLog = line.rfind("[Log]", 0) == 0;
    if (inLog && line.rfind("representations = ", 0) == 0)
    {
      out += "representations = " + list + "\n";
      skipping = line.find(']') == std::string::npos;
      continue;
    }
    out += line + "\n";
  }
  return out;
}

std::filesystem::path configLogging(const std::filesystem::path& source, const std::filesystem::path& target,
                                    const std::vector<std::string>& scenarios,
                                    const std::vector<std::string>& names)
{
  std::filesystem::remove_all(target);
  std::filesystem::create_directories(target.parent_path());
  std::filesystem::copy(source, target, std::filesystem::copy_options::recursive);
  for (const std::string& scenario : scenarios)
  {
    const std::filesystem::path file = target / "Scenarios" / (scenario + ".toml");
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::stringstream text;
    text << in.rdbuf();
    in.close();
    std::ofstream out(file);
    out << withLoggedRepresentations(text.str(), names);
    if (!out) throw std::runtime_error("cannot write " + file.string());
  }
  return target;
}
} // namespace nao
