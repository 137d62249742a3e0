#pragma once
// The per-robot thermal budget: minutes until the first joint reaches temperature status 1 at the present load and
// if the robot sat down, the joint that limits it, the hottest joint, and whether the robot should rest (a trusted
// forecast below restBelow). A reduction of JointThermalState over 25 joints, every frame; no allocation. The
// computation is shared with `LogTool thermal` (Modules/Modeling/Common/ThermalBudgetComputation.h). README.md of this
// folder: the rules and what it does with bad input.
#include "Framework/Module.h"
#include "Modules/Modeling/Common/ThermalBudgetComputation.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/ThermalBudget.h"
#include "Tools/Streams/Field.h"

namespace nao
{
struct ThermalBudgetParameters
{
  float restBelow = defaultRestBelowMinutes; // min

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("restBelow", restBelow)
        .range(0.0, 120.0)
        .doc("min: shouldRest once a trusted forecast of the minutes to status 1 is below this");
  }
};

class ThermalBudgetProvider
    : public Module<ThermalBudgetProvider, Requires<JointThermalState>, // this frame's per-joint forecast
                    Provides<ThermalBudget>,                            // the per-robot answer
                    Parameters<ThermalBudgetParameters>> // Config/Modules/<Module>.toml (optional)
{
public:
  using Module::Module;
  void update(ThermalBudget& budget);

private:
  ThermalBudgetMemory memory_; ///< each joint's last usable times, held while its time is unusable
};
} // namespace nao
