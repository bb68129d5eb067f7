// What the CUDA entry points (src/cuda/math.cu, src/cuda/mx.cu) share: the device-memory check and
// the launch geometry of their grid-stride kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "accelmath/status.h"

namespace accelmath::cuda::detail {

inline constexpr int kThreads = 256;

// Blocks for `work` items, one per thread, capped (the kernels' grid-stride loops take the rest):
// 2^20 blocks of 256 threads fill any GPU many times over.
inline unsigned GridFor(std::size_t work) {
  const std::size_t blocks = (work + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < (std::size_t{1} << 20) ? blocks : (std::size_t{1} << 20));
}

// kOk when `p` is memory the current device can access (cudaMalloc, managed, or mapped host memory),
// kNotDeviceMemory when it is not (plain host memory), kDeviceError when CUDA cannot tell (no GPU or
// driver; the error is cleared so that it does not surface in the caller's next CUDA call).
inline Status CheckDevicePointer(const void* p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return Status::kDeviceError;
  }
  return a.type == cudaMemoryTypeUnregistered || a.devicePointer == nullptr ? Status::kNotDeviceMemory : Status::kOk;
}

}  // namespace accelmath::cuda::detail
