#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"

namespace nao
{
MAKE_MODULE(EnergySavingProvider);
} // namespace nao
