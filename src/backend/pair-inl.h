// Pair<D>: a descriptor whose vectors (and masks) are two Highway vectors (masks). Every operation
// applies to both halves, one after the other, so two independent dependency chains are
// interleaved instruction by instruction and the out-of-order window overlaps their latencies
// (GCC does not schedule instructions across them on x86). Running a kernel on Pair<D> computes
// exactly what two calls on D compute, bit for bit; only the instruction order changes.
// It provides the operations of the kernels that use it (today: ndtri).
#if defined(ACCELMATH_BACKEND_PAIR_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_BACKEND_PAIR_INL_H_
#undef ACCELMATH_BACKEND_PAIR_INL_H_
#else
#define ACCELMATH_BACKEND_PAIR_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

template <class D>
struct Pair {
  using T = typename D::T;  // for TFromD
  template <typename U>
  using Rebind = Pair<typename D::template Rebind<U>>;  // for RebindToUnsigned
  D d;
};
template <class V>
struct PairV {
  V a, b;
};
template <class M>
struct PairM {
  M a, b;
};
template <class D>
using PairVec = PairV<decltype(hwy::HWY_NAMESPACE::Zero(D()))>;


template <class D, typename T>
HWY_API PairVec<D> Set(Pair<D> p, T t) {
  return {Set(p.d, t), Set(p.d, t)};
}
template <class D>
HWY_API PairVec<D> Zero(Pair<D> p) {
  return {Zero(p.d), Zero(p.d)};
}
template <class D, class V>
HWY_API PairVec<D> BitCast(Pair<D> p, PairV<V> x) {
  return {BitCast(p.d, x.a), BitCast(p.d, x.b)};
}
template <class V>
HWY_API PairV<V> Add(PairV<V> x, PairV<V> y) { return {Add(x.a, y.a), Add(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Sub(PairV<V> x, PairV<V> y) { return {Sub(x.a, y.a), Sub(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Mul(PairV<V> x, PairV<V> y) { return {Mul(x.a, y.a), Mul(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Div(PairV<V> x, PairV<V> y) { return {Div(x.a, y.a), Div(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Min(PairV<V> x, PairV<V> y) { return {Min(x.a, y.a), Min(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> Or(PairV<V> x, PairV<V> y) { return {Or(x.a, y.a), Or(x.b, y.b)}; }
template <class V>
HWY_API PairV<V> MulAdd(PairV<V> x, PairV<V> y, PairV<V> z) {
  return {MulAdd(x.a, y.a, z.a), MulAdd(x.b, y.b, z.b)};
}
template <class V>
HWY_API PairV<V> MulSub(PairV<V> x, PairV<V> y, PairV<V> z) {
  return {MulSub(x.a, y.a, z.a), MulSub(x.b, y.b, z.b)};
}
template <class V>
HWY_API PairV<V> Sqrt(PairV<V> x) { return {Sqrt(x.a), Sqrt(x.b)}; }
template <class V>
HWY_API PairV<V> Neg(PairV<V> x) { return {Neg(x.a), Neg(x.b)}; }
template <class V>
HWY_API PairV<V> Abs(PairV<V> x) { return {Abs(x.a), Abs(x.b)}; }
template <int kBits, class V>
HWY_API PairV<V> ShiftRight(PairV<V> x) { return {ShiftRight<kBits>(x.a), ShiftRight<kBits>(x.b)}; }
template <int kBits, class V>
HWY_API PairV<V> ShiftLeft(PairV<V> x) { return {ShiftLeft<kBits>(x.a), ShiftLeft<kBits>(x.b)}; }

template <class V>
HWY_API auto Lt(PairV<V> x, PairV<V> y) { return PairM<decltype(Lt(x.a, y.a))>{Lt(x.a, y.a), Lt(x.b, y.b)}; }
template <class V>
HWY_API auto Le(PairV<V> x, PairV<V> y) { return PairM<decltype(Le(x.a, y.a))>{Le(x.a, y.a), Le(x.b, y.b)}; }
template <class V>
HWY_API auto Ge(PairV<V> x, PairV<V> y) { return PairM<decltype(Ge(x.a, y.a))>{Ge(x.a, y.a), Ge(x.b, y.b)}; }
template <class V>
HWY_API auto Eq(PairV<V> x, PairV<V> y) { return PairM<decltype(Eq(x.a, y.a))>{Eq(x.a, y.a), Eq(x.b, y.b)}; }
template <class M>
HWY_API PairM<M> And(PairM<M> x, PairM<M> y) { return {And(x.a, y.a), And(x.b, y.b)}; }
template <class M, class V>
HWY_API PairV<V> IfThenElse(PairM<M> m, PairV<V> yes, PairV<V> no) {
  return {IfThenElse(m.a, yes.a, no.a), IfThenElse(m.b, yes.b, no.b)};
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_BACKEND_PAIR_INL_H_ toggle
