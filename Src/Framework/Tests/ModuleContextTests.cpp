// What a module is built from: the ModuleContext, and the Loads<> inputs shared by every module that declares
// them (loaded once, on first need).
#include "Framework/Controller.h"
#include "Framework/InputView.h"
#include "Framework/Tests/TestModules.h"
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::test;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace nao::test
{
/// Counts its loads; its value says whether a scenario file was there to load from.
struct CountedInput
{
  static inline int loads = 0;
  int value = 0;
  static CountedInput load(const ConfigFiles& files)
  {
    ++loads;
    return {files.scenarioFile.empty() ? 42 : 43};
  }
};

struct BrokenInput
{
  static BrokenInput load(const ConfigFiles&) { throw std::runtime_error("no such file"); }
};

class ModLoadsA : public Module<ModLoadsA, Requires<FrameInfo>, Provides<RepA>, Loads<CountedInput>>
{
public:
  using Module::Module;
  void update(RepA& a) { a.value = loaded<CountedInput>().value; }
  const CountedInput* input() const { return &loaded<CountedInput>(); }
};
MAKE_MODULE(ModLoadsA);

class ModLoadsB : public Module<ModLoadsB, Requires<RepA>, Provides<RepB>, Loads<CountedInput>>
{
public:
  explicit ModLoadsB(const ModuleContext& context) : Module(context), offset_(loaded<CountedInput>().value) {}
  void update(RepB& b) { b.value = get<RepA>().value + offset_; }

private:
  int offset_; ///< read once at construction: the input is there before the first frame
};
MAKE_MODULE(ModLoadsB);

class ModBroken : public Module<ModBroken, Requires<FrameInfo>, Provides<RepC>, Loads<BrokenInput>>
{
public:
  using Module::Module;
  void update(RepC&) {}
};
MAKE_MODULE(ModBroken);

/// A part of a module that reads the module's inputs through the view of its Requires<>.
int doubled(const InputView<TypeList<RepA, FrameInfo>>& in)
{
  return 2 * in.get<RepA>().value;
}

class ModInputView : public Module<ModInputView, Requires<RepA, FrameInfo>, Provides<RepB>>
{
public:
  using Module::Module;
  void update(RepB& b) { b.value = doubled(InputView<RequiredList>(get<RepA>(), get<FrameInfo>())); }
};
MAKE_MODULE(ModInputView);
} // namespace nao::test

namespace
{
struct Rig
{
  Blackboard blackboard;
  CountingBody body{10};
  MotionLoop motion{blackboard, body};
  Controller controller{ConfigLocation{NAO_CONFIG_DIR, "Default"}, blackboard, motion};
};
} // namespace

TEST(ModuleContext, ModulesThatDeclareAnInputShareOneLoad)
{
  CountedInput::loads = 0;
  Rig rig;
  rig.controller.start({{"RepA", "ModLoadsA", {}}, {"RepB", "ModLoadsB", {}}}, "test");
  EXPECT_EQ(CountedInput::loads, 1);
  ASSERT_TRUE(rig.motion.runFrame());
  EXPECT_EQ(rig.blackboard.get<RepA>().value, 42); // a graph made in code: no scenario file
  EXPECT_EQ(rig.blackboard.get<RepB>().value, 84);
  // A live switch creates no second copy either.
  EXPECT_EQ(rig.controller.setProvider("RepA", "ModA"), "");
  EXPECT_EQ(rig.controller.setProvider("RepA", "ModLoadsA"), "");
  EXPECT_EQ(CountedInput::loads, 1);
  EXPECT_EQ(ModuleRegistry::instance().find("ModLoadsA")->loads, std::vector<std::string>{"CountedInput"});
}

TEST(ModuleContext, AFailingLoadNamesTheModuleAndTheInput)
{
  Rig rig;
  try
  {
    rig.controller.start({{"RepC", "ModBroken", {}}}, "test");
    FAIL() << "expected an error";
  }
  catch (const StartupError& error)
  {
    EXPECT_THAT(error.what(), AllOf(HasSubstr("module 'ModBroken'"), HasSubstr("BrokenInput: no such file")));
  }
}

TEST(ModuleContext, AModuleIsBuiltAndRunWithoutAController)
{
  // Like a Drake system on a context: fix the inputs on a blackboard, build the module, call its update.
  CountedInput::loads = 0;
  Blackboard blackboard;
  LoadedInputs inputs(ConfigFiles{{NAO_CONFIG_DIR, "Default"}, "any.toml"});
  const ModuleInfo& info = *ModuleRegistry::instance().find("ModLoadsB");
  std::unique_ptr<ModuleBase> module(info.create(ModuleContext(blackboard, info, nullptr, inputs)));
  blackboard.get<RepA>().value = 7;
  void* const outputs[] = {blackboard.current(representationId<RepB>())};
  info.update(*module, outputs);
  EXPECT_EQ(blackboard.get<RepB>().value, 7 + 43);
  EXPECT_EQ(CountedInput::loads, 1);
}

TEST(ModuleContext, APartReadsTheModulesInputsThroughTheViewOfItsRequires)
{
  Blackboard blackboard;
  LoadedInputs inputs(ConfigFiles{{NAO_CONFIG_DIR, "Default"}, "any.toml"});
  const ModuleInfo& info = *ModuleRegistry::instance().find("ModInputView");
  std::unique_ptr<ModuleBase> module(info.create(ModuleContext(blackboard, info, nullptr, inputs)));
  blackboard.get<RepA>().value = 21;
  void* const outputs[] = {blackboard.current(representationId<RepB>())};
  info.update(*module, outputs);
  EXPECT_EQ(blackboard.get<RepB>().value, 42);
}
