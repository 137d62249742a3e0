#pragma once
// Minimal compile-time type lists for module declarations.
#include <cstddef>
#include <type_traits>

namespace nao
{
template<class... Ts>
struct TypeList
{
  static constexpr std::size_t size = sizeof...(Ts);
};

template<class T, class List>
struct Contains;
template<class T, class... Ts>
struct Contains<T, TypeList<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)>
{
};
template<class T, class List>
inline constexpr bool contains = Contains<T, List>::value;

template<class T, class List>
struct IndexOf;
template<class T, class First, class... Rest>
struct IndexOf<T, TypeList<First, Rest...>>
    : std::integral_constant<std::size_t,
                             std::is_same_v<T, First> ? 0 : 1 + IndexOf<T, TypeList<Rest...>>::value>
{
};
template<class T>
struct IndexOf<T, TypeList<>> : std::integral_constant<std::size_t, 0>
{
};
template<class T, class List>
inline constexpr std::size_t indexOf = IndexOf<T, List>::value;

template<class... Lists>
struct Concat;
template<>
struct Concat<>
{
  using type = TypeList<>;
};
template<class... As>
struct Concat<TypeList<As...>>
{
  using type = TypeList<As...>;
};
template<class... As, class... Bs, class... Rest>
struct Concat<TypeList<As...>, TypeList<Bs...>, Rest...>
{
  using type = typename Concat<TypeList<As..., Bs...>, Rest...>::type;
};

template<class List>
struct HasDuplicates;
template<>
struct HasDuplicates<TypeList<>> : std::false_type
{
};
template<class First, class... Rest>
struct HasDuplicates<TypeList<First, Rest...>>
    : std::bool_constant<contains<First, TypeList<Rest...>> || HasDuplicates<TypeList<Rest...>>::value>
{
};

template<class A, class B>
struct Intersects;
template<class... As, class B>
struct Intersects<TypeList<As...>, B> : std::bool_constant<(contains<As, B> || ...)>
{
};
} // namespace nao
