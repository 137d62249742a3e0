#pragma once
// What EnergySavingProvider and BHumanEnergySavingProvider share as modules, written once: their declaration
// (HeatAdjustmentRequires in, JointRequest and EnergySaving out, their own parameters), the cycle they run each frame
// and how their parameters reach their rounds. A module differs only in its rounds and its parameters.
#include "Framework/Module.h"
#include "Modules/MotionControl/Common/HeatAdjustmentCycle.h"

namespace nao
{
/// A module's rounds as the cycle calls them during one run(): every call hands on the module's own parameters
/// (`P`, its Parameters<> type) as a const&, so that the rounds keep none and read the derived type (e.g.
/// EnergySavingParameters) without a cast. Lives on the stack of update(): no allocation.
/// Rounds needs clear, enterState, restartJoint, round and accuratePositionsRound with the parameters last, and
/// searching; stepUndone (with the parameters), pushedBy and everyFrame where it has them.
template<class Rounds, class P>
class RoundsWithParameters final : public HeatAdjustmentRounds
{
public:
  RoundsWithParameters(Rounds& rounds, const P& parameters) : rounds_(rounds), p_(parameters) {}

  void clear() override { rounds_.clear(p_); }
  void enterState(EnergySavingState state) override { rounds_.enterState(state, p_); }
  void restartJoint(std::size_t joint) override { rounds_.restartJoint(joint, p_); }
  void stepUndone(std::size_t joint) override
  {
    if constexpr (requires { rounds_.stepUndone(joint, p_); }) rounds_.stepUndone(joint, p_);
  }
  int pushedBy(std::size_t joint) const override
  {
    if constexpr (requires { rounds_.pushedBy(joint); })
      return rounds_.pushedBy(joint);
    else
      return -1;
  }
  void everyFrame(const HeatAdjustmentInputs& in) override
  {
    if constexpr (requires { rounds_.everyFrame(in); }) rounds_.everyFrame(in);
  }
  void round(RoundContext& context) override { rounds_.round(context, p_); }
  void accuratePositionsRound(RoundContext& context) override { rounds_.accuratePositionsRound(context, p_); }
  bool searching(std::size_t joint) const override { return rounds_.searching(joint); }

private:
  Rounds& rounds_;
  const P& p_;
};

/// A heat adjustment module: reads HeatAdjustmentRequires, writes JointRequest and EnergySaving, tuned by `P`
/// (a HeatAdjustmentParameters, Config/Modules/<Self>.toml); `Rounds` (built from `const P&`) moves the offsets.
template<class Self, class Rounds, class P>
class HeatAdjustmentModule
    : public Module<Self, HeatAdjustmentRequires, Provides<JointRequest, EnergySaving>, Parameters<P>>
{
  static_assert(std::is_base_of_v<HeatAdjustmentParameters, P>,
                "P must derive from HeatAdjustmentParameters");
  using Base = Module<Self, HeatAdjustmentRequires, Provides<JointRequest, EnergySaving>, Parameters<P>>;

public:
  explicit HeatAdjustmentModule(const ModuleContext& context)
      : Base(context), rounds_(this->params()), cycle_(this->params())
  {
  }

  void update(JointRequest& request, EnergySaving& energySaving)
  {
    const P& parameters = this->params(); // this frame's: a live edit replaces them between frames
    RoundsWithParameters<Rounds, P> rounds(rounds_, parameters);
    cycle_.run(inputs(HeatAdjustmentRequires::List{}), parameters, rounds);
    cycle_.answer(this->template get<StiffnessJointRequest>(), request);
    energySaving = cycle_.status();
  }

private:
  template<class... Ts>
  HeatAdjustmentInputs inputs(TypeList<Ts...>) const
  {
    return {InputView<TypeList<Ts...>>(this->template get<Ts>()...),
            motionSourceHolds(this->template get<FallDownState>(), this->template get<SitDown>(),
                              this->template get<FallProtection>())};
  }

  Rounds rounds_;
  HeatAdjustmentCycle cycle_;
};
} // namespace nao
