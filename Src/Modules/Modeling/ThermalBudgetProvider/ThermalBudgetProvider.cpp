#include "Modules/Modeling/ThermalBudgetProvider/ThermalBudgetProvider.h"

namespace nao
{
void ThermalBudgetProvider::update(ThermalBudget& budget)
{
  computeThermalBudget(get<JointThermalState>(), params().restBelow, memory_, budget);
}

MAKE_MODULE(ThermalBudgetProvider);
} // namespace nao
