#pragma once
// A typed view of a module's Requires<>: how a module hands this frame's inputs to its parts in one argument, so
// that the inputs are declared once (in Requires<>) and a part reads them as the module does, with get<T>(). It
// holds one pointer per representation: no allocation, cheap to copy, valid for the frame it was taken in.
#include "Framework/TypeList.h"

#include <tuple>

namespace nao
{
template<class List>
class InputView;

template<class... Ts>
class InputView<TypeList<Ts...>>
{
public:
  using List = TypeList<Ts...>;

  explicit InputView(const Ts&... inputs) : inputs_(&inputs...) {}
  /// From a module's pointers to its required representations (Module::requiredInputs()).
  explicit InputView(const std::tuple<const Ts*...>& inputs) : inputs_(inputs) {}

  template<class T>
  const T& get() const
  {
    static_assert(contains<T, List>,
                  "InputView::get<T>(): T is not in the view's list (the module's Requires<>)");
    return *std::get<indexOf<T, List>>(inputs_);
  }

private:
  std::tuple<const Ts*...> inputs_;
};
} // namespace nao
