// How one registry row evaluates one vector, written once: the Highway targets (src/dispatch/) and
// the scalar lane (src/backend/lane_functions.h: the per-element API, the scalar array loops, and
// CUDA device code) both include this file, so the per-element API and the SIMD drivers run the very
// same composition.
//   ACCELMATH_DEFINE_KERNEL(name, driver, kernel): a functor `name##Kernel` for the row.
//     Map rows call `kernel(d, x...)` with the row's inputs (one to four), plus `V& second` for a
//     row with two results (UnaryPair, SplitExponent: the kernel returns the first and writes the
//     second). SumOfSquares rows call `kernel(d, s)` with a row's sum of squares. Split rows have
//     three parts, kernel##IsCommon (a mask), kernel##Common and kernel##Rare; on one vector they
//     give IfThenElse(IsCommon, Common, Rare), skipping a region no lane needs (a whole-vector test,
//     never per lane: each lane's value is the same pure function either way). In an F32 Split row
//     IsCommon and Common take float32 lanes and Rare binary64 lanes (SplitRare widens the input and
//     rounds the result once). In an F64 Split row all three take binary64 lanes, and IsCommon must
//     give the same answer on float32 lanes holding the same values (the array driver tests the
//     float32 inputs: ndtri's exact bounds). The array driver of a Split row instead compacts the
//     rare lanes (src/drivers/split-inl.h), with the same bits.
//   EvalShape<E, S>(k, de, store, x...): one vector of each input of a row of shape S, as stored
//     (float32 lanes, or int32 lanes for ldexp's n, as many as the evaluation lanes `de` hold),
//     through the kernel: inputs converted exactly to the evaluation lanes (float32 widened to
//     binary64 for F64 rows, int32 to binary64), each result converted to its element type
//     (binary64 rounded once to float32 with DemoteTo; a binary64 integer converted exactly to
//     int32; a mask to uint8 1 or 0), then store(integral_constant<int, k>, result k).
#include "kernels/kernel_api.h"

#if defined(ACCELMATH_DRIVERS_EVAL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_EVAL_INL_H_
#undef ACCELMATH_DRIVERS_EVAL_INL_H_
#else
#define ACCELMATH_DRIVERS_EVAL_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "accelmath/registry.h"

namespace accelmath::ACCELMATH_KNS {

// The rare part of a Split row: in the lanes given (binary64, F64 rows), or, for float32 lanes (F32
// rows: the common part in float32, the rare part in binary64), widened, evaluated and rounded once.
template <class K, class D, class V>
ACCELMATH_KERNEL V SplitRare(const K& k, D d, V x) {
  if constexpr (sizeof(TFromD<D>) == 4) {
    const Rebind<double, D> dd;
    return DemoteTo(d, k.Rare(dd, PromoteTo(dd, x)));
  } else {
    return k.Rare(d, x);
  }
}

template <class K, class D, class V>
ACCELMATH_KERNEL V SplitEval(const K& k, D d, V x) {
  const auto c = k.IsCommon(d, x);
  if (AllTrue(d, c)) return k.Common(d, x);
  if (AllFalse(d, c)) return SplitRare(k, d, x);
  return IfThenElse(c, k.Common(d, x), SplitRare(k, d, x));
}

// An input of element type T, as loaded, in the evaluation lanes of `de`: float32 as it is (F32
// rows) or widened exactly to binary64; int32 converted exactly to binary64 (F64 rows only).
template <Eval E, ElementType T, class DE, class V>
ACCELMATH_KERNEL auto ToEvalLanes(DE de, V v) {
  static_assert(T != ElementType::kU8, "no uint8 inputs");
  static_assert(T == ElementType::kF32 || E == Eval::kF64, "int32 inputs need binary64 lanes");
  if constexpr (T == ElementType::kF32 && E == Eval::kF32) {
    return v;
  } else {
    return PromoteTo(de, v);
  }
}

// A kernel's result in the evaluation lanes of `de`, as an element of type T: float32 (binary64
// rounded once, to nearest even); int32 (the kernel's binary64 integer, in [INT_MIN, INT_MAX]:
// exact); uint8 (the kernel's mask: 1 where set, 0 elsewhere; float32 lanes only).
template <Eval E, ElementType T, class DE, class R>
ACCELMATH_KERNEL auto FromEvalLanes(DE de, R r) {
  if constexpr (T == ElementType::kF32) {
    if constexpr (E == Eval::kF64) {
      return DemoteTo(Rebind<float, DE>(), r);
    } else {
      return r;
    }
  } else if constexpr (T == ElementType::kI32) {
    static_assert(E == Eval::kF64, "int32 results come from binary64 lanes");
    return DemoteTo(Rebind<int32_t, DE>(), r);
  } else {
    static_assert(E == Eval::kF32, "uint8 results come from masks of float32 lanes");
    (void)de;
    const Rebind<int32_t, DE> di;
    return DemoteTo(Rebind<uint8_t, DE>(), IfThenElseZero(RebindMask(di, r), Set(di, 1)));
  }
}

template <Eval E, Shape S, class K, class DE, class Store, size_t... I, class... V>
ACCELMATH_KERNEL void EvalShapeImpl(const K& k, DE de, const Store& store, std::index_sequence<I...>, V... x) {
  using ::accelmath::detail::kOperands;
  static_assert(sizeof...(V) == kOperands<S>.inputs, "one vector per input");
  if constexpr (kOperands<S>.outputs == 1) {
    store(std::integral_constant<int, 0>(),
          FromEvalLanes<E, kOperands<S>.out[0]>(de, k(de, ToEvalLanes<E, kOperands<S>.in[I]>(de, x)...)));
  } else {
    decltype(Zero(de)) second;
    const auto first = k(de, ToEvalLanes<E, kOperands<S>.in[I]>(de, x)..., second);
    store(std::integral_constant<int, 0>(), FromEvalLanes<E, kOperands<S>.out[0]>(de, first));
    store(std::integral_constant<int, 1>(), FromEvalLanes<E, kOperands<S>.out[1]>(de, second));
  }
}

// One vector of every input of a row of shape S through its kernel (the header comment). `de`: the
// evaluation lanes (binary64 for F64 rows, float32 for F32 rows).
template <Eval E, Shape S, class K, class DE, class Store, class... V>
ACCELMATH_KERNEL void EvalShape(const K& k, DE de, const Store& store, V... x) {
  EvalShapeImpl<E, S>(k, de, store, std::index_sequence_for<V...>(), x...);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_DRIVERS_EVAL_INL_H_ toggle

// The functor macros (plain macros: defined once, expanded in each target's namespace).
#ifndef ACCELMATH_DEFINE_KERNEL
#define ACCELMATH_KERNEL_MEMBER(ret, member, fn) \
  template <class D, class V>                    \
  ACCELMATH_KERNEL ret member(D d, V x) const {  \
    return fn(d, x);                             \
  }
// `more`: the other inputs, and the second result (by reference) of a row with two. `pair`: only where
// the kernel has a companion <kernel>Pair(d, x0, x1, y1) (two vectors of evaluation lanes at once, the
// same bits as the kernel on each: TanPair, ErfcPair; src/kernels/trig-inl.h's TanF32Pair says why),
// which the map driver's two vectors per iteration of a Unary row then call (map-inl.h); for every
// other kernel the name is not found and SFINAE drops it.
#define ACCELMATH_DEFINE_KERNEL_Map(name, kernel)                        \
  struct name##Kernel {                                                  \
    template <class D, class V, class... More>                           \
    ACCELMATH_KERNEL auto operator()(D d, V x, More&&... more) const {   \
      return kernel(d, x, static_cast<More&&>(more)...);                 \
    }                                                                    \
    template <class D, class V>                                          \
    ACCELMATH_KERNEL auto pair(D d, V x0, V x1, V& y1) const             \
        -> decltype(kernel##Pair(d, x0, x1, y1)) {                       \
      return kernel##Pair(d, x0, x1, y1);                                \
    }                                                                    \
  };
#define ACCELMATH_DEFINE_KERNEL_SumOfSquares(name, kernel) ACCELMATH_DEFINE_KERNEL_Map(name, kernel)
// `RarePair`: only where the kernel has <kernel>RarePair(d, x0, x1, y1), the rare part at two vectors
// at once (NdtriRarePair), which the F64 split driver then calls on its compacted lanes (split-inl.h).
#define ACCELMATH_DEFINE_KERNEL_Split(name, kernel)                   \
  struct name##Kernel {                                               \
    ACCELMATH_KERNEL_MEMBER(auto, IsCommon, kernel##IsCommon)         \
    ACCELMATH_KERNEL_MEMBER(V, Common, kernel##Common)                \
    ACCELMATH_KERNEL_MEMBER(V, Rare, kernel##Rare)                    \
    template <class D, class V>                                       \
    ACCELMATH_KERNEL auto RarePair(D d, V x0, V x1, V& y1) const      \
        -> decltype(kernel##RarePair(d, x0, x1, y1)) {                \
      return kernel##RarePair(d, x0, x1, y1);                         \
    }                                                                 \
    template <class D, class V>                                       \
    ACCELMATH_KERNEL V operator()(D d, V x) const {                   \
      return SplitEval(*this, d, x);                                  \
    }                                                                 \
  };
#define ACCELMATH_DEFINE_KERNEL(name, driver, kernel) ACCELMATH_DEFINE_KERNEL_##driver(name, kernel)
#endif
