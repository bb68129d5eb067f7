// Element-by-element loops over the scalar-lane kernels (src/dispatch/scalar.cc). Highway
// targets without native fused multiply-add (SSE2/SSSE3/SSE4, EMU128, SCALAR, ...) call these,
// so that every path gives the same bits (DESIGN.md, "One algorithm, written once").
#pragma once

#include <cstddef>

namespace accelmath::detail {

void NdtriLoop(const float* src, float* dst, std::size_t n) noexcept;
void NdtriTaskbookLoop(const float* src, float* dst, std::size_t n) noexcept;

}  // namespace accelmath::detail
