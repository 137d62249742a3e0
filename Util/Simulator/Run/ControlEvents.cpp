#include "Util/Simulator/Run/ControlEvents.h"

#include "Representations/Infrastructure/Joints.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace nao
{
namespace
{
std::string exact(double value)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

/// A finite number within [low, high] (lowOpen: above low); nothing otherwise.
std::optional<double> number(std::string_view text, double low, double high, bool lowOpen = false)
{
  double value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  if (value < low || value > high || (lowOpen && value <= low)) return std::nullopt;
  return value;
}

std::string list(const auto& names)
{
  std::string text;
  for (const auto& name : names)
    text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

ControlEvent eventOf(ControlEventKind kind)
{
  ControlEvent event;
  event.kind = kind;
  return event;
}

ParsedControlEvent failure(std::string what)
{
  return {std::nullopt, std::move(what)};
}

/// A number that is none, or out of its range: named, then the command's usage with the ranges.
ParsedControlEvent badNumber(std::string_view word, const std::string& usage)
{
  return failure("'" + std::string(word) + "' is not a number in its range: " + usage);
}

ParsedControlEvent parsePush(const std::vector<std::string_view>& words)
{
  using L = ControlEventLimits;
  const std::string usage = "push <fx> <fy> [<fz>] [for <s>] [at <body>]: force in N, world frame, each of "
                            "-" +
                            exact(L::maxForce) + ".." + exact(L::maxForce) + ", for 0.." + exact(L::maxPush) +
                            " s (default " + exact(L::defaultPush) + ")";
  ControlEvent event = eventOf(ControlEventKind::push);
  event.seconds = L::defaultPush;
  std::size_t k = 1, axes = 0;
  for (; k < words.size() && axes < 3 && words[k] != "for" && words[k] != "at"; ++k, ++axes)
  {
    const auto force = number(words[k], -L::maxForce, L::maxForce);
    if (!force) return badNumber(words[k], usage);
    event.force[axes] = *force;
  }
  if (axes < 2) return failure(usage);
  if (k + 1 < words.size() && words[k] == "for")
  {
    const auto seconds = number(words[k + 1], 0.0, L::maxPush, true);
    if (!seconds) return badNumber(words[k + 1], usage);
    event.seconds = *seconds;
    k += 2;
  }
  if (k + 1 < words.size() && words[k] == "at")
  {
    event.name = words[k + 1];
    k += 2;
  }
  if (k != words.size()) return failure(usage);
  return {event, {}};
}

ParsedControlEvent parseButton(ControlEventKind kind, const std::vector<std::string_view>& words)
{
  using L = ControlEventLimits;
  const bool press = kind == ControlEventKind::press;
  const std::string usage =
      std::string(words[0]) + " <button>" +
      (press ? " [<s>] (0.." + exact(L::maxPress) + ", default " + exact(L::defaultPress) + ")" : "") +
      ", the buttons: " + list(controlButtons);
  if (words.size() < 2 || words.size() > (press ? 3u : 2u)) return failure(usage);
  if (std::find(controlButtons.begin(), controlButtons.end(), words[1]) == controlButtons.end())
    return failure("unknown button '" + std::string(words[1]) + "' (" + list(controlButtons) + ")");
  ControlEvent event = eventOf(kind);
  event.name = words[1];
  event.seconds = L::defaultPress;
  if (words.size() == 3)
  {
    const auto seconds = number(words[2], 0.0, L::maxPress, true);
    if (!seconds) return badNumber(words[2], usage);
    event.seconds = *seconds;
  }
  return {event, {}};
}

ParsedControlEvent parseTemperature(const std::vector<std::string_view>& words)
{
  using L = ControlEventLimits;
  const std::string usage = "temperature <joint> <degC>: a joint of LoLA's (HeadYaw .. RHand) and " +
                            exact(L::minTemperature) + ".." + exact(L::maxTemperature) + " degC";
  if (words.size() != 3) return failure(usage);
  if (std::find(jointNames.begin(), jointNames.end(), words[1]) == jointNames.end())
    return failure("unknown joint '" + std::string(words[1]) + "' (" + list(jointNames) + ")");
  const auto degrees = number(words[2], L::minTemperature, L::maxTemperature);
  if (!degrees) return badNumber(words[2], usage);
  ControlEvent event = eventOf(ControlEventKind::temperature);
  event.name = words[1];
  event.value = *degrees;
  return {event, {}};
}

/// Commands of one number: battery, drain.
ParsedControlEvent parseNumber(ControlEventKind kind, const std::vector<std::string_view>& words)
{
  const bool battery = kind == ControlEventKind::battery;
  const std::string usage =
      battery ? "battery <charge>: 0..1"
              : "drain <s>: the battery empty within 0.." + exact(ControlEventLimits::maxDrain) + " s";
  if (words.size() != 2) return failure(usage);
  const auto value =
      battery ? number(words[1], 0.0, 1.0) : number(words[1], 0.0, ControlEventLimits::maxDrain, true);
  if (!value) return badNumber(words[1], usage);
  ControlEvent event = eventOf(kind);
  (battery ? event.value : event.seconds) = *value;
  return {event, {}};
}

/// Commands of one name: preset, variant, fault.
ParsedControlEvent parseName(ControlEventKind kind, const std::vector<std::string_view>& words)
{
  const std::string what = kind == ControlEventKind::preset ? "preset <name> (normal: none; Sim/robots.toml)"
                           : kind == ControlEventKind::variant
                               ? "variant <name> (none: none; Sim/variants.toml)"
                               : "fault <name> | fault clear (Sim/faults.toml)";
  if (words.size() != 2) return failure(what);
  ControlEvent event =
      eventOf(kind == ControlEventKind::fault && words[1] == "clear" ? ControlEventKind::faultClear : kind);
  if (event.kind != ControlEventKind::faultClear) event.name = words[1];
  return {event, {}};
}
} // namespace

std::optional<ParsedControlEvent> parseControlEvent(const std::vector<std::string_view>& words)
{
  if (words.empty()) return std::nullopt;
  const std::string_view command = words[0];
  using K = ControlEventKind;
  if (command == "push") return parsePush(words);
  if (command == "press") return parseButton(K::press, words);
  if (command == "hold") return parseButton(K::hold, words);
  if (command == "release") return parseButton(K::release, words);
  if (command == "battery") return parseNumber(K::battery, words);
  if (command == "drain") return parseNumber(K::drain, words);
  if (command == "temperature") return parseTemperature(words);
  if (command == "preset") return parseName(K::preset, words);
  if (command == "variant") return parseName(K::variant, words);
  if (command == "fault") return parseName(K::fault, words);
  for (const auto& [word, kind] :
       {std::pair{"pickup", K::pickUp}, {"putdown", K::putDown}, {"restart", K::restart}})
    if (command == word)
      return words.size() == 1 ? ParsedControlEvent{eventOf(kind), {}}
                               : failure(std::string(word) + " takes no arguments");
  return std::nullopt;
}

std::optional<ParsedControlEvent> parseControlLine(std::string_view line)
{
  std::vector<std::string_view> words;
  for (std::size_t at = line.find_first_not_of(" \t\r"); at != std::string_view::npos;)
  {
    const std::size_t end = line.find_first_of(" \t\r", at);
    words.push_back(line.substr(at, end - at));
    at = end == std::string_view::npos ? end : line.find_first_not_of(" \t\r", end);
  }
  return parseControlEvent(words);
}

std::string controlLine(const ControlEvent& event)
{
  using K = ControlEventKind;
  switch (event.kind)
  {
  case K::push:
    return "push " + exact(event.force[0]) + " " + exact(event.force[1]) + " " + exact(event.force[2]) +
           " for " + exact(event.seconds) + " at " + (event.name.empty() ? "torso" : event.name);
  case K::pickUp:
    return "pickup";
  case K::putDown:
    return "putdown";
  case K::press:
    return "press " + event.name + " " + exact(event.seconds);
  case K::hold:
    return "hold " + event.name;
  case K::release:
    return "release " + event.name;
  case K::battery:
    return "battery " + exact(event.value);
  case K::drain:
    return "drain " + exact(event.seconds);
  case K::temperature:
    return "temperature " + event.name + " " + exact(event.value);
  case K::preset:
    return "preset " + event.name;
  case K::variant:
    return "variant " + event.name;
  case K::fault:
    return "fault " + event.name;
  case K::faultClear:
    return "fault clear";
  case K::restart:
    return "restart";
  }
  return {};
}
} // namespace nao
