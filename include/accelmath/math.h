// The float32 math library, array form: SIMD with run-time dispatch (Highway).
//
// Contract shared by every unary array function f(dst, src[, count]):
//  - count in [0, min(src.size(), dst.size())], else Status::kBufferTooSmall; the two-argument
//    form uses count = src.size() (so dst must be at least as long as src).
//  - count == 0 reads and writes nothing.
//  - In place (dst.data() == src.data()) is supported; any other overlap of the first `count`
//    elements is Status::kPartialOverlap. With separate buffers src is never modified.
//  - Any length: the last partial vector is handled with masked loads/stores; nothing past
//    `count` is read or written. No temporary buffer is allocated.
//  - float32 only: spans of other element types do not convert and fail to compile.
//  - On error nothing is written.
//  - Results are bit-identical to accelmath::scalar::f on every SIMD target.
#pragma once

#include <cstddef>
#include <span>

#include "accelmath/status.h"

namespace accelmath {

// Inverse of the standard normal CDF (docs/ndtri.md). Max error 0.5037 ulp over every
// float32 p in [0, 1] (exhaustive sweep, docs/accuracy.md); special values as documented.
Status ndtri(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept;
Status ndtri(std::span<float> dst, std::span<const float> src) noexcept;

// The design proposal's configuration (24-term series centre, float32 AS241 tails), kept
// reproducible for comparison. Passes the 1e-4 dual-threshold standard; not faithfully rounded.
Status ndtri_taskbook(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept;
Status ndtri_taskbook(std::span<float> dst, std::span<const float> src) noexcept;

}  // namespace accelmath
