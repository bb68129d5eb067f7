// Device-readiness check: the scalar-lane instantiation of every math kernel and of the MX kernels compiles as CUDA
// device code (a CTest runs nvcc on this file when nvcc is installed; nothing runs on a GPU here).
// Bit-identity with the CPU paths needs IEEE operations only: compile with -fmad=false (nvcc would
// otherwise contract a*b + c into fma) and without --use_fast_math.
#include "backend/lane_functions.h"

// Every registry function, one element per thread, as the CUDA port's per-element API will call them.
#define ACCELMATH_CUDA_Unary(name, eval)                                            \
  __global__ void name##Kernel(const float* x, float* y, float*, int n) {           \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                            \
    if (i < n) y[i] = accelmath::lane::EvalOne<accelmath::Eval::k##eval>(accelmath::lane::name##Kernel{}, x[i]); \
  }
#define ACCELMATH_CUDA_UnaryPair(name, eval)                                                                     \
  __global__ void name##Kernel(const float* x, float* y1, float* y2, int n) {                                    \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                                                         \
    if (i < n) accelmath::lane::EvalPair<accelmath::Eval::k##eval>(accelmath::lane::name##Kernel{}, x[i], y1 + i, y2 + i); \
  }
#define ACCELMATH_CUDA_Binary(name, eval)                                                                          \
  __global__ void name##Kernel(const float* x1, const float* x2, float* y, int n) {                                \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                                                           \
    if (i < n) y[i] = accelmath::lane::EvalBinary<accelmath::Eval::k##eval>(accelmath::lane::name##Kernel{}, x1[i], x2[i]); \
  }
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_CUDA_##shape(name, eval)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

// MX: the E4M3 codec and an OCP scale, per element, as a CUDA kernel would call them.
#include "kernels/mx-inl.h"

__global__ void MxKernel(const float* x, unsigned char* codes, float* back, int n) {
  using namespace accelmath::lane;
  using accelmath::mx::kE4M3;
  using accelmath::mx::RoundMode;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const D<float> df;
  const D<int32_t> di;
  const Vec<int32_t> bits = BitCast(di, Vec<float>{x[i]});
  codes[i] = static_cast<unsigned char>(EncodeFloat<kE4M3, RoundMode::kRint>(df, di, bits).raw);
  const Vec<int32_t> e = ScaleCode<kE4M3>(df, di, And(bits, Set(di, 0x7FFFFFFF)), accelmath::mx::ScaleAlg::kOcp);
  back[i] = BitCast(df, DecodeBits<kE4M3>(df, di, Vec<int32_t>{codes[i]})).raw * E8M0Value(df, di, e).raw;
}

// Atomic accumulate: the arithmetic of one update (src/atomic/combine.h) inside a CUDA
// compare-and-swap loop on the containing 32-bit word, as a device port of update.h would do it.
#include "atomic/combine.h"

__global__ void AtomicAddHalfSaturating(accelmath::float16* dst, const accelmath::float16* src, int n) {
  using namespace accelmath::atomic::detail;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto addr = reinterpret_cast<unsigned long long>(dst + i);
  auto* word = reinterpret_cast<unsigned int*>(addr & ~3ull);
  const unsigned shift = 8 * unsigned(addr & 3);
  unsigned int w = *word, seen;
  do {
    seen = w;
    const accelmath::float16 old{static_cast<unsigned short>(seen >> shift)};
    const accelmath::float16 next = Combine<Op::kAdd, true>(old, src[i]);
    w = atomicCAS(word, seen, (seen & ~(0xFFFFu << shift)) | (unsigned(next.bits) << shift));
  } while (w != seen);
}
