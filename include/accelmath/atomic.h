// Atomic accumulate: dst[i] = op(dst[i], src[i]) with op = add, max or min, each element update one
// atomic read-modify-write, safe with any number of concurrent callers (threads of one process
// accumulating into the same memory). Contract: ../shared/spec/atomics.md; user guide: docs/atomics.md.
//
//   accelmath::atomic::add(dst, src, Mode::kIeee)          dst[i]        op= src[i]
//   accelmath::atomic::add(dst, index, src, Mode::kIeee)   dst[index[i]] op= src[i]   (scatter)
//
// Element types: float16, bfloat16 (accelmath/types.h), float, int8_t, int16_t, int32_t, int64_t.
//
// Semantics (every type, both modes, exactly):
//  - add: float16/bfloat16: the exact sum rounded once to nearest-even; float: IEEE binary32 addition;
//    integers: two's-complement wrap-around.
//  - max/min: IEEE 754-2019 maximum/minimum: a NaN operand gives NaN and -0 < +0 (not C's fmax/fmin).
//  - A NaN result is the type's canonical quiet NaN (float16 0x7E00, bfloat16 0x7FC0, float
//    0x7FC00000), whatever the operands' payloads.
//  - Mode::kSaturate: float16/bfloat16 results +inf -> MAX, -inf -> -MAX, NaN -> +0 (so MAX + MAX = MAX,
//    max(x, NaN) = 0); integer add clamps to [MIN, MAX]. float32 is always IEEE: on the modelled
//    hardware the saturation switch does not cover float32, so kSaturate leaves float32 unchanged.
//  - Results assume the default floating-point environment (round to nearest, no flush-to-zero).
//
// Concurrency: each element update is atomic (lock-free; compare-and-swap on the element itself, or
// fetch-add for wrapping integer add); nothing is lost however many threads update the same element.
// A call as a whole is not atomic, and the updates are unordered (relaxed) with respect to other
// memory operations: read the results after joining the threads, or after your own
// release/acquire synchronization. While updates may be in flight, touch dst only through this API.
// For max/min the final values do not depend on the order of the updates; for floating add they can
// (rounding), as on any hardware.
//
// Errors (Status, checked before anything is written; on error dst is unchanged):
//  - kSizeMismatch: src.size() != dst.size() (element-wise) or index.size() != src.size() (scatter);
//  - kIndexOutOfRange: an index < 0 or >= dst.size() (scatter);
//  - kMisaligned: dst.data() not aligned to the element size (only possible by reinterpreting bytes);
//  - kOverlap: src or index shares memory with dst;
//  - kInvalidArgument: mode is not one of the two enumerators.
#pragma once

#include <cstdint>
#include <span>

#include "accelmath/status.h"
#include "accelmath/types.h"

namespace accelmath::atomic {

enum class Mode : int {
  kIeee = 0,      // "INF/NaN mode": inf, -inf and NaN are stored as they are; integers wrap
  kSaturate = 1,  // float16/bfloat16: inf -> +-MAX, NaN -> 0; integers clamp; float32 as kIeee
};

#define ACCELMATH_ATOMIC_DECLARE(T)                                                                    \
  Status add(std::span<T> dst, std::span<const T> src, Mode mode);                                     \
  Status max(std::span<T> dst, std::span<const T> src, Mode mode);                                     \
  Status min(std::span<T> dst, std::span<const T> src, Mode mode);                                     \
  Status add(std::span<T> dst, std::span<const std::int64_t> index, std::span<const T> src, Mode mode); \
  Status max(std::span<T> dst, std::span<const std::int64_t> index, std::span<const T> src, Mode mode); \
  Status min(std::span<T> dst, std::span<const std::int64_t> index, std::span<const T> src, Mode mode);
ACCELMATH_ATOMIC_DECLARE(float16)
ACCELMATH_ATOMIC_DECLARE(bfloat16)
ACCELMATH_ATOMIC_DECLARE(float)
ACCELMATH_ATOMIC_DECLARE(std::int8_t)
ACCELMATH_ATOMIC_DECLARE(std::int16_t)
ACCELMATH_ATOMIC_DECLARE(std::int32_t)
ACCELMATH_ATOMIC_DECLARE(std::int64_t)
#undef ACCELMATH_ATOMIC_DECLARE

}  // namespace accelmath::atomic
