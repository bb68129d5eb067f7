// accelmath on an NVIDIA GPU: libaccelmath_cuda (CMake option ACCELMATH_CUDA; docs/cuda.md).
//
// Every math function of the registry (accelmath/ops.def) on device arrays, one function per row,
// generated from the row like the CPU array API (accelmath/math.h), by the row's shape:
//   Unary          Status f(float* dst, const float* src, size_t n, cudaStream_t stream = 0)
//   UnaryPair      Status f(float* dst1, float* dst2, const float* src, size_t n, stream)   (sincos)
//   Binary         Status f(float* dst, const float* src1, const float* src2, size_t n, stream)
//   Ternary        Status f(float* dst, const float* src1, src2, src3, size_t n, stream)
//   Quaternary     Status f(float* dst, const float* src1, src2, src3, src4, size_t n, stream)
//   ToInt32        Status f(int32_t* dst, const float* src, size_t n, stream)               (ilogb)
//   Predicate      Status f(uint8_t* dst, const float* src, size_t n, stream)               (isnan)
//   SplitExponent  Status f(float* dst, int32_t* exp, const float* src, size_t n, stream)   (frexp)
//   ScaleExponent  Status f(float* dst, const float* src, const int32_t* e, size_t n, stream) (ldexp)
//   Rows           Status f(float* dst, const float* src, size_t row_length, size_t count, stream) (norm)
// and every row through one signature, run(). The kernels are the scalar lane of the CPU library
// (src/backend/lane_functions.h), compiled as device code with -fmad=false, IEEE division and
// square root and no flush to zero: each result has the bits of accelmath::scalar::f on the same
// input (tests/cuda/device_check.cu checks 2^24 inputs per function on a GPU). One exception: where
// the result is a NaN, its sign and payload are the GPU's (a NaN is a NaN; docs/cuda.md).
//
// Contract (as accelmath/math.h's, with pointers instead of spans):
//  - The pointers are device memory (cudaMalloc, managed or mapped host memory); a null pointer with
//    n > 0 is kNullPointer, memory the GPU cannot access kNotDeviceMemory; an output may be its input
//    (in place) or disjoint from it, else kPartialOverlap; n == 0 does nothing. Nothing is launched
//    on an error.
//  - The kernel is queued on `stream` and the call returns without waiting: results are there after
//    the stream is synchronized. A refused launch (or no GPU) is kDeviceError; an error while the
//    kernel runs surfaces at that synchronization, as for any CUDA kernel.
//
// MX block quantization on device tensors: accelmath::cuda::mx::quantize / dequantize, with the
// layout, options, validation and errors of accelmath::mx (accelmath/mx.h) and the same codes and
// scales bit for bit. Atomic accumulate as device functions for your own kernels:
// accelmath/cuda_atomic.h.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "accelmath/mx.h"
#include "accelmath/registry.h"
#include "accelmath/status.h"

namespace accelmath::cuda {

#define ACCELMATH_CUDA_DECLARE_Unary(name) \
  Status name(float* dst, const float* src, std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_UnaryPair(name) \
  Status name(float* dst1, float* dst2, const float* src, std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_Binary(name) \
  Status name(float* dst, const float* src1, const float* src2, std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_Ternary(name)                                                                    \
  Status name(float* dst, const float* src1, const float* src2, const float* src3, std::size_t n,              \
              cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_Quaternary(name)                                                                 \
  Status name(float* dst, const float* src1, const float* src2, const float* src3, const float* src4,          \
              std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_ToInt32(name) \
  Status name(std::int32_t* dst, const float* src, std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_Predicate(name) \
  Status name(std::uint8_t* dst, const float* src, std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_SplitExponent(name) \
  Status name(float* dst, std::int32_t* exp, const float* src, std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_ScaleExponent(name) \
  Status name(float* dst, const float* src, const std::int32_t* e, std::size_t n, cudaStream_t stream = 0) noexcept;
#define ACCELMATH_CUDA_DECLARE_Rows(name)                                                                       \
  Status name(float* dst, const float* src, std::size_t row_length, std::size_t count,                         \
              cudaStream_t stream = 0) noexcept;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_CUDA_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_CUDA_DECLARE_Unary
#undef ACCELMATH_CUDA_DECLARE_UnaryPair
#undef ACCELMATH_CUDA_DECLARE_Binary
#undef ACCELMATH_CUDA_DECLARE_Ternary
#undef ACCELMATH_CUDA_DECLARE_Quaternary
#undef ACCELMATH_CUDA_DECLARE_ToInt32
#undef ACCELMATH_CUDA_DECLARE_Predicate
#undef ACCELMATH_CUDA_DECLARE_SplitExponent
#undef ACCELMATH_CUDA_DECLARE_ScaleExponent
#undef ACCELMATH_CUDA_DECLARE_Rows

// Any row through one signature, as FunctionInfo::run (accelmath/registry.h) on the CPU: out[k] and
// in[k] are device arrays of the operands' element types; count results (Rows: count rows of
// row_length floats in in[0]). kInvalidArgument for a FunctionInfo that is not one of functions().
Status run(const FunctionInfo& f, void* const* out, const void* const* in, std::size_t count,
           std::size_t row_length = 0, cudaStream_t stream = 0) noexcept;

// The number of CUDA devices this process can use (0 without a GPU or driver; never an error).
int device_count() noexcept;

}  // namespace accelmath::cuda

namespace accelmath::cuda::mx {

// accelmath::mx::quantize / dequantize (accelmath/mx.h) on device tensors: the same validation
// (get_workspace_size's checks, then each buffer must be device memory: kErrParamInvalid naming it),
// the same layout and the same bytes. `options.threads` is ignored. Queued on `stream`; a refused
// launch is an Error with param "cuda" and the CUDA error's text.
accelmath::mx::Error quantize(accelmath::mx::TensorView x, accelmath::mx::MutableTensorView y,
                              accelmath::mx::MutableTensorView mxscale,
                              const accelmath::mx::QuantizeOptions& options = {}, cudaStream_t stream = 0);
accelmath::mx::Error dequantize(accelmath::mx::TensorView y, accelmath::mx::TensorView mxscale,
                                accelmath::mx::MutableTensorView x,
                                const accelmath::mx::DequantizeOptions& options = {}, cudaStream_t stream = 0);

}  // namespace accelmath::cuda::mx
