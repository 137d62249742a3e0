#pragma once
// Config/Sim/faults.toml: sensor faults, readings a real NAO's sensors can give (a gyroscope stuck at a plausible
// rate, a battery board that reads 0 once, a bouncing chest button, NaN from one board), each with its physical
// reason; none is tuned toward a module. `Simulator run <scenario> --fault NAME --fault-at SECONDS` changes the LoLA
// sensor frame the robot receives from that time on, just before it is sent: the plant, the CSV and the summary keep
// the true readings, the robot's log shows what it got. `Simulator faults` runs every fault against the robot code
// (FaultMatrix.h). Util/Simulator/README.md, "Sensor faults", says more. The faults live only in the file; every
// member of the loaded structs starts at zero or empty (PlantValuesLiveOnlyInConfigSim).
#include "Platform/LoLA/LolaProtocol.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
/// The LoLA sensor keys a fault can change, spelled as LoLA spells them (NaoFacts.md §2).
NAO_ENUM(LolaSensorKey, std::uint8_t, Position, Stiffness, Temperature, Current, Status, Accelerometer,
         Gyroscope, Angles, FSR, Touch, Battery);

/// What a change does to a reading while it acts.
NAO_ENUM(FaultMode, std::uint8_t,
         set,   ///< the reading becomes `value`
         add,   ///< `value` is added to the reading
         scale, ///< the reading is multiplied by `value`
         hold,  ///< the reading stays at what it read in the fault's first frame
         nan,   ///< the reading is NaN
);

/// One change of the LoLA sensor frame. Values in the key's own LoLA units (rad, °C, A, m/s² with LoLA's raw signs,
/// rad/s, kg, 0..1); times in s, rounded to whole LoLA frames (12 ms).
struct FaultChange
{
  LolaSensorKey key = LolaSensorKey::Gyroscope;
  std::vector<int> elements; ///< indices into the key's array, LoLA order (NaoFacts.md §4-§6); empty: all
  FaultMode mode = FaultMode::set;
  double value = 0.0;   ///< set: the reading; add: the offset; scale: the factor
  double onTime = 0.0;  ///< s the change acts, then ...
  double offTime = 0.0; ///< ... s it does not, repeating; 0: it acts throughout
  std::vector<double>
      offValue;          ///< during the off phase the reading is set to this (one value); empty: left alone
  double duration = 0.0; ///< s after the onset the change lasts; 0: to the end of the run

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("key", key) & field("elements", elements).range(0, 24) & field("mode", mode);
    ar& field("value", value).range(-1e6, 1e6);
    ar& field("onTime", onTime).range(0.0, 3600.0) & field("offTime", offTime).range(0.0, 3600.0);
    ar& field("offValue", offValue).range(-1e6, 1e6) & field("duration", duration).range(0.0, 86400.0);
  }
};

struct InjectedFault
{
  std::string name;
  std::string reason; ///< why a real NAO could read so, in a line
  std::vector<FaultChange> changes;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("name", name) & streams::field("reason", reason) & streams::field("changes", changes);
  }
};

struct SensorFaults
{
  std::vector<InjectedFault> faults;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("faults", faults);
  }
};

/// A fault as a run's outputs show it: events.csv, the plots' event lines, summary.csv.
struct FaultEvent
{
  std::string name;
  double onset = 0.0; ///< s
  double end = -1.0;  ///< s when its last change ends; < 0: it lasts to the end of the run
};

/// Reads and checks <configDirectory>/Sim/faults.toml. Throws streams::ConfigError naming file, line and key.
SensorFaults loadSensorFaults(const std::filesystem::path& configDirectory);

/// Checks what ranges cannot: unique names, a reason, elements within the key's array, a mode the key allows
/// (Status: set or hold of a status 0..3), one offValue at most, on and off phases of at least one frame. Throws
/// streams::ConfigError naming the key.
void validate(const SensorFaults& faults);

/// The fault `name`; throws std::runtime_error naming the known faults and the closest.
const InjectedFault& findFault(const SensorFaults& faults, const std::string& name);

/// The number of elements of a key's array in the LoLA frame (Position: 25, Gyroscope: 3, Touch: 14, ...).
std::size_t elementCount(LolaSensorKey key);

/// One fault applied to the frames from its onset on: every frame the simulator sends passes through apply().
class SensorFaultInjector
{
public:
  SensorFaultInjector(InjectedFault fault, double onset, double frameTime = lolaFrameSeconds);

  /// Changes `frame`, the frame of simulated time `time` (s), as the fault says; before the onset, nothing. Called
  /// once per frame: the frames count from the first one at or after the onset.
  void apply(double time, LolaSensorFrame& frame);
  /// The fault's name, onset and end, for the run's outputs.
  FaultEvent event() const;

private:
  /// Frames a time lasts (at least one where the time is above 0).
  long frames(double seconds) const;
  void applyChange(std::size_t change, long frame, LolaSensorFrame& lola);

  InjectedFault fault_;
  double onset_;
  double frameTime_;
  std::vector<std::vector<float>> held_; ///< per change: the readings of the fault's first frame (hold)
  long framesApplied_ = 0;               ///< frames since the onset
};
} // namespace nao
