#pragma once
// The per-robot thermal budget: minutes until the first joint reaches temperature status 1 at the present load, if the
// robot stood and if it sat down, the joint that limits it, the hottest joint, and whether the robot should rest (a
// trusted forecast below restBelow). A reduction of JointThermalState over 25 joints, every frame; no allocation. The
// computation is shared with `LogTool thermal` (Modules/Modeling/Common/ThermalBudgetComputation.h). "If it stood"
// needs the loads of a stand: the module remembers each joint's mean squared current whenever the robot has stood
// still on both feet for standHold (its leg joints within standStillness of where the stand began, both feet pressed
// and the soles carrying standWeight). README.md of this folder: the rules and what it does with bad input.
#include "Framework/Module.h"
#include "Modules/Modeling/Common/ThermalBudgetComputation.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/ThermalBudget.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Streams/Field.h"
#include <numbers>

namespace nao
{
struct ThermalBudgetParameters
{
  float restBelow = defaultRestBelowMinutes;                       // min
  float standHold = 10.f;                                          // s
  float standStillness = 0.5f * std::numbers::pi_v<float> / 180.f; // rad
  float standWeight = 3.f;                                         // kg

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& streams::field("restBelow", restBelow)
            .range(0.0, 120.0)
            .doc("min: shouldRest once a trusted forecast of the minutes to status 1 is below this") &
        streams::field("standHold", standHold)
            .unit(Unit::seconds)
            .range(1.0, 600.0)
            .doc("a stand counts once the robot has stood still this long; its loads are then remembered") &
        streams::field("standStillness", standStillness)
            .unit(Unit::degrees)
            .range(0.1, 10.0)
            .doc("each leg joint stays this close to its angle at the stand's start") &
        streams::field("standWeight", standWeight)
            .unit(Unit::kilograms)
            .range(0.5, 10.0)
            .doc("the soles carry at least this (a NAO V6 weighs 5.3 kg) with both feet pressed");
  }
};

class ThermalBudgetProvider
    : public Module<ThermalBudgetProvider,
                    Requires<JointThermalState,          // this frame's per-joint forecast
                             JointSensorData,            // leg angles: whether the robot stands still
                             FsrSensorData,              // soles: whether it stands on both feet
                             FrameInfo>,                 // s: how long it has stood
                    Provides<ThermalBudget>,             // the per-robot answer
                    Parameters<ThermalBudgetParameters>> // Config/Modules/<Module>.toml (optional)
{
public:
  using Module::Module;
  void update(ThermalBudget& budget);

private:
  /// Whether the robot has stood still on both feet for standHold now; restarts the stand where it does not.
  bool standsStill();

  ThermalBudgetMemory memory_; ///< each joint's last usable times, held while unusable
  StandingLoads standingLoads_ =
      ThermalBudgetMemory::filledWithNaN(); ///< A², the last stand's; NaN: none yet
  JointArray<float> standAngles_{};         ///< rad, the leg angles where the present stand began
  double standStart_ = -1;                  ///< s, FrameInfo time the present stand began; < 0: none
};
} // namespace nao
