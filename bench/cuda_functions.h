// The CUDA math functions bench_cuda compares against, each next to the accelmath row it answers
// and the binary64 CUDA function used as the accuracy reference: X(row, cuda_float_fn, cuda_double_fn).
// bench_cuda.cu instantiates the float kernels as compiled by default (CUDA's documented 1-6 ulp
// functions), bench_cuda_fast.cu the same source under -use_fast_math (the intrinsics __sinf,
// __expf, __logf and approximate division, square root and flush to zero for the others).
#pragma once

#include <cstddef>

#define ACCELMATH_CUDA_BENCH_FUNCTIONS(X) \
  X(sin, sinf, sin)                       \
  X(exp, expf, exp)                       \
  X(log, logf, log)                       \
  X(erf, erff, erf)                       \
  X(erfc, erfcf, erfc)                    \
  X(erfinv, erfinvf, erfinv)              \
  X(ndtri, normcdfinvf, normcdfinv)       \
  X(tgamma, tgammaf, tgamma)              \
  X(lgamma, lgammaf, lgamma)              \
  X(cyl_bessel_i0, cyl_bessel_i0f, cyl_bessel_i0)

// y[i] = fn(x[i]) for i < n on the default stream, one element per thread (grid-stride).
#define ACCELMATH_CUDA_BENCH_DECLARE(row, ffn, dfn) void row(float* y, const float* x, std::size_t n);

#define ACCELMATH_CUDA_BENCH_DEFINE(row, ffn, dfn)                                                     \
  __global__ void row##_kernel(float* y, const float* x, std::size_t n) {                              \
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;                                    \
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {     \
      y[i] = ffn(x[i]);                                                                                \
    }                                                                                                  \
  }                                                                                                    \
  void row(float* y, const float* x, std::size_t n) {                                                  \
    const std::size_t blocks = (n + 255) / 256;                                                        \
    row##_kernel<<<unsigned(blocks < (1u << 20) ? blocks : (1u << 20)), 256>>>(y, x, n);               \
  }
