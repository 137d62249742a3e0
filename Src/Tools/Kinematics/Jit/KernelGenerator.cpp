#include "Tools/Kinematics/Jit/KernelGenerator.h"

#include "Tools/Kinematics/Jit/JitError.h"
#include "Tools/Kinematics/Jit/KernelPasses.h"

#include <string>

namespace nao::kinematics::jit
{
namespace
{
class ErrorCollector : public asmjit::ErrorHandler
{
public:
  void handleError(asmjit::Error error, const char* message, asmjit::BaseEmitter*) override
  {
    if (first == asmjit::kErrorOk)
    {
      first = error;
      text = message;
    }
  }
  asmjit::Error first = asmjit::kErrorOk;
  std::string text;
};

void emitKernel(KernelContext& context, bool avx)
{
  x86::Compiler& cc = context.cc;
  asmjit::FuncNode* function =
      cc.addFunc(asmjit::FuncSignatureT<void, const double*, double*, double*>(asmjit::CallConvId::kHost));
  if (avx)
  {
    function->frame().setAvxEnabled();
    function->frame().setAvxCleanup(); // vzeroupper on return: the caller may run SSE code
  }
  context.q = cc.newIntPtr("q");
  context.workspace = cc.newIntPtr("workspace");
  context.tau = cc.newIntPtr("tau");
  function->setArg(0, context.q);
  function->setArg(1, context.workspace);
  function->setArg(2, context.tau);
  const KernelSpec& spec = context.spec;
  if (spec.forwardPass) emitForwardPass(context);
  if (spec.centerOfMass || spec.gravityTorques || spec.contactTorques) emitBackwardPass(context);
  cc.endFunc();
}
} // namespace

void generateKernel(asmjit::CodeHolder& code, const Model& model, const Layout& layout,
                    const KernelSpec& spec, InstructionSet instructionSet,
                    std::vector<ConstantOutput>& constantOutputs, asmjit::Logger* listing)
{
  ErrorCollector errors;
  code.setErrorHandler(&errors);
  if (listing) code.setLogger(listing);
  {
    x86::Compiler compiler(&code);
    KernelContext context(compiler, instructionSet, model, layout, spec, constantOutputs);
    emitKernel(context, instructionSet == InstructionSet::avx2Fma);
    compiler.finalize();
  }
  code.resetErrorHandler();
  code.resetLogger();
  if (errors.first != asmjit::kErrorOk)
    throw JitError("asmjit failed to generate the kernel for model '" + std::string(model.name()) +
                   "': " + errors.text);
}
} // namespace nao::kinematics::jit
