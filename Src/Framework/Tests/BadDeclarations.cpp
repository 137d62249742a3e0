// Mistakes in module declarations, one per CASE. Each must fail to compile with a message that names the
// mistake and points at the marked line of this file (checked by CheckCompileError.cmake).
#include "Framework/Module.h"
#include "Framework/Tests/TestModules.h"

namespace nao::test
{
#if CASE == 1
// A type that is not a representation (no serialize()) in a declaration.
class NotARepresentationInRequires
    : public Module<NotARepresentationInRequires, Requires<int>, Provides<RepA>> // MARK
{
public:
  using Module::Module;
  void update(RepA&) {}
};
#elif CASE == 2
// Reading a representation the module did not declare.
class ReadsUndeclared : public Module<ReadsUndeclared, Requires<RepA>, Provides<RepB>>
{
public:
  using Module::Module;
  void update(RepB& b) { b.value = get<RepC>().value; } // MARK
};
MAKE_MODULE(ReadsUndeclared);
#elif CASE == 3
// Writing a representation the module only requires.
class WritesRequired : public Module<WritesRequired, Requires<RepA>, Provides<RepB>>
{
public:
  using Module::Module;
  void update(RepB&) { const_cast_free_write(); }
  void const_cast_free_write() { get<RepA>().value = 3; } // MARK
};
MAKE_MODULE(WritesRequired);
#elif CASE == 4
// Providing a representation without an update() for it.
class MissingUpdate : public Module<MissingUpdate, Requires<RepA>, Provides<RepB, RepC>>
{
public:
  using Module::Module;
  void update(RepB&) {}
};
MAKE_MODULE(MissingUpdate); // MARK
#elif CASE == 5
// Requiring what it provides.
class RequiresOwnOutput : public Module<RequiresOwnOutput, Requires<RepA>, Provides<RepA>> // MARK
{
public:
  using Module::Module;
  void update(RepA&) {}
};
MAKE_MODULE(RequiresOwnOutput);
#elif CASE == 6
// Reading a loaded input the module did not declare in Loads<>.
struct Calibration
{
  int offset = 0;
  static Calibration load(const ConfigFiles&) { return {}; }
};
class ReadsUndeclaredInput : public Module<ReadsUndeclaredInput, Requires<RepA>, Provides<RepB>>
{
public:
  using Module::Module;
  void update(RepB& b) { b.value = loaded<Calibration>().offset; } // MARK
};
MAKE_MODULE(ReadsUndeclaredInput);
#elif CASE == 7
// A module that cannot be constructed from the framework's ModuleContext.
class NoContextConstructor : public Module<NoContextConstructor, Requires<RepA>, Provides<RepB>>
{
public:
  explicit NoContextConstructor(int) : Module(*context) {}
  void update(RepB&) {}
  static const ModuleContext* context;
};
MAKE_MODULE(NoContextConstructor); // MARK
#endif
} // namespace nao::test
