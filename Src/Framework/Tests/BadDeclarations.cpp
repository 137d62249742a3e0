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
  void update(RepA&) {}
};
#elif CASE == 2
// Reading a representation the module did not declare.
class ReadsUndeclared : public Module<ReadsUndeclared, Requires<RepA>, Provides<RepB>>
{
public:
  void update(RepB& b) { b.value = get<RepC>().value; } // MARK
};
MAKE_MODULE(ReadsUndeclared);
#elif CASE == 3
// Writing a representation the module only requires.
class WritesRequired : public Module<WritesRequired, Requires<RepA>, Provides<RepB>>
{
public:
  void update(RepB&) { const_cast_free_write(); }
  void const_cast_free_write() { get<RepA>().value = 3; } // MARK
};
MAKE_MODULE(WritesRequired);
#elif CASE == 4
// Providing a representation without an update() for it.
class MissingUpdate : public Module<MissingUpdate, Requires<RepA>, Provides<RepB, RepC>>
{
public:
  void update(RepB&) {}
};
MAKE_MODULE(MissingUpdate); // MARK
#elif CASE == 5
// Requiring what it provides.
class RequiresOwnOutput : public Module<RequiresOwnOutput, Requires<RepA>, Provides<RepA>> // MARK
{
public:
  void update(RepA&) {}
};
MAKE_MODULE(RequiresOwnOutput);
#endif
} // namespace nao::test
