// The map driver: one kernel on every lane of an array (Map rows of the registry, every shape but
// Rows: one to four inputs, float32 or int32; one or two results, float32, int32 or uint8), per
// Highway target. Full vectors (two per iteration), then the partial last vector with masked loads
// and stores, so nothing past n is read or written whatever the element type. The vector of
// each input holds Lanes(evaluation lanes) elements: F64 rows load Lanes(ScalableTag<double>)
// floats (or int32), widen them exactly, run the kernel in binary64 lanes and round each float
// result once (DemoteTo); F32 rows run on float lanes directly (drivers/eval-inl.h, EvalShape).
#if defined(ACCELMATH_DRIVERS_MAP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_MAP_INL_H_
#undef ACCELMATH_DRIVERS_MAP_INL_H_
#else
#define ACCELMATH_DRIVERS_MAP_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "accelmath/registry.h"
#include "backend/prefetch.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

// Operand number I (an input's or a result's), as a type.
template <int I>
using Nth = std::integral_constant<int, I>;

// Input I of a row of shape S: its vector at element i of the array src[I], in lanes of its own
// type, as many as the evaluation lanes DE hold.
template <Shape S, int I, class DE>
HWY_INLINE auto LoadInput(DE /*de*/, const void* const* src, size_t i) {
  using T = ::accelmath::detail::Element<::accelmath::detail::kOperands<S>.in[I]>;
  return LoadU(Rebind<T, DE>(), static_cast<const T*>(src[I]) + i);
}

// The same, of the first `live` elements only (the others zero): the partial last vector.
template <Shape S, int I, class DE>
HWY_INLINE auto LoadInputFirst(DE /*de*/, const void* const* src, size_t i, size_t live) {
  using T = ::accelmath::detail::Element<::accelmath::detail::kOperands<S>.in[I]>;
  const Rebind<T, DE> dt;
  return MaskedLoad(FirstN(dt, live), dt, static_cast<const T*>(src[I]) + i);
}

// Stores result k of a row of shape S at element i of the array dst[k]: a whole vector, or
// (live < Lanes) its first `live` elements only. (Highway stores the first elements of 8-bit lanes
// without a native masked store one by one, never touching the others.)
template <Shape S, class DE>
struct StoreResults {
  void* const* dst;
  size_t i;
  size_t live = 0;  // 0: the whole vector
  template <int K, class V>
  HWY_INLINE void operator()(Nth<K>, V v) const {
    using T = ::accelmath::detail::Element<::accelmath::detail::kOperands<S>.out[K]>;
    const Rebind<T, DE> dt;
    if (live == 0) {
      StoreU(v, dt, static_cast<T*>(dst[K]) + i);
    } else {
      BlendedStore(v, FirstN(dt, live), dt, static_cast<T*>(dst[K]) + i);
    }
  }
};

// The kernel on the vectors at element i of every input, stored at element i of every result: whole
// vectors, or (live > 0) the first `live` elements.
template <Eval E, Shape S, class K, class DE, int... I>
HWY_INLINE void MapOne(const K& k, DE de, const void* const* src, void* const* dst, size_t i, size_t live,
                       std::integer_sequence<int, I...>) {
  if (live == 0) {
    EvalShape<E, S>(k, de, StoreResults<S, DE>{dst, i}, LoadInput<S, I>(de, src, i)...);
  } else {
    EvalShape<E, S>(k, de, StoreResults<S, DE>{dst, i, live}, LoadInputFirst<S, I>(de, src, i, live)...);
  }
}

// Software prefetch (backend/prefetch.h) of every input, 4 KiB ahead of the `count` elements at i,
// for arrays of kPrefetchMin elements and more (4 MiB per input; every input element is 4 bytes):
// prefetching at every size cost 5-10% at 64K, in cache, with the AVX2 code on the Xeon (exp, erf,
// erfinv). The map driver requests kPrefetchChunk elements (1 KiB) at a time, behind a
// loop-invariant flag; the split drivers one block at a time.
constexpr size_t kPrefetchMin = size_t{1} << 20;
constexpr size_t kPrefetchChunk = 256;  // 2N divides it
template <int kIn>
HWY_INLINE void PrefetchInputs(const void* const* in, size_t i, size_t count, size_t n) {
  if (n < kPrefetchMin) return;
  for (int k = 0; k < kIn; ++k) {
    backend::PrefetchAhead(static_cast<const char*>(in[k]) + 4 * i, static_cast<int64_t>(4 * count),
                           static_cast<int64_t>(4 * (n - i)));
  }
}

// dst...[i] = k(src...[i]) for i < n, every operand as detail::Operands(S) describes it (the array
// loop of every Map row; src/dispatch/family-inl.h).
template <Eval E, Shape S, class K>
HWY_INLINE void MapArray(const K& k, void* const* out, const void* const* in, size_t n, size_t /*row_length*/) {
  using ::accelmath::detail::kOperands;
  static_assert(S != Shape::kRows, "Rows rows have the SumOfSquares driver");
  constexpr int kIn = kOperands<S>.inputs;
  using DE = std::conditional_t<E == Eval::kF64, ScalableTag<double>, ScalableTag<float>>;
  const DE de;
  const size_t N = Lanes(de);
  const auto eval = [&](size_t j, auto... x) HWY_ATTR { EvalShape<E, S>(k, de, StoreResults<S, DE>{out, j}, x...); };
  const auto load = [&](auto input, size_t i) HWY_ATTR { return LoadInput<S, decltype(input)::value>(de, in, i); };
  size_t i = 0;
  // Two vectors per iteration: their independent chains interleave (measured on AVX-512: exp +23%,
  // tan +5 to 14%, sincos +16%; AVX2 neutral to +5%; bench_math, 64K). Both vectors of every input
  // are loaded before anything is stored: a store could alias the next loads as far as the compiler
  // knows (dst may be a source: in place), which would order the second chain after the first.
  // The two vectors at `at` (a lambda: measured faster for sin with the AVX2 code than the same
  // statements written in the loop, 1845 against 1719 Melem/s at 64K: code layout). One branch per
  // input count, written out: a generic version (each vector's inputs in a std::tuple from a pack)
  // made pow 4% slower with the AVX2 code (380 -> 364 Melem/s, 7 interleaved runs; the other rows
  // within 2%; both measured on the AVX-512 Xeon).
  const auto two = [&](size_t at) HWY_ATTR {
    [[maybe_unused]] const auto a = [&](size_t j) HWY_ATTR { return load(Nth<0>(), j); };
    [[maybe_unused]] const auto b = [&](size_t j) HWY_ATTR { return load(Nth<1>(), j); };
    [[maybe_unused]] const auto c = [&](size_t j) HWY_ATTR { return load(Nth<2>(), j); };
    [[maybe_unused]] const auto d = [&](size_t j) HWY_ATTR { return load(Nth<3>(), j); };
    if constexpr (kIn == 1) {
      const auto a0 = a(at), a1 = a(at + N);
      // A Unary row whose kernel takes two vectors at once (its functor's `pair`, eval-inl.h), with
      // EvalShape's conversions to and from the evaluation lanes.
      if constexpr (S == Shape::kUnary && requires(decltype(Zero(de)) y) { k.pair(de, y, y, y); }) {
        constexpr auto in = kOperands<S>.in[0], res = kOperands<S>.out[0];
        decltype(Zero(de)) y1;
        const auto y0 = k.pair(de, ToEvalLanes<E, in>(de, a0), ToEvalLanes<E, in>(de, a1), y1);
        StoreResults<S, DE>{out, at}(Nth<0>(), FromEvalLanes<E, res>(de, y0));
        StoreResults<S, DE>{out, at + N}(Nth<0>(), FromEvalLanes<E, res>(de, y1));
      } else {
        eval(at, a0);
        eval(at + N, a1);
      }
    } else if constexpr (kIn == 2) {
      // One declaration each: the inputs may differ in type (ldexp: float and int32 vectors).
      const auto a0 = a(at);
      const auto b0 = b(at);
      const auto a1 = a(at + N);
      const auto b1 = b(at + N);
      eval(at, a0, b0);
      eval(at + N, a1, b1);
    } else if constexpr (kIn == 3) {
      const auto a0 = a(at);
      const auto b0 = b(at);
      const auto c0 = c(at);
      const auto a1 = a(at + N);
      const auto b1 = b(at + N);
      const auto c1 = c(at + N);
      eval(at, a0, b0, c0);
      eval(at + N, a1, b1, c1);
    } else {
      static_assert(kIn == 4);
      const auto a0 = a(at);
      const auto b0 = b(at);
      const auto c0 = c(at);
      const auto d0 = d(at);
      const auto a1 = a(at + N);
      const auto b1 = b(at + N);
      const auto c1 = c(at + N);
      const auto d1 = d(at + N);
      eval(at, a0, b0, c0, d0);
      eval(at + N, a1, b1, c1, d1);
    }
  };
  const bool prefetch = n >= kPrefetchMin;
  for (; i + 2 * N <= n; i += 2 * N) {
    if (prefetch && (i & (kPrefetchChunk - 1)) == 0) PrefetchInputs<kIn>(in, i, kPrefetchChunk, n);
    two(i);
  }
  for (; i + N <= n; i += N) MapOne<E, S>(k, de, in, out, i, 0, std::make_integer_sequence<int, kIn>());
  if (i < n) MapOne<E, S>(k, de, in, out, i, n - i, std::make_integer_sequence<int, kIn>());
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_DRIVERS_MAP_INL_H_ toggle
