#pragma once
// Small representations and modules for the framework's own tests. Values make the data flow visible: each
// module writes a number derived from its inputs, so a wrong order or a missing snapshot changes the result.
#include "Framework/Module.h"
#include "Platform/Body.h"
#include "Representations/Infrastructure/ModuleTimes.h"
#include <cmath>

namespace nao::test
{
#define NAO_TEST_REPRESENTATION(Name)                                                                        \
  struct Name                                                                                                \
  {                                                                                                          \
    int value = -1; /* plain number: -1 means "default, never written" */                                    \
    template<class Archive>                                                                                  \
    void serialize(Archive& ar, const unsigned)                                                              \
    {                                                                                                        \
      ar& BOOST_SERIALIZATION_NVP(value);                                                                    \
    }                                                                                                        \
  }
NAO_TEST_REPRESENTATION(RepA);
NAO_TEST_REPRESENTATION(RepB);
NAO_TEST_REPRESENTATION(RepC);
NAO_TEST_REPRESENTATION(RepD);
#undef NAO_TEST_REPRESENTATION

/// A stage refining RepA: `off` passes RepA through.
struct RepAStage : RepA
{
  using RepA::operator=;
};
} // namespace nao::test

template<>
struct nao::PassThroughFrom<nao::test::RepAStage>
{
  using type = nao::test::RepA;
};

namespace nao::test
{

/// RepA = frame number.
class ModA : public Module<ModA, Requires<FrameInfo>, Provides<RepA>>
{
public:
  using Module::Module;
  void update(RepA& a) { a.value = static_cast<int>(get<FrameInfo>().frameNumber); }
};

/// A second provider of RepA: 1000 + frame number.
class ModA2 : public Module<ModA2, Requires<FrameInfo>, Provides<RepA>>
{
public:
  using Module::Module;
  void update(RepA& a) { a.value = 1000 + static_cast<int>(get<FrameInfo>().frameNumber); }
};

/// RepB = 10 * RepA.
class ModB : public Module<ModB, Requires<RepA>, Provides<RepB>>
{
public:
  using Module::Module;
  void update(RepB& b) { b.value = 10 * get<RepA>().value; }
};

/// RepC = RepB + 1, and RepD = last frame's RepC (USES: no ordering edge).
class ModC : public Module<ModC, Requires<RepB>, Uses<RepC>, Provides<RepD>>
{
public:
  using Module::Module;
  void update(RepD& d) { d.value = get<RepC>().value; }
};

class ModCProvider : public Module<ModCProvider, Requires<RepB>, Provides<RepC>>
{
public:
  using Module::Module;
  void update(RepC& c) { c.value = get<RepB>().value + 1; }
};

/// Closes a cycle with ModB when chosen for RepA: RepA requires RepC requires RepB requires RepA.
class ModCycle : public Module<ModCycle, Requires<RepC>, Provides<RepA>>
{
public:
  using Module::Module;
  void update(RepA& a) { a.value = get<RepC>().value; }
};

/// Wrongly requires ModuleTimes, which the framework fills after all modules.
class ModNeedsTimes : public Module<ModNeedsTimes, Requires<ModuleTimes>, Provides<RepD>>
{
public:
  using Module::Module;
  void update(RepD&) {}
};

/// RepAStage = RepA + 100.
class ModStage : public Module<ModStage, Requires<RepA>, Provides<RepAStage>>
{
public:
  using Module::Module;
  void update(RepAStage& stage) { stage.value = get<RepA>().value + 100; }
};

/// Parameters with a unit: the file holds degrees, the module gets rad.
struct GainParameters
{
  float offset = 0; ///< rad (degrees in the file)
  int factor = 1;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("offset", offset).unit(streams::Unit::degrees).range(-90.0, 90.0);
    ar& streams::field("factor", factor).range(1, 100);
  }
};

/// RepB = factor * RepA + round(offset in millirad): parameters are visible in the output.
class ModGain : public Module<ModGain, Requires<RepA>, Provides<RepB>, Parameters<GainParameters>>
{
public:
  using Module::Module;
  void update(RepB& b)
  {
    b.value = params().factor * get<RepA>().value + static_cast<int>(std::lround(params().offset * 1000));
  }
  int parameterChanges = 0;

private:
  void onParametersChanged() override { ++parameterChanges; }
};

/// A body that counts frames and ends after `frames`.
class CountingBody : public Body
{
public:
  explicit CountingBody(std::uint32_t frames) : frames_(frames) {}
  bool waitForSensors(BodySensors& sensors) override
  {
    if (frame_ >= frames_) return false;
    sensors.frameInfo.frameNumber = frame_;
    sensors.frameInfo.time = frame_ * 0.012;
    ++frame_;
    return true;
  }
  void send(const JointRequest& request) override { last = request; }
  const char* name() const override { return "Counting"; }
  JointRequest last;

private:
  std::uint32_t frames_;
  std::uint32_t frame_ = 0;
};
} // namespace nao::test
