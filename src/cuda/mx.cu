// MX block quantization on device tensors (accelmath/cuda.h): the CPU's validation
// (accelmath::mx::get_workspace_size), then grid-stride kernels built on the per-element steps of
// src/cuda/mx_elements.h (the scalar lane of src/kernels/mx-inl.h, the code every CPU target runs),
// so the codes, scales and values are the CPU's bit for bit:
//  - the chunk path (blocks along the last axis, its length a multiple of 32, aligned buffers:
//    detail::UseChunks): quantize = one thread per block, moving 32-element chunks with 16- or
//    8-byte accesses; dequantize = one thread per 4 elements, one 16- or 8-byte store each;
//  - any other layout: quantize = one thread per scale byte, then one per packing unit; dequantize =
//    one per unit.
#include <cuda_runtime.h>

#include <bit>
#include <cstdint>
#include <string>

#include "accelmath/cuda.h"
#include "cuda/launch.h"
#include "cuda/mx_elements.h"

namespace accelmath::cuda::mx {
namespace {

using accelmath::mx::DequantizePlan;
using accelmath::mx::DType;
using accelmath::mx::Error;
using accelmath::mx::QuantizePlan;
using accelmath::mx::RoundMode;
using accelmath::mx::ScaleAlg;
using cuda::detail::kThreads;
using detail::Layout;
using detail::PerUnit;

#define ACCELMATH_GRID_STRIDE(i, n) \
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < (n); i += int64_t(gridDim.x) * blockDim.x)

template <DType kType, typename T>
__global__ void __launch_bounds__(kThreads) ScaleKernel(const T* x, uint8_t* scale, Layout l, ScaleAlg alg) {
  ACCELMATH_GRID_STRIDE(s, l.scale_bytes()) scale[s] = detail::ScaleAt<kType>(x, l, alg, s);
}

template <DType kType, RoundMode kMode, typename T>
__global__ void __launch_bounds__(kThreads)
    CodeKernel(const T* x, const uint8_t* scale, uint8_t* y, Layout l, int64_t units) {
  ACCELMATH_GRID_STRIDE(u, units) detail::CodesAt<kType, kMode>(x, scale, y, l, u);
}

template <DType kType, typename T>
__global__ void __launch_bounds__(kThreads)
    ValueKernel(const uint8_t* y, const uint8_t* scale, T* x, Layout l, int64_t units) {
  ACCELMATH_GRID_STRIDE(u, units) detail::ValuesAt<kType>(y, scale, x, l, u);
}

template <DType kType, RoundMode kMode, typename T>
__global__ void __launch_bounds__(kThreads)
    QuantizeBlockKernel(const T* x, uint8_t* scale, uint8_t* y, Layout l, ScaleAlg alg) {
  ACCELMATH_GRID_STRIDE(w, l.pre * l.nb) detail::QuantizeBlockAt<kType, kMode>(x, scale, y, l, alg, w);
}

template <DType kType, typename T>
__global__ void __launch_bounds__(kThreads) DequantizeQuadKernel(const uint8_t* y, const uint8_t* scale, T* x, Layout l) {
  ACCELMATH_GRID_STRIDE(q, l.pre * l.dim / 4) detail::DequantizeQuadAt<kType>(y, scale, x, l, q);
}

#undef ACCELMATH_GRID_STRIDE

Error Fail(const char* param, const std::string& what) {
  return Error{accelmath::mx::kErrParamInvalid, param, std::string(param) + ": " + what};
}

// Each named buffer must be device memory.
Error CheckDevice(std::initializer_list<std::pair<const char*, const void*>> buffers) {
  for (const auto& [name, p] : buffers) {
    const Status s = cuda::detail::CheckDevicePointer(p);
    if (s == Status::kNotDeviceMemory) return Fail(name, "is not memory the GPU can access (cudaMalloc it)");
    if (s != Status::kOk) return Fail("cuda", "no usable CUDA device");
  }
  return {};
}

Error Launched() {
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? Error{} : Fail("cuda", std::string("kernel launch failed: ") + cudaGetErrorString(e));
}

template <DType kType, RoundMode kMode, typename T>
void LaunchQuantize(const QuantizePlan& p, cudaStream_t stream) {
  const Layout l = Layout::Of(p.pre, p.dim, p.post, p.blocksize);
  const T* x = static_cast<const T*>(p.x);
  if (detail::UseChunks(l, {p.x, p.y})) {
    QuantizeBlockKernel<kType, kMode, T><<<cuda::detail::GridFor(size_t(l.pre * l.nb)), kThreads, 0, stream>>>(
        x, p.scale, static_cast<uint8_t*>(p.y), l, p.alg);
    return;
  }
  ScaleKernel<kType, T><<<cuda::detail::GridFor(size_t(l.scale_bytes())), kThreads, 0, stream>>>(x, p.scale, l, p.alg);
  const int64_t units = p.pre * p.dim * p.post / PerUnit(kType);
  CodeKernel<kType, kMode, T><<<cuda::detail::GridFor(size_t(units)), kThreads, 0, stream>>>(
      x, p.scale, static_cast<uint8_t*>(p.y), l, units);
}

template <DType kType, typename T>
void LaunchQuantizeModes(const QuantizePlan& p, cudaStream_t stream) {
  if constexpr (detail::FormatOf(kType).bits == 8) {
    LaunchQuantize<kType, RoundMode::kRint, T>(p, stream);  // validation allows only rint for FP8
  } else {
    switch (p.round) {
      case RoundMode::kRound: LaunchQuantize<kType, RoundMode::kRound, T>(p, stream); break;
      case RoundMode::kFloor: LaunchQuantize<kType, RoundMode::kFloor, T>(p, stream); break;
      default: LaunchQuantize<kType, RoundMode::kRint, T>(p, stream); break;
    }
  }
}

template <DType kType>
void LaunchQuantizeTypes(const QuantizePlan& p, cudaStream_t stream) {
  switch (p.x_type) {
    case DType::kFloat16: LaunchQuantizeModes<kType, float16>(p, stream); break;
    case DType::kBFloat16: LaunchQuantizeModes<kType, bfloat16>(p, stream); break;
    default: LaunchQuantizeModes<kType, float>(p, stream); break;
  }
}

template <DType kType>
void LaunchDequantize(const DequantizePlan& p, cudaStream_t stream) {
  const Layout l = Layout::Of(p.pre, p.dim, p.post, p.blocksize);
  const int64_t units = p.pre * p.dim * p.post / PerUnit(kType);
  const auto* y = static_cast<const uint8_t*>(p.y);
  const bool chunks = detail::UseChunks(l, {p.y, p.x});
  const unsigned grid = cuda::detail::GridFor(size_t(chunks ? l.pre * l.dim / 4 : units));
  auto launch = [&](auto* x) {
    if (chunks) {
      DequantizeQuadKernel<kType><<<grid, kThreads, 0, stream>>>(y, p.scale, x, l);
    } else {
      ValueKernel<kType><<<grid, kThreads, 0, stream>>>(y, p.scale, x, l, units);
    }
  };
  switch (p.x_type) {
    case DType::kFloat16: launch(static_cast<float16*>(p.x)); break;
    case DType::kBFloat16: launch(static_cast<bfloat16*>(p.x)); break;
    default: launch(static_cast<float*>(p.x)); break;
  }
}

}  // namespace

Error quantize(accelmath::mx::TensorView x, accelmath::mx::MutableTensorView y, accelmath::mx::MutableTensorView mxscale,
               const accelmath::mx::QuantizeOptions& options, cudaStream_t stream) {
  uint64_t workspace = 0;
  QuantizePlan p;
  if (Error e = accelmath::mx::get_workspace_size(x, options, y, mxscale, &workspace, &p); !e.ok()) return e;
  if (Error e = CheckDevice({{"x", x.data}, {"y", y.data}, {"mxscale", mxscale.data}}); !e.ok()) return e;
#define ACCELMATH_CUDA_QUANTIZE(T) LaunchQuantizeTypes<T>(p, stream)
  ACCELMATH_CUDA_MX_SWITCH(p.dst_type, ACCELMATH_CUDA_QUANTIZE)
#undef ACCELMATH_CUDA_QUANTIZE
  return Launched();
}

Error dequantize(accelmath::mx::TensorView y, accelmath::mx::TensorView mxscale, accelmath::mx::MutableTensorView x,
                 const accelmath::mx::DequantizeOptions& options, cudaStream_t stream) {
  uint64_t workspace = 0;
  DequantizePlan p;
  if (Error e = accelmath::mx::get_workspace_size(y, mxscale, options, x, &workspace, &p); !e.ok()) return e;
  if (Error e = CheckDevice({{"y", y.data}, {"mxscale", mxscale.data}, {"x", x.data}}); !e.ok()) return e;
#define ACCELMATH_CUDA_DEQUANTIZE(T) LaunchDequantize<T>(p, stream)
  ACCELMATH_CUDA_MX_SWITCH(p.elem_type, ACCELMATH_CUDA_DEQUANTIZE)
#undef ACCELMATH_CUDA_DEQUANTIZE
  return Launched();
}

}  // namespace accelmath::cuda::mx
