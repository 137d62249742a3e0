#pragma once
// Configuration stiffness of the four limbs in the measured posture (LimbStiffness): per arm (torso -> hand
// point) and leg (torso -> sole) the metric p along the vertical and the translational stiffness ellipsoid,
// computed with nao::stiffness (Src/Tools/Stiffness) on one forward pass of the robot description per frame.
// Nothing reads it in the motion thread: it is for logs, plots and the 3D view.
#include "Framework/Module.h"
#include "Framework/RobotDescription.h"
#include "Representations/Modeling/LimbStiffness.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Kinematics/Evaluators.h"
#include "Tools/Streams/Field.h"
#include <array>
#include <memory>

namespace nao
{
struct LimbStiffnessParameters
{
  // The wrench that resists a deflection dx is K_c dx (Tools/Stiffness/Metric.h).
  std::array<float, 6> cartesianStiffness{1.f, 1.f, 1.f, 1.f, 1.f, 1.f};
  kinematics::KinematicsBackend backend = kinematics::KinematicsBackend::automatic;
  bool allowAvx2 = true;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("cartesianStiffness", cartesianStiffness)
        .range(1e-6, 1e6)
        .doc("diagonal of K_c: N/m (x, y, z), then N·m/rad (about x, y, z); 1 measures the geometry alone");
    ar& streams::field("backend", backend)
        .doc("JIT, Eigen, or automatic: the JIT where it runs (the forward pass the four chains share)");
    ar& streams::field("allowAvx2", allowAvx2)
        .doc("false: the JIT's SSE4.1 code, as on the NAO V6's Atom (for comparisons)");
  }
};

class LimbStiffnessProvider : public Module<LimbStiffnessProvider,                         //
                                            Requires<JointSensorData, InertialSensorData>, //
                                            Provides<LimbStiffness>,                       //
                                            Parameters<LimbStiffnessParameters>,           //
                                            Loads<RobotDescription>>
{
public:
  explicit LimbStiffnessProvider(const ModuleContext& context);
  ~LimbStiffnessProvider() override;
  void update(LimbStiffness& limbStiffness);

  /// Base link, tip link and the point in the tip link (m) of each limb's chain, in Limb order: what the
  /// module computes, for tests that compare with nao::stiffness on the same chain.
  struct ChainSpec
  {
    const char* base;
    const char* tip;
    std::array<double, 3> pointInTip;
  };
  static ChainSpec chainSpec(const kinematics::Model& model, Limb limb);

private:
  void onParametersChanged() override;

  struct State;
  std::unique_ptr<State> state_; ///< evaluator, chains and workspaces (LimbStiffnessProvider.cpp)
};
} // namespace nao
