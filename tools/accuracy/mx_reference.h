// An independent model of the MX rules (docs/mx.md), for tests and the codec sweep. It shares no
// code with src/kernels/mx-inl.h and works differently: element values come from the format's
// definition in binary64 (ldexp), encoding searches the sorted grid, scale exponents come from
// frexp, and the block is scaled in binary64 (exact), so an error in the bit tricks of the
// kernels cannot hide in here.
#pragma once

#include <cstdint>
#include <vector>

#include "accelmath/mx.h"

namespace accelmath::mx::reference {

struct Format {
  int bits, ebits, mbits, bias;
  bool e4m3_nan;   // S.1111.111 is NaN (E4M3FN)
  bool ieee_inf;   // all-ones exponent is Inf/NaN (E5M2)
};
Format FormatOf(DType type);

// Exact value of a code (NaN/Inf as the format defines them).
double Value(uint8_t code, DType type);
// The spec's codec: one rounding of x (binary64, exact for float32 inputs) in `mode`, saturating,
// sign kept; NaN -> the format's NaN with x's sign, or +0 without one.
uint8_t Encode(double x, DType type, RoundMode mode);
// E8M0 value 2^(code - 127); NaN for 0xFF.
double ScaleValue(uint8_t code);
// Scale code of a block with max |x| = amax (binary64 holding a float32 value).
uint8_t ScaleCode(double amax, DType type, ScaleAlg alg);

// Quantizes float32 values x (already widened from float16/bfloat16) of the given shape and
// writes unpacked codes (one per element, x's order) and unpadded scale codes ([pre, nb, post]).
void Quantize(const std::vector<float>& x, const std::vector<int64_t>& shape, int64_t axis, DType type,
              int64_t blocksize, RoundMode mode, ScaleAlg alg, std::vector<uint8_t>* codes,
              std::vector<uint8_t>* scales);

}  // namespace accelmath::mx::reference
