// GroundTruth's fall impacts: which body group (head; arms, shoulder to hand) touches the floor this frame and how
// fast its bodies move. Groups by the kinematic tree: a body belongs to the head (arm) if the Head (LShoulder,
// RShoulder) body is among its ancestors or is the body itself.
#include "Util/Simulator/Physics/SimulatedRobot.h"

#include <algorithm>
#include <cmath>
#include <mujoco/mujoco.h>

namespace nao::sim
{
void SimulatedRobot::updateImpactTruth()
{
  const mjModel& m = *model_;
  mjData& d = *data_;
  if (bodyGroup_.empty())
  {
    const int head = mj_name2id(&m, mjOBJ_BODY, "Head"), lShoulder = mj_name2id(&m, mjOBJ_BODY, "LShoulder"),
              rShoulder = mj_name2id(&m, mjOBJ_BODY, "RShoulder");
    bodyGroup_.assign(static_cast<std::size_t>(m.nbody), 0);
    for (int body = 1; body < m.nbody; ++body)
      for (int b = body; b > 0; b = m.body_parentid[b])
      {
        if (b == head) bodyGroup_[static_cast<std::size_t>(body)] = 1;
        if (b == lShoulder || b == rShoulder) bodyGroup_[static_cast<std::size_t>(body)] = 2;
        if (bodyGroup_[static_cast<std::size_t>(body)] != 0) break;
      }
  }
  GroundTruth& g = groundTruth_;
  g.headOnGround = g.armOnGround = false;
  g.headSpeed = g.armSpeed = 0.0;
  for (int contact = 0; contact < d.ncon; ++contact)
  {
    const int body1 = m.geom_bodyid[d.contact[contact].geom1],
              body2 = m.geom_bodyid[d.contact[contact].geom2];
    if (body1 != 0 && body2 != 0) continue; // only contacts with the world (the floor)
    const std::uint8_t group = bodyGroup_[static_cast<std::size_t>(body1 == 0 ? body2 : body1)];
    g.headOnGround |= group == 1;
    g.armOnGround |= group == 2;
  }
  for (int body = 1; body < m.nbody; ++body)
  {
    const std::uint8_t group = bodyGroup_[static_cast<std::size_t>(body)];
    if (group == 0) continue;
    mjtNum velocity[6];
    mj_objectVelocity(&m, &d, mjOBJ_BODY, body, velocity, 0);
    const double speed = std::hypot(velocity[3], velocity[4], velocity[5]);
    (group == 1 ? g.headSpeed : g.armSpeed) = std::max(group == 1 ? g.headSpeed : g.armSpeed, speed);
  }
}
} // namespace nao::sim
