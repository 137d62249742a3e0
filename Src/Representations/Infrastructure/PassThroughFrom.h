#pragma once
// A stage representation names the representation it refines (e.g. the joint request after energy saving
// refines the one before it). Setting its provider `off` then passes the input through unchanged instead of
// leaving a default value, so any stage can be switched off without cutting the chain. Specialize next to the
// representation:
//   template<> struct PassThroughFrom<JointRequest> { using type = StiffnessJointRequest; };
// This is only the declaration a representation makes; the framework does the passing through (the pass-through
// step in Framework/ModuleGraph.cpp, the copy in Framework/RepresentationOps.h), so that representations stay
// plain structs that know nothing of the framework.

namespace nao
{
template<class T>
struct PassThroughFrom
{
};
} // namespace nao
