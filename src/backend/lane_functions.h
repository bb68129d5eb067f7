// Every registry function on the scalar lane (one element at a time), for host code and, marked
// host/device, CUDA device code. For row `name` (kernel functor lane::name##Kernel):
//   EvalElement<eval, shape>(k, x...)   one element of each input (float, or int for ldexp's n) ->
//                                       Results{first, second} in the results' element types
//                                       (float, int32_t, uint8_t; second: a row with two results)
//   EvalRows<eval>(k, n, a)             a Rows row: the kernel of the sum of squares of a[0 .. n)
//   EvalAt<eval, shape>(k, out, in, i, row_length)
//                                       element i of type-erased operand arrays (as the array loops
//                                       see them: detail::Operands(shape)), e.g. one CUDA thread
//   Loop<eval, shape>(k, out, in, count, row_length)
//                                       EvalAt for every i < count: the array loop of targets
//                                       without native fma (src/dispatch/scalar.cc)
// src/dispatch/scalar.cc wraps them as accelmath::scalar::name and detail::name##_scalar_loop. They
// run the same composition as the SIMD drivers (drivers/eval-inl.h, EvalShape; the row sums of
// drivers/sum_tree.h), hence the same bits. Adding a family adds its kernel header here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "backend/scalar_lane.h"
#include "drivers/sum_tree.h"

#define ACCELMATH_KNS lane
#include "drivers/eval-inl.h"
#include "kernels/exp_log-inl.h"
#include "kernels/ndtri-inl.h"
#include "kernels/trig-inl.h"
#include "kernels/fresnel-inl.h"
#include "kernels/invtrig_hyp-inl.h"
#include "kernels/pow_roots-inl.h"
#include "kernels/basic-inl.h"
#include "kernels/erf-inl.h"
#include "kernels/gamma-inl.h"
#include "kernels/bessel-inl.h"

#include "accelmath/registry.h"

namespace accelmath::lane {

#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_DEFINE_KERNEL(name, driver, kernel)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

// The results of one element: `first`, and `second` for a row with two (else unused).
template <typename A, typename B>
struct Results {
  A first;
  B second;
};

// The evaluation lanes of a row.
template <Eval E>
using EvalD = D<std::conditional_t<E == Eval::kF64, double, float>>;

// One element of each input through a row of shape S (not Rows): EvalShape on one-lane vectors.
template <Eval E, Shape S, class K, typename... T>
ACCELMATH_HD auto EvalElement(const K& k, T... x) {
  using ::accelmath::detail::Element;
  using ::accelmath::detail::kOperands;
  static_assert(S != Shape::kRows, "Rows rows: EvalRows");
  using A = Element<kOperands<S>.out[0]>;
  using B = Element<kOperands<S>.out[kOperands<S>.outputs - 1]>;
  Results<A, B> r{};
  const auto store = [&r](auto k_out, auto v) {
    if constexpr (decltype(k_out)::value == 0) {
      r.first = v.raw;
    } else {
      r.second = v.raw;
    }
  };
  EvalShape<E, S>(k, EvalD<E>(), store, Vec<T>{x}...);
  return r;
}

// A Rows row a[0 .. n) through its kernel: the sum of squares of the SumOfSquares driver
// (src/drivers/rows-inl.h), one element at a time into the same 16 partial sums in the same order,
// combined by the same tree, then the kernel in binary64 and one rounding.
template <Eval E, class K>
ACCELMATH_HD float EvalRows(const K& k, std::size_t n, const float* a) {
  static_assert(E == Eval::kF64, "the SumOfSquares driver sums in binary64");
  double p[16] = {};
  bool any_infinite = false;
  for (std::size_t j = 0; j < n; ++j) {
    const double x = a[j];
    p[j % 16] = FusedMulAdd(x, x, p[j % 16]);
    any_infinite = any_infinite || Abs(Vec<double>{x}).raw == std::numeric_limits<double>::infinity();
  }
  const D<double> dd;
  const double s = ::accelmath::detail::SumOfSquaresTree(p, any_infinite);
  return DemoteTo(D<float>(), k(dd, Vec<double>{s})).raw;
}

template <Eval E, Shape S, class K, class At, std::size_t... I>
ACCELMATH_HD auto EvalInputs(const K& k, const At& at, std::index_sequence<I...>) {
  return EvalElement<E, S>(k, at(std::integral_constant<int, static_cast<int>(I)>())...);
}

// Element i of every output from element i of every input (Rows: out[0][i] from the row
// in[0][i row_length .. (i + 1) row_length)).
template <Eval E, Shape S, class K>
ACCELMATH_HD void EvalAt(const K& k, void* const* out, const void* const* in, std::size_t i, std::size_t row_length) {
  using ::accelmath::detail::Element;
  using ::accelmath::detail::kOperands;
  const auto at = [&](auto input) {
    return static_cast<const Element<kOperands<S>.in[decltype(input)::value]>*>(in[input])[i];
  };
  if constexpr (S == Shape::kRows) {
    static_cast<float*>(out[0])[i] = EvalRows<E>(k, row_length, static_cast<const float*>(in[0]) + i * row_length);
  } else {
    // Not through a lambda: GCC left that lambda out of line, compiled for the default target, so
    // in src/dispatch/scalar.cc's fma clones each fma in it was a call to libm's.
    const auto r = EvalInputs<E, S>(k, at, std::make_index_sequence<kOperands<S>.inputs>());
    static_cast<Element<kOperands<S>.out[0]>*>(out[0])[i] = r.first;
    if constexpr (kOperands<S>.outputs == 2) static_cast<Element<kOperands<S>.out[1]>*>(out[1])[i] = r.second;
  }
}

template <Eval E, Shape S, class K>
ACCELMATH_HD void Loop(const K& k, void* const* out, const void* const* in, std::size_t count, std::size_t row_length) {
  for (std::size_t i = 0; i < count; ++i) EvalAt<E, S>(k, out, in, i, row_length);
}

}  // namespace accelmath::lane
