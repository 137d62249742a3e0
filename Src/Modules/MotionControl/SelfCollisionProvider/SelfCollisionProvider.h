#pragma once
// NAOqi's self-collision avoidance (seed 001) as a stage of the joint request: FallSafeJointRequest in,
// CollisionFreeJointRequest out. Each frame, with q_ref the last request sent (limp joints: their measurement),
//
//   minimise  sum_j w_j (q_j - q_des_j)^2,  w_j = 1 / max(stiffness_j, limpStiffness)
//   s.t.      n^T (J_B - J_A)(q - q_ref) >= -damping (d - safetyDistance)   per protected pair with d < activation
//             joint limits, |q_j - q_ref_j| <= maxStep                       per joint of a constrained chain
//
// where d, n, J come from spheres and capsules (Config/Robots/<robot>/selfCollision.toml) at q_ref. Without a
// close pair the request passes bit for bit; infeasible: the involved chains hold q_ref. SelfCollision has every
// pair distance, the constraints, the corrections and the solver's status. Why each choice: SelfCollisionProvider.cpp.
#include "Framework/Module.h"
#include "Framework/RobotDescription.h"
#include "Framework/SelfCollisionShapes.h"
#include "Modules/MotionControl/SelfCollisionProvider/SelfCollisionParameters.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SelfCollision.h"
#include "Representations/Sensing/JointSensorData.h"
#include <array>
#include <cstdint>
#include <memory>

namespace nao
{
namespace collision
{
struct BodyData;
} // namespace collision

class SelfCollisionProvider
    : public Module<SelfCollisionProvider, Requires<FallSafeJointRequest, JointSensorData>,
                    Provides<CollisionFreeJointRequest, SelfCollision>, Parameters<SelfCollisionParameters>,
                    Loads<RobotDescription, SelfCollisionShapes>>
{
public:
  explicit SelfCollisionProvider(const ModuleContext& context);
  ~SelfCollisionProvider() override;
  void update(CollisionFreeJointRequest& request, SelfCollision& selfCollision);

private:
  void onParametersChanged() override;
  using Movable = std::array<bool, numOfJoints>; ///< per joint: stiff, with a finite request, not a hand

  /// The frame's work: the request and SelfCollision in state_.
  void computeFrame();
  /// The reference posture (last sent where stiff, else measured) in state_; which joints may move.
  Movable takeReference();
  /// The request, approached at maxStep per frame from the reference (state_'s output and desired posture).
  void approachRequest(const Movable& movable);
  /// Every pair's distance at the reference (and at the request, returned; the reference's when they agree).
  const collision::BodyData& computeDistances();
  /// A velocity-damper row per close protected pair that a movable joint can act on; `involved`: their joints.
  int addPairRows(const Movable& movable, const collision::BodyData& desired, std::uint32_t& involved);
  /// The QP over the `rows` rows built (the first `pairRows` are pair rows); writes the involved joints.
  void solve(int pairRows, int rows, std::uint32_t involved);

  struct State;
  std::unique_ptr<State> state_; ///< model, preallocated QP and the last request (SelfCollisionProvider.cpp)
};
} // namespace nao
