#pragma once
// How stiff each limb's endpoint is in the measured posture (configuration stiffness, Woolfrey et al., PLOS ONE
// 2024; Src/Tools/Stiffness/README.md): per arm (torso -> hand point) and leg (torso -> sole), the metric p along
// the vertical and the translational stiffness ellipsoid, for plots and for drawing at the endpoint. Small p =
// stiff: a vertical load at the endpoint needs little joint torque (a straight leg carries its weight on its
// bones, p = 0). All vectors in the torso frame (x forward, y left, z up).
#include "Representations/Infrastructure/Joints.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>

namespace nao
{
/// One limb's endpoint: p for a unit vertical deflection and the ellipsoid of p over translations d (m):
/// p(d) = 1/2 sum_i values[i] (vector_i . d)^2, with K_c of Config/Modules/LimbStiffnessProvider.toml.
struct LimbEllipsoid
{
  float verticalMetric = 0.f;    ///< (N·m)², p for d = the unit vertical (LimbStiffness::up)
  std::array<float, 3> values{}; ///< (N·m)²/m², ascending: values[0] belongs to the stiffest direction
  std::array<float, 9>
      vectors{}; ///< unit, row-major 3 x 3: column i (vectors[i], [3 + i], [6 + i]) is axis i
  std::array<float, 3> endpoint{}; ///< m, where the ellipsoid sits: the hand point or the sole origin

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(verticalMetric) & BOOST_SERIALIZATION_NVP(values) &
        BOOST_SERIALIZATION_NVP(vectors) & BOOST_SERIALIZATION_NVP(endpoint);
  }
};

struct LimbStiffness
{
  LimbArray<LimbEllipsoid> limbs;
  std::array<float, 3> up{0.f, 0.f, 1.f}; ///< unit, against gravity, from the torso's roll and pitch (IMU)
  bool valid = false; ///< false until the first frame with finite joint angles and IMU angles

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(limbs) & BOOST_SERIALIZATION_NVP(up) & BOOST_SERIALIZATION_NVP(valid);
  }
};
} // namespace nao
