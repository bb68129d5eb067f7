// How kernel functions are declared: plain inline functions for the Highway targets and host code,
// __host__ __device__ under nvcc, so the scalar-lane instantiation also runs in CUDA kernels. A file
// may define ACCELMATH_KERNEL first (src/dispatch/scalar.cc forces the scalar lane's inline).
#pragma once

#ifndef ACCELMATH_KERNEL
#if defined(__CUDACC__)
#define ACCELMATH_KERNEL __host__ __device__ inline
#else
#define ACCELMATH_KERNEL inline
#endif
#endif
