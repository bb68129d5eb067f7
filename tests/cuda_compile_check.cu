// Device-readiness check: the scalar-lane instantiation of every math kernel and of the MX kernels compiles as CUDA
// device code (a CTest runs nvcc on this file when nvcc is installed; nothing runs on a GPU here).
// Bit-identity with the CPU paths needs IEEE operations only: compile with -fmad=false (nvcc would
// otherwise contract a*b + c into fma) and without --use_fast_math.
#include "backend/lane_functions.h"

// Every registry function, one element (a Rows row: one row) per thread, on type-erased operand
// arrays as the array loops see them (lane::EvalAt, whatever the row's shape).
template <accelmath::Eval E, accelmath::Shape S, class K>
__global__ void RowKernel(void* const* out, const void* const* in, size_t count, size_t row_length) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count) accelmath::lane::EvalAt<E, S>(K{}, out, in, i, row_length);
}
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...)                                               \
  template __global__ void RowKernel<accelmath::Eval::k##eval, accelmath::Shape::k##shape,                \
                                     accelmath::lane::name##Kernel>(void* const*, const void* const*, size_t, size_t);
#include "accelmath/ops.def"
#undef ACCELMATH_OP

// The per-element API's typed calls of each new shape, as a CUDA port's scalar functions would make them.
__global__ void TypedKernel(const float* x, const int* n, float* y, int* e, unsigned char* p, int count) {
  using accelmath::Eval;
  using accelmath::Shape;
  namespace lane = accelmath::lane;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  y[i] = lane::EvalElement<Eval::kF32, Shape::kTernary>(lane::fmaKernel{}, x[i], x[i], x[i]).first;
  y[i] += lane::EvalElement<Eval::kF64, Shape::kQuaternary>(lane::norm4dKernel{}, x[i], x[i], x[i], x[i]).first;
  e[i] = lane::EvalElement<Eval::kF64, Shape::kToInt32>(lane::ilogbKernel{}, x[i]).first;
  p[i] = lane::EvalElement<Eval::kF32, Shape::kPredicate>(lane::isnanKernel{}, x[i]).first;
  const auto me = lane::EvalElement<Eval::kF64, Shape::kSplitExponent>(lane::frexpKernel{}, x[i]);
  y[i] += me.first + float(me.second);
  y[i] += lane::EvalElement<Eval::kF64, Shape::kScaleExponent>(lane::ldexpKernel{}, x[i], n[i]).first;
  y[i] += lane::EvalRows<Eval::kF64>(lane::normKernel{}, size_t(count), x);
}

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
