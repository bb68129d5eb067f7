// How kernel functions are declared: plain inline functions for the Highway targets and host code,
// __host__ __device__ under nvcc, so the scalar-lane instantiation also runs in CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define ACCELMATH_KERNEL __host__ __device__ inline
#else
#define ACCELMATH_KERNEL inline
#endif
