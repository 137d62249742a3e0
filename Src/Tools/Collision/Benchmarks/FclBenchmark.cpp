// FCL 0.7 (Debian libfcl-dev) on the same 40 pairs and configurations as CollisionBenchmark.cpp: each frame
// sets the 15 objects' transforms (link pose times the shape's fixed placement) and asks fcl::distance() for
// every pair with nearest points, on FCL's exact closed-form path (FclPeer.h). Before timing, FCL's distances
// are checked against ours.
#include "NaoShapeSet.h"
#include "Tools/Collision/Tests/FclPeer.h"

#include <benchmark/benchmark.h>
#include <cmath>
#include <stdexcept>

namespace nao::collision::benchmark
{
namespace
{
struct FclScene
{
  std::vector<fcl::CollisionObjectd> objects;
  std::vector<fcl::Transform3d> placements; ///< shape frame in its link frame

  explicit FclScene(const BodyModel& body)
  {
    for (const LinkShape& shape : body.shapes())
    {
      const Capsule inLink{shape.start, shape.end, shape.radius};
      objects.emplace_back(test::fclGeometry(inLink, shape.kind == ShapeKind::sphere));
      placements.push_back(test::fclPose(inLink));
    }
  }

  void setLinkPoses(const BodyModel& body, const std::vector<math::Pose>& linkPoses)
  {
    for (std::size_t i = 0; i < objects.size(); ++i)
    {
      const math::Pose& link = linkPoses[static_cast<std::size_t>(body.shapes()[i].link)];
      fcl::Transform3d linkTransform = fcl::Transform3d::Identity();
      linkTransform.linear() = link.rotation;
      linkTransform.translation() = link.translation;
      objects[i].setTransform(linkTransform * placements[i]);
    }
  }

  double distance(const ShapePair& pair, const fcl::DistanceRequestd& request, fcl::DistanceResultd& result)
  {
    result.clear();
    return fcl::distance(&objects[static_cast<std::size_t>(pair.shapeA)],
                         &objects[static_cast<std::size_t>(pair.shapeB)], request, result);
  }
};

void checkAgreement(const NaoShapeSet& set)
{
  FclScene scene(set.body);
  BodyData data(set.body);
  fcl::DistanceResultd result;
  const fcl::DistanceRequestd request = test::fclExactDistanceRequest();
  for (const auto& poses : set.linkPoses)
  {
    scene.setLinkPoses(set.body, poses);
    computeBodyDistances(set.body, data, poses);
    for (std::size_t p = 0; p < set.body.pairs().size(); ++p)
      if (std::abs(scene.distance(set.body.pairs()[p], request, result) - data.pairDistances[p].distance) >
          1e-9)
        throw std::runtime_error("FCL and NaoCollision disagree");
  }
}

void FclDistances40Pairs(::benchmark::State& state)
{
  const NaoShapeSet& set = naoShapeSet();
  checkAgreement(set);
  FclScene scene(set.body);
  const fcl::DistanceRequestd request = test::fclExactDistanceRequest();
  fcl::DistanceResultd result;
  std::size_t i = 0;
  for (auto _ : state)
  {
    scene.setLinkPoses(set.body, set.linkPoses[i++ % NaoShapeSet::configurationCount]);
    for (const ShapePair& pair : set.body.pairs())
      ::benchmark::DoNotOptimize(scene.distance(pair, request, result));
  }
  state.counters["pairs"] = set.body.pairCount();
}
BENCHMARK(FclDistances40Pairs);
} // namespace
} // namespace nao::collision::benchmark

BENCHMARK_MAIN();
