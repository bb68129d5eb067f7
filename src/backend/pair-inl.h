// Pair<D>: a descriptor whose vectors are two Highway vectors. Every operation
// applies to both halves, one after the other, so two independent dependency chains are
// interleaved instruction by instruction and the out-of-order window overlaps their latencies
// (GCC does not schedule instructions across them on x86). Running a kernel on Pair<D> computes
// exactly what two calls on D compute, bit for bit; only the instruction order changes.
// It provides only the operations of the kernels that use it (today: the ndtri centre). The map
// driver's pair kernels (sin, cos, tan, tanpi, erfc, normcdf: src/drivers/eval-inl.h) and the ndtri
// tail (NdtriTailPair, which the split driver's rare pass calls) alternate their two chains by hand
// instead (TanReduced2, Horner2, ExpFinite64Pair, Estrin2...): they run on SVE too, whose vectors
// cannot be a struct's members, and need masks, bit casts and rebinds this type does not have.
#if defined(ACCELMATH_BACKEND_PAIR_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_BACKEND_PAIR_INL_H_
#undef ACCELMATH_BACKEND_PAIR_INL_H_
#else
#define ACCELMATH_BACKEND_PAIR_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

// The overloads below would hide Highway's from unqualified calls in this namespace; vector types
// that are classes (x86, NEON) still find Highway's by argument-dependent lookup, SVE's built-in
// types do not, so Highway's are declared here beside them.
using hwy::HWY_NAMESPACE::Add;
using hwy::HWY_NAMESPACE::Div;
using hwy::HWY_NAMESPACE::Mul;
using hwy::HWY_NAMESPACE::MulAdd;
using hwy::HWY_NAMESPACE::MulSub;
using hwy::HWY_NAMESPACE::Set;
using hwy::HWY_NAMESPACE::Sub;

template <class D>
struct Pair {
  D d;
};
template <class V>
struct PairV {
  V a, b;
};
template <class D>
using PairVec = PairV<decltype(hwy::HWY_NAMESPACE::Zero(D()))>;

template <class D, typename T>
HWY_API PairVec<D> Set(Pair<D> p, T t) {
  return {Set(p.d, t), Set(p.d, t)};
}
template <class V>
HWY_API PairV<V> Add(PairV<V> x, PairV<V> y) { return {Add(x.a, y.a), Add(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Sub(PairV<V> x, PairV<V> y) { return {Sub(x.a, y.a), Sub(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Div(PairV<V> x, PairV<V> y) { return {Div(x.a, y.a), Div(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Mul(PairV<V> x, PairV<V> y) { return {Mul(x.a, y.a), Mul(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> MulAdd(PairV<V> x, PairV<V> y, PairV<V> z) {
  return {MulAdd(x.a, y.a, z.a), MulAdd(x.b, y.b, z.b)};
}
template <class V>
HWY_API PairV<V> MulSub(PairV<V> x, PairV<V> y, PairV<V> z) {
  return {MulSub(x.a, y.a, z.a), MulSub(x.b, y.b, z.b)};
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_BACKEND_PAIR_INL_H_ toggle
