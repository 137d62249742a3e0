#pragma once
// A stage representation names the representation it refines (e.g. the joint request after energy saving
// refines the one before it). Setting its provider `off` then passes the input through unchanged instead of
// leaving a default value, so any stage can be switched off without cutting the chain. Specialize next to the
// representation:
//   template<> struct PassThroughFrom<JointRequest> { using type = StiffnessJointRequest; };

namespace nao
{
template<class T>
struct PassThroughFrom
{
};
} // namespace nao
