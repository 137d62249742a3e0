// The console's commands and the parameter editor's requests: each runs on the link's worker thread (DebugClient
// blocks) and hands back what the GUI thread shows.
#include "Framework/Client/DebugClient.h"
#include "Framework/Module.h"
#include "Util/DebugGui/MainWindow.h"
#include <sstream>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}

std::vector<std::string> splitWords(const std::string& line, std::size_t maxWords)
{
  // The last word takes the rest of the line (a TOML value may contain spaces).
  std::vector<std::string> words;
  std::size_t i = line.find_first_not_of(' ');
  while (i != std::string::npos)
  {
    if (words.size() + 1 == maxWords)
    {
      words.push_back(line.substr(i));
      break;
    }
    const std::size_t end = line.find(' ', i);
    words.push_back(line.substr(i, end - i));
    i = end == std::string::npos ? end : line.find_first_not_of(' ', end);
  }
  return words;
}
} // namespace

void MainWindow::requestParameters(const std::string& module)
{
  if (log_)
  {
    // The parameters the log recorded as in force at the timeline's frame; the units and ranges are this binary's.
    const auto parameters = log_->metadata.parametersAt(logFrame_);
    const auto found = parameters.find(module);
    const ModuleInfo* info = ModuleRegistry::instance().find(module);
    parameters_->showParameters(module, found == parameters.end() ? std::string() : found->second,
                                info && info->parameters ? info->parameters->fields
                                                         : std::vector<FieldDescription>{});
    return;
  }
  if (!link_) return;
  link_->post(
      [this, module](DebugClient& client) -> std::function<void()>
      {
        try
        {
          const debug::Parameters parameters = client.parameters(module);
          return [this, parameters]
          { parameters_->showParameters(parameters.module, parameters.toml, parameters.fields); };
        }
        catch (const std::exception& error)
        {
          return [this, message = std::string(error.what())] { onError(message); };
        }
      });
}

void MainWindow::setParameter(const std::string& module, const std::string& key, const std::string& value)
{
  if (!link_)
  {
    parameters_->editResult(module, key, value, false, "not connected to a robot");
    return;
  }
  link_->post(
      [this, module, key, value](DebugClient& client) -> std::function<void()>
      {
        const debug::Reply reply = client.setParameter(module, key, value);
        return [this, module, key, value, reply]
        {
          parameters_->editResult(module, key, value, reply.ok, reply.message);
          console_->print(q((reply.ok ? "set: " : "refused: ") + reply.message));
        };
      });
}

void MainWindow::runCommand(const std::string& line)
{
  const std::vector<std::string> words = splitWords(line, line.starts_with("set ") ? 4 : 3);
  const std::string command = words.empty() ? "" : words[0];
  const auto print = [this](const std::string& text) { console_->print(q(text)); };
  if (command == "help" || command.empty())
    return print(
        "list | get <module|representation> | set <module> <key> <value> | provider <representation> "
        "<module|off> | subscribe <representation> | unsubscribe <representation> | log start [name] | "
        "log stop | plot <Representation.leaf>");
  if (command == "plot" && words.size() == 2) return plotField(words[1]);
  if (!link_ || !link_->connected()) return print("not connected to a robot");
  auto replyPrinter = [this](const debug::Reply& reply) -> std::function<void()>
  { return [this, reply] { console_->print(q((reply.ok ? "" : "refused: ") + reply.message)); }; };
  if (command == "list")
    return link_->post(
        [this](DebugClient& client) -> std::function<void()>
        {
          const debug::ListReply list = client.list();
          return [this, list]
          {
            std::ostringstream text;
            text << "scenario " << list.scenario << "\nexecution order:\n"
                 << list.plan << "representations:\n";
            for (const auto& representation : list.representations)
              text << "  " << representation.name << " <- "
                   << (representation.provider.empty() ? "(none)" : representation.provider) << "\n";
            console_->print(q(text.str()));
            graph_->setGraph(list);
          };
        });
  if (command == "get" && words.size() == 2)
  {
    for (const auto& module : list_.modules)
      if (module.name == words[1])
        return link_->post(
            [this, name = words[1]](DebugClient& client) -> std::function<void()>
            {
              try
              {
                const std::string toml = client.parameters(name).toml;
                return [this, toml] { console_->print(q(toml)); };
              }
              catch (const std::exception& error)
              {
                return [this, message = std::string(error.what())]
                { console_->print(q("refused: " + message)); };
              }
            });
    ++pendingGets_[words[1]];
    link_->retain(words[1]);
    return;
  }
  if (command == "set" && words.size() == 4) return setParameter(words[1], words[2], words[3]);
  if (command == "provider" && words.size() == 3)
    return link_->post(
        [this, words](DebugClient& client) -> std::function<void()>
        {
          const debug::Reply reply = client.setProvider(words[1], words[2]);
          const debug::ListReply list = client.list();
          return [this, reply, list]
          {
            console_->print(q((reply.ok ? "" : "refused: ") + reply.message));
            graph_->setGraph(list);
          };
        });
  if (command == "subscribe" && words.size() == 2)
    return link_->retain(words[1]), print("subscribed " + words[1]);
  if (command == "unsubscribe" && words.size() == 2)
    return link_->release(words[1]), print("released " + words[1]);
  if (command == "log" && words.size() >= 2 && words[1] == "start")
    return link_->post([replyPrinter, name = words.size() > 2 ? words[2] : std::string()](DebugClient& client)
                       { return replyPrinter(client.startLog(name)); });
  if (command == "log" && words.size() == 2 && words[1] == "stop")
    return link_->post([replyPrinter](DebugClient& client) { return replyPrinter(client.stopLog()); });
  print("unknown command '" + line + "' (help lists the commands)");
}
} // namespace nao::gui
