// The scalar "lane": one float or double, with Highway's operation names.
//
// Every kernel in src/kernels/ is a template over a descriptor `d` and a vector type `V` and
// calls only unqualified Highway-style operations (Set, Add, MulAdd, IfThenElse, BitCast, ...).
// Instantiated with Highway's types it runs on SIMD targets; instantiated with the types below
// (found by argument-dependent lookup, exactly like Highway's) it runs one element at a time in
// host code and, since everything here is ACCELMATH_HD, in CUDA device code.
//
// Results are bit-identical to the SIMD targets because every operation is a correctly rounded
// IEEE operation: fma is a true fused multiply-add (std::fma / device fma), Div and Sqrt are IEEE,
// comparisons are ordered (false when either side is NaN) like Highway's. Kernels must not rely on
// Min/Max of NaN, whose result differs between Highway targets.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__CUDACC__)
#define ACCELMATH_HD __host__ __device__ __forceinline__
#else
#define ACCELMATH_HD inline __attribute__((always_inline))
#endif

namespace accelmath::lane {

// Descriptor: names the lane type, like hwy::HWY_NAMESPACE::Simd<T, N, 0>.
template <typename T>
struct D {
  using T_ = T;
};
template <typename T>
struct Vec {
  T raw;
};
template <typename T>
struct Mask {
  bool raw;
};

template <class Desc>
using TFromD = typename Desc::T_;

namespace detail {
template <typename T>
struct Unsigned;
template <>
struct Unsigned<float> {
  using type = uint32_t;
};
template <>
struct Unsigned<double> {
  using type = uint64_t;
};
template <typename T>
struct Signed;
template <>
struct Signed<float> {
  using type = int32_t;
};
template <>
struct Signed<double> {
  using type = int64_t;
};
}  // namespace detail

template <class Desc>
using RebindToUnsigned = D<typename detail::Unsigned<TFromD<Desc>>::type>;
// Like Highway's: the signed integer lanes of the same width (index vectors of GatherIndex).
template <class Desc>
using RebindToSigned = D<typename detail::Signed<TFromD<Desc>>::type>;
// Like Highway's Rebind: the lanes of type T, as many as Desc has (one here).
template <typename T, class Desc>
using Rebind = D<T>;

template <typename T>
ACCELMATH_HD constexpr size_t Lanes(D<T>) {
  return 1;
}
// Like Highway's Half for a one-lane descriptor: the same one lane (kernels test MaxLanes before
// splitting a vector into halves, so nothing is ever halved here).
template <class Desc>
using Half = Desc;
// Like Highway's MaxLanes: a compile-time bound on Lanes (one here).
template <typename T>
ACCELMATH_HD constexpr size_t MaxLanes(D<T>) {
  return 1;
}

// ---- construction --------------------------------------------------------------------------
template <typename T, typename A>
ACCELMATH_HD Vec<T> Set(D<T>, A a) {
  return Vec<T>{static_cast<T>(a)};
}
template <typename T>
ACCELMATH_HD Vec<T> Zero(D<T>) {
  return Vec<T>{T(0)};
}
template <typename To, typename From>
ACCELMATH_HD Vec<To> BitCast(D<To>, Vec<From> v) {
  static_assert(sizeof(To) == sizeof(From), "BitCast needs equal sizes");
  To out;
  std::memcpy(&out, &v.raw, sizeof(To));
  return Vec<To>{out};
}
ACCELMATH_HD Vec<double> PromoteTo(D<double>, Vec<float> v) { return Vec<double>{v.raw}; }
// Round to nearest even, like cvtpd2ps / fcvtn.
ACCELMATH_HD Vec<float> DemoteTo(D<float>, Vec<double> v) { return Vec<float>{static_cast<float>(v.raw)}; }

// ---- arithmetic (float and double; integer lanes wrap modulo 2^bits, as SIMD lanes do) -------
// Integer lanes compute in uint64_t and convert back (modular since C++20): signed overflow in the
// lane type itself would be undefined behaviour (kernels rely on the wrap, e.g. ExpF's exponent
// difference in lanes whose result is then discarded).
template <typename T>
ACCELMATH_HD Vec<T> Add(Vec<T> a, Vec<T> b) {
  if constexpr (std::is_integral_v<T>) return Vec<T>{T(uint64_t(a.raw) + uint64_t(b.raw))};
  else return Vec<T>{T(a.raw + b.raw)};
}
template <typename T>
ACCELMATH_HD Vec<T> Sub(Vec<T> a, Vec<T> b) {
  if constexpr (std::is_integral_v<T>) return Vec<T>{T(uint64_t(a.raw) - uint64_t(b.raw))};
  else return Vec<T>{T(a.raw - b.raw)};
}
template <typename T>
ACCELMATH_HD Vec<T> Mul(Vec<T> a, Vec<T> b) {
  if constexpr (std::is_integral_v<T>) return Vec<T>{T(uint64_t(a.raw) * uint64_t(b.raw))};
  else return Vec<T>{T(a.raw * b.raw)};
}
template <typename T>
ACCELMATH_HD Vec<T> Div(Vec<T> a, Vec<T> b) {
  return Vec<T>{a.raw / b.raw};
}
ACCELMATH_HD float FusedMulAdd(float a, float b, float c) { return ::fmaf(a, b, c); }
ACCELMATH_HD double FusedMulAdd(double a, double b, double c) { return ::fma(a, b, c); }
// a * b + c, rounded once.
template <typename T>
ACCELMATH_HD Vec<T> MulAdd(Vec<T> a, Vec<T> b, Vec<T> c) {
  return Vec<T>{FusedMulAdd(a.raw, b.raw, c.raw)};
}
// a * b - c, rounded once.
template <typename T>
ACCELMATH_HD Vec<T> MulSub(Vec<T> a, Vec<T> b, Vec<T> c) {
  return Vec<T>{FusedMulAdd(a.raw, b.raw, -c.raw)};
}
// -a * b + c, rounded once.
template <typename T>
ACCELMATH_HD Vec<T> NegMulAdd(Vec<T> a, Vec<T> b, Vec<T> c) {
  return Vec<T>{FusedMulAdd(-a.raw, b.raw, c.raw)};
}
ACCELMATH_HD Vec<float> Sqrt(Vec<float> a) { return Vec<float>{::sqrtf(a.raw)}; }
ACCELMATH_HD Vec<double> Sqrt(Vec<double> a) { return Vec<double>{::sqrt(a.raw)}; }
template <typename T>
ACCELMATH_HD Vec<T> Neg(Vec<T> a) {
  if constexpr (std::is_integral_v<T>) return Vec<T>{T(uint64_t(0) - uint64_t(a.raw))};
  else return Vec<T>{-a.raw};
}
// Rounding to an integral value, like Highway's: Round to nearest even, Trunc toward zero, Floor,
// Ceil (the default rounding mode is round to nearest, so rint is Round). Signs of zero are kept
// (Floor(-0.5) = -1, Ceil(-0.5) = -0). A NaN comes back a NaN; kernels fix its bits by a select.
ACCELMATH_HD Vec<float> Round(Vec<float> a) { return Vec<float>{::rintf(a.raw)}; }
ACCELMATH_HD Vec<double> Round(Vec<double> a) { return Vec<double>{::rint(a.raw)}; }
ACCELMATH_HD Vec<float> Trunc(Vec<float> a) { return Vec<float>{::truncf(a.raw)}; }
ACCELMATH_HD Vec<double> Trunc(Vec<double> a) { return Vec<double>{::trunc(a.raw)}; }
ACCELMATH_HD Vec<float> Floor(Vec<float> a) { return Vec<float>{::floorf(a.raw)}; }
ACCELMATH_HD Vec<double> Floor(Vec<double> a) { return Vec<double>{::floor(a.raw)}; }
ACCELMATH_HD Vec<float> Ceil(Vec<float> a) { return Vec<float>{::ceilf(a.raw)}; }
ACCELMATH_HD Vec<double> Ceil(Vec<double> a) { return Vec<double>{::ceil(a.raw)}; }
// Clears the sign bit (also of -0 and NaN), like Highway.
ACCELMATH_HD Vec<float> Abs(Vec<float> a) { return Vec<float>{::fabsf(a.raw)}; }
ACCELMATH_HD Vec<double> Abs(Vec<double> a) { return Vec<double>{::fabs(a.raw)}; }
// Defined for non-NaN inputs only (see the header comment).
template <typename T>
ACCELMATH_HD Vec<T> Min(Vec<T> a, Vec<T> b) {
  return Vec<T>{a.raw < b.raw ? a.raw : b.raw};
}
template <typename T>
ACCELMATH_HD Vec<T> Max(Vec<T> a, Vec<T> b) {
  return Vec<T>{a.raw > b.raw ? a.raw : b.raw};
}

// ---- integer lanes (int32/uint32/uint64, for bit manipulation) -----------------------------------
template <int kBits, typename T>
ACCELMATH_HD Vec<T> ShiftRight(Vec<T> a) {
  return Vec<T>{T(a.raw >> kBits)};
}
template <int kBits, typename T>
ACCELMATH_HD Vec<T> ShiftLeft(Vec<T> a) {
  return Vec<T>{T(a.raw << kBits)};
}
template <typename T>
ACCELMATH_HD Vec<T> Or(Vec<T> a, Vec<T> b) {
  return Vec<T>{T(a.raw | b.raw)};
}
template <typename T>
ACCELMATH_HD Vec<T> And(Vec<T> a, Vec<T> b) {
  return Vec<T>{T(a.raw & b.raw)};
}
template <typename T>
ACCELMATH_HD Vec<T> Xor(Vec<T> a, Vec<T> b) {
  return Vec<T>{T(a.raw ^ b.raw)};
}
// o | (a1 & a2), like Highway's OrAnd (one vpternlog on AVX-512).
template <typename T>
ACCELMATH_HD Vec<T> OrAnd(Vec<T> o, Vec<T> a1, Vec<T> a2) {
  return Vec<T>{T(o.raw | (a1.raw & a2.raw))};
}

// Variable shifts (shift counts in [0, bits)); Shr is arithmetic for signed lanes, as in Highway.
template <typename T>
ACCELMATH_HD Vec<T> Shl(Vec<T> a, Vec<T> bits) {
  return Vec<T>{T(a.raw << bits.raw)};
}
template <typename T>
ACCELMATH_HD Vec<T> Shr(Vec<T> a, Vec<T> bits) {
  return Vec<T>{T(a.raw >> bits.raw)};
}
// int32 to float32, rounded to nearest (exact below 2^24).
ACCELMATH_HD Vec<float> ConvertTo(D<float>, Vec<int32_t> v) { return Vec<float>{static_cast<float>(v.raw)}; }

// ---- table lookup --------------------------------------------------------------------------
// base[index], like Highway's GatherIndex (index: signed lanes of the same width; the caller
// guarantees it is in range).
template <typename T, typename I>
ACCELMATH_HD Vec<T> GatherIndex(D<T>, const T* base, Vec<I> index) {
  static_assert(sizeof(I) == sizeof(T) && I(-1) < I(0), "GatherIndex takes signed same-width indices");
  return Vec<T>{base[index.raw]};
}

// ---- comparisons and masks (ordered: false if either operand is NaN) -----------------------
template <typename T>
ACCELMATH_HD Mask<T> Lt(Vec<T> a, Vec<T> b) {
  return Mask<T>{a.raw < b.raw};
}
template <typename T>
ACCELMATH_HD Mask<T> Le(Vec<T> a, Vec<T> b) {
  return Mask<T>{a.raw <= b.raw};
}
template <typename T>
ACCELMATH_HD Mask<T> Gt(Vec<T> a, Vec<T> b) {
  return Mask<T>{a.raw > b.raw};
}
template <typename T>
ACCELMATH_HD Mask<T> Ge(Vec<T> a, Vec<T> b) {
  return Mask<T>{a.raw >= b.raw};
}
template <typename T>
ACCELMATH_HD Mask<T> Eq(Vec<T> a, Vec<T> b) {
  return Mask<T>{a.raw == b.raw};
}
template <typename T>
ACCELMATH_HD Mask<T> And(Mask<T> a, Mask<T> b) {
  return Mask<T>{a.raw && b.raw};
}
template <typename T>
ACCELMATH_HD Mask<T> Or(Mask<T> a, Mask<T> b) {
  return Mask<T>{a.raw || b.raw};
}
template <typename T>
ACCELMATH_HD Mask<T> Not(Mask<T> a) {
  return Mask<T>{!a.raw};
}
// The same lanes' mask for lanes of another type of the same width, like Highway's RebindMask.
template <typename T, typename U>
ACCELMATH_HD Mask<T> RebindMask(D<T>, Mask<U> m) {
  static_assert(sizeof(T) == sizeof(U), "RebindMask needs equal widths");
  return Mask<T>{m.raw};
}
template <typename T>
ACCELMATH_HD bool AllTrue(D<T>, Mask<T> m) {
  return m.raw;
}
template <typename T>
ACCELMATH_HD bool AllFalse(D<T>, Mask<T> m) {
  return !m.raw;
}
template <typename T>
ACCELMATH_HD Vec<T> IfThenElse(Mask<T> m, Vec<T> yes, Vec<T> no) {
  return m.raw ? yes : no;
}
template <typename T>
ACCELMATH_HD Vec<T> IfThenElseZero(Mask<T> m, Vec<T> yes) {
  return m.raw ? yes : Vec<T>{T(0)};
}
// Like Highway's: yes where v's sign bit is set (-0 included), for float lanes.
template <typename T>
ACCELMATH_HD Vec<T> IfNegativeThenElse(Vec<T> v, Vec<T> yes, Vec<T> no) {
  return std::signbit(v.raw) ? yes : no;
}

}  // namespace accelmath::lane

// ---- conversions for the drivers -------------------------------------------------------------
// The conversions of the shape-generic evaluation (src/drivers/eval-inl.h, EvalShape), like
// Highway's: an int32 input (ldexp's n) exactly to binary64, a binary64 integer result (ilogb,
// frexp's exponent) to int32, and a 0/1 mask result (isnan) to uint8.
namespace accelmath::lane {

ACCELMATH_HD Vec<double> PromoteTo(D<double>, Vec<int32_t> v) { return Vec<double>{static_cast<double>(v.raw)}; }
ACCELMATH_HD Vec<int64_t> PromoteTo(D<int64_t>, Vec<int32_t> v) { return Vec<int64_t>{v.raw}; }  // trig's row index
// Truncates toward zero; out of range saturates (NaN gives INT_MIN), so no input is undefined
// behaviour. Kernels give integers in [INT_MIN, INT_MAX] (shape ToInt32), converted exactly.
ACCELMATH_HD Vec<int32_t> DemoteTo(D<int32_t>, Vec<double> v) {
  return Vec<int32_t>{v.raw >= 2147483647.0 ? INT32_MAX : v.raw > -2147483648.0 ? static_cast<int32_t>(v.raw) : INT32_MIN};
}
// Saturates to [0, 255], like Highway's.
ACCELMATH_HD Vec<uint8_t> DemoteTo(D<uint8_t>, Vec<int32_t> v) {
  return Vec<uint8_t>{static_cast<uint8_t>(v.raw < 0 ? 0 : v.raw > 255 ? 255 : v.raw)};
}

}  // namespace accelmath::lane
