#pragma once
// Events a user sends into a running simulation over serve --control (Util/Simulator/App/README.md, "Events into a
// running simulation"): a push, a pick-up and put-down, a button, the battery, a winding's temperature, another plant,
// a sensor fault, a restart. SimulationControl parses a line into a ControlEvent and hands it to the run thread, which
// applies it at the start of the next frame (ControlEventRunner.h) and says so. This file parses, and writes an event
// back as the line that repeats it (events.csv's control column: a run can be replayed from it).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nao
{
enum class ControlEventKind : std::uint8_t
{
  push,        ///< force (N, world frame) for `seconds` at body `name` (empty: the torso)
  pickUp,      ///< lift the torso until the feet leave the ground
  putDown,     ///< lower it back and let go
  press,       ///< button `name` reads pressed for `seconds`
  hold,        ///< button `name` reads pressed until released
  release,     ///< button `name` reads released
  battery,     ///< the battery's charge becomes `value` (0..1)
  drain,       ///< the battery runs empty within `seconds`
  temperature, ///< joint `name`'s winding is at `value` °C
  preset,      ///< the robot becomes robots.toml's preset `name` ("normal": none) of its seed
  variant,     ///< the robot gets variants.toml's variant `name` ("none": none)
  fault,       ///< faults.toml's sensor fault `name` from now on
  faultClear,  ///< no sensor fault from now on
  restart,     ///< the scenario from its start
};

struct ControlEvent
{
  ControlEventKind kind = ControlEventKind::push;
  std::array<double, 3> force{}; ///< N, world frame (push)
  double seconds = 0.0;          ///< s (push, press, drain)
  double value = 0.0;            ///< battery: charge 0..1; temperature: °C
  std::string name;              ///< body, button, joint, preset, variant or fault
  std::uint64_t line = 0;        ///< the control input's line, for a later error
  std::string text;              ///< the line as it came, for a later error
};

/// Limits of the numbers an event takes.
struct ControlEventLimits
{
  inline static constexpr double maxForce = 500.0;       ///< N per axis (a scenario script's push: the same)
  inline static constexpr double defaultPush = 0.1;      ///< s, as a scenario script's push
  inline static constexpr double maxPush = 10.0;         ///< s
  inline static constexpr double defaultPress = 0.2;     ///< s (a short press: SitDownProvider's toggle)
  inline static constexpr double maxPress = 60.0;        ///< s
  inline static constexpr double maxDrain = 86400.0;     ///< s
  inline static constexpr double minTemperature = 0.0;   ///< °C
  inline static constexpr double maxTemperature = 150.0; ///< °C (the windings' insulation class F: 155 °C)
};

/// The buttons `press`, `hold` and `release` name, in LoLA's Touch order from 0 (NaoFacts.md §5).
inline constexpr std::array<std::string_view, 4> controlButtons = {"chest", "head-front", "head-middle",
                                                                   "head-rear"};

/// A line's words parsed: an event, or what is wrong with its arguments.
struct ParsedControlEvent
{
  std::optional<ControlEvent> event;
  std::string error;
};

/// The words of a line (the first is the command): nothing when the command is no event command; otherwise the
/// event or an error naming what is wrong (unknown button or joint, a number out of its range, NaN). Bodies, presets,
/// variants and faults are checked where they are known: by the run, when it applies the event.
std::optional<ParsedControlEvent> parseControlEvent(const std::vector<std::string_view>& words);

/// A whole line (words separated by spaces or tabs): as parseControlEvent.
std::optional<ParsedControlEvent> parseControlLine(std::string_view line);

/// The event as the control line that repeats it, its numbers exact: "push 45 0 0 for 0.1 at torso", "press chest
/// 0.2", "fault gyroStuck5".
std::string controlLine(const ControlEvent& event);

/// The event commands with their arguments, for an unknown command's error.
inline constexpr const char* controlEventSyntax =
    "push <fx> <fy> [<fz>] [for <s>] [at <body>] | pickup | putdown | press <button> [<s>] | hold <button> | "
    "release <button> | battery <charge> | drain <s> | temperature <joint> <degC> | preset <name> | "
    "variant <name> | fault <name> | fault clear | restart";
} // namespace nao
