#include "Framework/Tests/TestModules.h"

namespace nao::test
{
MAKE_MODULE(ModA);
MAKE_MODULE(ModA2);
MAKE_MODULE(ModB);
MAKE_MODULE(ModC);
MAKE_MODULE(ModCProvider);
MAKE_MODULE(ModCycle);
MAKE_MODULE(ModGain);
MAKE_MODULE(ModNeedsTimes);
MAKE_MODULE(ModStage);
} // namespace nao::test
