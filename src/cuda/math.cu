// The math library on an NVIDIA GPU (accelmath/cuda.h): every registry row as one kernel, one element
// per thread, on the scalar lane of the CPU library (backend/lane_functions.h: EvalAt, the code
// behind accelmath::scalar). Built with -fmad=false (no contraction of a*b + c), IEEE division and
// square root and no flush to zero (CMakeLists.txt), so every operation is the correctly rounded one
// the CPU does: the same bits, NaN payloads aside. Validation mirrors the CPU's array API (the
// registry's ArrayThunk in src/registry.cc and detail::CheckOperands), plus a device-memory check.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "accelmath/cuda.h"
#include "backend/lane_functions.h"
#include "cuda/launch.h"
#include "dispatch/contract.h"

namespace accelmath::cuda {
namespace {

using detail::kThreads;

// The operand arrays of one call, by value (kernel parameters cannot point at host arrays).
struct Operands {
  void* out[2];
  const void* in[4];
};

template <Eval E, Shape S, class K>
__global__ void __launch_bounds__(kThreads) RowKernel(Operands ops, std::size_t count, std::size_t row_length) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += stride) {
    lane::EvalAt<E, S>(K{}, ops.out, ops.in, i, row_length);
  }
}

// One row's array call: the checks of the CPU array API (null pointers, a Rows count whose elements
// overflow size_t, overlaps), the device-memory check, then one launch (a grid-stride loop, so any
// count fits the grid).
template <Eval E, Shape S, class K>
Status RunRow(void* const* out, const void* const* in, std::size_t count, std::size_t row_length,
              cudaStream_t stream) noexcept {
  constexpr auto ops = ::accelmath::detail::kOperands<S>;
  constexpr bool kRows = S == Shape::kRows;
  if (count == 0) return Status::kOk;
  for (int k = 0; k < ops.outputs; ++k) {
    if (out[k] == nullptr) return Status::kNullPointer;
  }
  const bool reads = !kRows || row_length != 0;
  for (int k = 0; k < ops.inputs; ++k) {
    if (reads && in[k] == nullptr) return Status::kNullPointer;
  }
  if (kRows && row_length != 0 && count > SIZE_MAX / row_length) return Status::kBufferTooSmall;
  // [[maybe_unused]]: nvcc's front end reports it unused although the loop below reads it.
  [[maybe_unused]] const std::size_t in_count = kRows ? count * row_length : count;
  ::accelmath::detail::Operand o[2] = {}, i[4] = {};
  for (int k = 0; k < ops.outputs; ++k) o[k] = {reinterpret_cast<std::uintptr_t>(out[k]), count, count, ops.out[k]};
  for (int k = 0; k < ops.inputs; ++k) {
    i[k] = {reinterpret_cast<std::uintptr_t>(in[k]), in_count, in_count, ops.in[k]};
  }
  if (const Status s = ::accelmath::detail::CheckOperands(o, ops.outputs, i, ops.inputs); s != Status::kOk) return s;
  const void* used[6];
  int n_used = 0;
  for (int k = 0; k < ops.outputs; ++k) used[n_used++] = out[k];
  for (int k = 0; k < ops.inputs && reads; ++k) used[n_used++] = in[k];
  for (int k = 0; k < n_used; ++k) {
    if (const Status s = detail::CheckDevicePointer(used[k]); s != Status::kOk) return s;
  }
  Operands args{};
  for (int k = 0; k < ops.outputs; ++k) args.out[k] = out[k];
  for (int k = 0; k < ops.inputs; ++k) args.in[k] = in[k];
  RowKernel<E, S, K><<<detail::GridFor(count), kThreads, 0, stream>>>(args, count, row_length);
  return cudaGetLastError() == cudaSuccess ? Status::kOk : Status::kDeviceError;
}

using Runner = Status (*)(void* const*, const void* const*, std::size_t, std::size_t, cudaStream_t) noexcept;

struct Row {
  const char* name;
  Runner run;
};

constexpr Row kRows[] = {
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) \
  {#name, &RunRow<Eval::k##eval, Shape::k##shape, lane::name##Kernel>},
#include "accelmath/ops.def"
#undef ACCELMATH_OP
};

}  // namespace

// The typed functions: each packs its pointers into the operand arrays of its shape and runs its row.
#define ACCELMATH_CUDA_RUN(name, eval, shape, rl, ...)                                                   \
  RunRow<Eval::k##eval, Shape::k##shape, lane::name##Kernel>(out, in, __VA_ARGS__, rl, stream)
#define ACCELMATH_CUDA_DEFINE_Unary(name, eval)                                                          \
  Status name(float* dst, const float* src, std::size_t n, cudaStream_t stream) noexcept {              \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src};                                                                            \
    return ACCELMATH_CUDA_RUN(name, eval, Unary, 0, n);                                                  \
  }
#define ACCELMATH_CUDA_DEFINE_UnaryPair(name, eval)                                                      \
  Status name(float* dst1, float* dst2, const float* src, std::size_t n, cudaStream_t stream) noexcept { \
    void* out[] = {dst1, dst2};                                                                          \
    const void* in[] = {src};                                                                            \
    return ACCELMATH_CUDA_RUN(name, eval, UnaryPair, 0, n);                                              \
  }
#define ACCELMATH_CUDA_DEFINE_Binary(name, eval)                                                         \
  Status name(float* dst, const float* src1, const float* src2, std::size_t n, cudaStream_t stream) noexcept { \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src1, src2};                                                                     \
    return ACCELMATH_CUDA_RUN(name, eval, Binary, 0, n);                                                 \
  }
#define ACCELMATH_CUDA_DEFINE_Ternary(name, eval)                                                        \
  Status name(float* dst, const float* src1, const float* src2, const float* src3, std::size_t n,       \
              cudaStream_t stream) noexcept {                                                            \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src1, src2, src3};                                                               \
    return ACCELMATH_CUDA_RUN(name, eval, Ternary, 0, n);                                                \
  }
#define ACCELMATH_CUDA_DEFINE_Quaternary(name, eval)                                                     \
  Status name(float* dst, const float* src1, const float* src2, const float* src3, const float* src4,   \
              std::size_t n, cudaStream_t stream) noexcept {                                             \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src1, src2, src3, src4};                                                         \
    return ACCELMATH_CUDA_RUN(name, eval, Quaternary, 0, n);                                             \
  }
#define ACCELMATH_CUDA_DEFINE_ToInt32(name, eval)                                                        \
  Status name(std::int32_t* dst, const float* src, std::size_t n, cudaStream_t stream) noexcept {       \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src};                                                                            \
    return ACCELMATH_CUDA_RUN(name, eval, ToInt32, 0, n);                                                \
  }
#define ACCELMATH_CUDA_DEFINE_Predicate(name, eval)                                                      \
  Status name(std::uint8_t* dst, const float* src, std::size_t n, cudaStream_t stream) noexcept {       \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src};                                                                            \
    return ACCELMATH_CUDA_RUN(name, eval, Predicate, 0, n);                                              \
  }
#define ACCELMATH_CUDA_DEFINE_SplitExponent(name, eval)                                                  \
  Status name(float* dst, std::int32_t* exp, const float* src, std::size_t n, cudaStream_t stream) noexcept { \
    void* out[] = {dst, exp};                                                                            \
    const void* in[] = {src};                                                                            \
    return ACCELMATH_CUDA_RUN(name, eval, SplitExponent, 0, n);                                          \
  }
#define ACCELMATH_CUDA_DEFINE_ScaleExponent(name, eval)                                                  \
  Status name(float* dst, const float* src, const std::int32_t* e, std::size_t n, cudaStream_t stream) noexcept { \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src, e};                                                                         \
    return ACCELMATH_CUDA_RUN(name, eval, ScaleExponent, 0, n);                                          \
  }
#define ACCELMATH_CUDA_DEFINE_Rows(name, eval)                                                           \
  Status name(float* dst, const float* src, std::size_t row_length, std::size_t count,                  \
              cudaStream_t stream) noexcept {                                                            \
    void* out[] = {dst};                                                                                 \
    const void* in[] = {src};                                                                            \
    return ACCELMATH_CUDA_RUN(name, eval, Rows, row_length, count);                                      \
  }
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_CUDA_DEFINE_##shape(name, eval)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

Status run(const FunctionInfo& f, void* const* out, const void* const* in, std::size_t count, std::size_t row_length,
           cudaStream_t stream) noexcept {
  for (const Row& r : kRows) {
    if (f.name != nullptr && std::strcmp(r.name, f.name) == 0) return r.run(out, in, count, row_length, stream);
  }
  return Status::kInvalidArgument;
}

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

}  // namespace accelmath::cuda
