// An independent model of the atomic accumulate rules (../shared/spec/atomics.md, docs/atomics.md),
// for the tests and `accelmath atomic-sweep`. It shares no code with src/atomic: floating-point
// values are decoded from their bit fields into binary64, add is done by MPFR at the type's
// precision and exponent range (subnormals included, round to nearest even), results are encoded
// back from frexp, integers are added in 128 bits, and max/min follow the spec's wording.
#pragma once

#include <cstdint>

namespace accelmath::atomic::reference {

enum class Type { kFloat16, kBFloat16, kFloat32, kInt8, kInt16, kInt32, kInt64 };
enum class Op { kAdd, kMax, kMin };

// op(a, b) in IEEE (saturate = false) or saturation mode. Operands and result are bit patterns
// in the low bits (integers: two's complement). NaN results are the canonical quiet NaN.
std::uint64_t Apply(Type type, Op op, bool saturate, std::uint64_t a, std::uint64_t b);

// Exact binary64 value of a floating-point type's bit pattern, and back (v must be representable:
// a value of the type, +-inf or NaN; NaN encodes as the canonical quiet NaN).
double Decode(Type type, std::uint64_t bits);
std::uint64_t Encode(Type type, double v);

}  // namespace accelmath::atomic::reference
