// MX public API: validation (every rule before any work, the operator's error codes, the first
// bad parameter named), plans, threads over blocks, the per-value codecs (the scalar-lane
// instantiation of src/kernels/mx-inl.h, also usable in CUDA code) and the ggml MXFP4 export.
#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "accelmath/mx.h"
#include "backend/scalar_lane.h"
#include "mx/job.h"

#define ACCELMATH_KNS lane
#include "kernels/mx-inl.h"
#undef ACCELMATH_KNS

namespace accelmath::mx {
namespace {

bool IsElem(DType t) {
  switch (t) {
    case DType::kFloat8E4M3FN: case DType::kFloat8E5M2: case DType::kFloat6E3M2:
    case DType::kFloat6E2M3: case DType::kFloat4E2M1: case DType::kFloat4E1M2: return true;
    default: return false;
  }
}
bool IsFloat(DType t) { return t == DType::kFloat32 || t == DType::kFloat16 || t == DType::kBFloat16; }
// A RoundMode / ScaleAlg holding one of its enumerators (a cast from a wider integer may not).
bool IsMode(RoundMode m) { return m == RoundMode::kRint || m == RoundMode::kRound || m == RoundMode::kFloor; }
bool IsAlg(ScaleAlg a) { return static_cast<int64_t>(a) >= 0 && static_cast<int64_t>(a) <= 3; }
std::string ModeText(RoundMode m) { return std::to_string(static_cast<int32_t>(m)); }
int ElemBits(DType t) {
  switch (t) {
    case DType::kFloat4E2M1: case DType::kFloat4E1M2: return 4;
    case DType::kFloat6E3M2: case DType::kFloat6E2M3: return 6;
    default: return 8;
  }
}
uint64_t FloatBytes(DType t) { return t == DType::kFloat32 ? 4 : 2; }

Error Fail(int32_t code, const char* param, const std::string& what) {
  return Error{code, param, std::string(param) + ": " + what};
}

std::string ShapeText(std::span<const int64_t> s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

bool ValidBlocksize(int64_t blocksize) { return blocksize >= 32 && blocksize <= 1024 && blocksize % 32 == 0; }

// Shared checks of the element tensor's shape, axis and blocksize (quantize's x, dequantize's y).
Error CheckLayout(const char* name, std::span<const int64_t> shape, DType elem, int64_t axis, int64_t blocksize) {
  if (shape.empty() || shape.size() > 7) {
    return Fail(kErrParamInvalid, name, "rank " + std::to_string(shape.size()) + " is not in [1, 7]");
  }
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d <= 0) return Fail(kErrParamInvalid, name, "shape " + ShapeText(shape) + " is empty or negative");
    if (__builtin_mul_overflow(count, d, &count) || count > (int64_t{1} << 60)) {
      return Fail(kErrParamInvalid, name, "shape " + ShapeText(shape) + " has more than 2^60 elements");
    }
  }
  if (!ValidBlocksize(blocksize)) {
    return Fail(kErrParamInvalid, "blocksize", std::to_string(blocksize) + " is not a multiple of 32 in [32, 1024]");
  }
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < -rank || axis >= rank) {
    return Fail(kErrParamInvalid, "axis", std::to_string(axis) + " is not in [" + std::to_string(-rank) + ", " +
                                              std::to_string(rank - 1) + "]");
  }
  const int bits = ElemBits(elem);
  if (bits == 4 && shape.back() % 2 != 0) {
    return Fail(kErrParamInvalid, name, "FP4 packs 2 elements per byte: the last dim " + std::to_string(shape.back()) + " must be even");
  }
  if (bits == 6 && shape.back() % 4 != 0) {
    return Fail(kErrParamInvalid, name, "FP6 packs 4 elements in 3 bytes: the last dim " + std::to_string(shape.back()) + " must be a multiple of 4");
  }
  return {};
}

Error CheckScaleShape(const char* name, DType dtype, std::span<const int64_t> got, std::span<const int64_t> shape,
                      int64_t axis, int64_t blocksize) {
  if (dtype != DType::kFloat8E8M0) {
    return Fail(kErrParamInvalid, name, std::string("dtype ") + dtype_name(dtype) + " is not e8m0 (FLOAT8_E8M0)");
  }
  int64_t storage[8];
  const auto want = scale_shape(shape, axis, blocksize, storage);
  if (!std::equal(got.begin(), got.end(), want.begin(), want.end())) {
    return Fail(kErrParamInvalid, name, "shape " + ShapeText(got) + " is not " + ShapeText(want));
  }
  return {};
}

bool Overlap(const void* a, uint64_t na, const void* b, uint64_t nb) {
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + nb && pb < pa + na;
}

// Splits x's shape at axis into [pre, dim, post].
void Split(std::span<const int64_t> shape, int64_t axis, int64_t* pre, int64_t* dim, int64_t* post) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  *pre = 1, *post = 1;
  for (int64_t i = 0; i < a; ++i) *pre *= shape[i];
  for (int64_t i = a + 1; i < rank; ++i) *post *= shape[i];
  *dim = shape[a];
}

int64_t Count(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Threads for n elements in `units` independent blocks: `requested`, or with 0 all cores from
// 2^20 elements up (below that, starting threads costs more than it saves).
int PickThreads(int requested, int64_t n, int64_t units) {
  int t = requested;
  if (t == 0) t = n >= (int64_t{1} << 20) ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) : 1;
  return static_cast<int>(std::min<int64_t>(t, units));
}

// Splits the blocks into p.threads ranges. When the system refuses a thread (std::system_error)
// or memory for the pool, the ranges not handed out run on the calling thread: same result.
template <class Plan, class Fn>
void RunThreads(const Plan& p, int64_t units, Fn fn) {
  if (p.threads <= 1) return fn(p, 0, units);
  const int64_t t = p.threads;
  auto bound = [&](int64_t k) { return static_cast<int64_t>(static_cast<__int128>(units) * k / t); };  // no overflow
  std::vector<std::thread> pool;
  int64_t k = 1;
  try {
    pool.reserve(static_cast<size_t>(t - 1));
    for (; k < t; ++k) pool.emplace_back(fn, std::cref(p), bound(k), bound(k + 1));
  } catch (...) {
    // fewer threads than planned; k is the first range not started
  }
  fn(p, 0, bound(1));
  if (k < t) fn(p, bound(k), units);
  for (auto& th : pool) th.join();
}

// A plan edited by hand (its fields are public) must not reach the kernels with values that
// validation never produces: out-of-range enumerators, null pointers, non-positive or
// overflowing extents. (Pointers to too-small buffers cannot be detected.)
bool PlanDims(int64_t pre, int64_t dim, int64_t post, int64_t blocksize, int threads) {
  int64_t n;
  return pre > 0 && dim > 0 && post > 0 && ValidBlocksize(blocksize) && threads >= 1 &&
         !__builtin_mul_overflow(pre, dim, &n) && !__builtin_mul_overflow(n, post, &n) && n <= (int64_t{1} << 60);
}
bool PlanLooksValid(const QuantizePlan& p) {
  return p.x && p.y && p.scale && IsFloat(p.x_type) && IsElem(p.dst_type) && IsMode(p.round) && IsAlg(p.alg) &&
         (ElemBits(p.dst_type) != 8 || p.round == RoundMode::kRint) &&
         (p.alg != ScaleAlg::kRceil || ElemBits(p.dst_type) == 8) && PlanDims(p.pre, p.dim, p.post, p.blocksize, p.threads);
}
bool PlanLooksValid(const DequantizePlan& p) {
  return p.y && p.scale && p.x && IsElem(p.elem_type) && IsFloat(p.x_type) &&
         PlanDims(p.pre, p.dim, p.post, p.blocksize, p.threads);
}

template <ElemFormat F>
uint8_t EncodeOne(float x, RoundMode mode) {
  const lane::D<int32_t> di;
  int32_t bits;
  std::memcpy(&bits, &x, 4);
  const lane::Vec<int32_t> v{bits};
  switch (mode) {
    case RoundMode::kRound: return static_cast<uint8_t>(lane::EncodeFloat<F, RoundMode::kRound>(lane::D<float>(), di, v).raw);
    case RoundMode::kFloor: return static_cast<uint8_t>(lane::EncodeFloat<F, RoundMode::kFloor>(lane::D<float>(), di, v).raw);
    default: return static_cast<uint8_t>(lane::EncodeFloat<F, RoundMode::kRint>(lane::D<float>(), di, v).raw);
  }
}

template <ElemFormat F>
float DecodeOne(uint8_t code) {
  const int32_t bits = lane::DecodeBits<F>(lane::D<float>(), lane::D<int32_t>(), lane::Vec<int32_t>{code}).raw;
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

}  // namespace

// ---- names and shapes -------------------------------------------------------------------------
const char* dtype_name(DType t) noexcept {
  switch (t) {
    case DType::kFloat32: return "float32";
    case DType::kFloat16: return "float16";
    case DType::kBFloat16: return "bfloat16";
    case DType::kUInt8: return "uint8";
    case DType::kFloat8E5M2: return "e5m2";
    case DType::kFloat8E4M3FN: return "e4m3";
    case DType::kFloat8E8M0: return "e8m0";
    case DType::kFloat6E3M2: return "e3m2";
    case DType::kFloat6E2M3: return "e2m3";
    case DType::kFloat4E2M1: return "e2m1";
    case DType::kFloat4E1M2: return "e1m2";
  }
  return "unknown";
}

bool parse_dtype(const char* name, DType* type) noexcept {
  if (!name) return false;
  for (DType t : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kUInt8, DType::kFloat8E5M2,
                  DType::kFloat8E4M3FN, DType::kFloat8E8M0, DType::kFloat6E3M2, DType::kFloat6E2M3,
                  DType::kFloat4E2M1, DType::kFloat4E1M2}) {
    if (std::strcmp(name, dtype_name(t)) == 0) return *type = t, true;
  }
  return false;
}

bool parse_round_mode(const char* name, RoundMode* mode) noexcept {
  if (name == nullptr || std::strcmp(name, "rint") == 0) return *mode = RoundMode::kRint, true;
  if (std::strcmp(name, "round") == 0) return *mode = RoundMode::kRound, true;
  if (std::strcmp(name, "floor") == 0) return *mode = RoundMode::kFloor, true;
  return false;
}

std::span<const int64_t> scale_shape(std::span<const int64_t> x_shape, int64_t axis, int64_t blocksize,
                                     int64_t (&storage)[8]) noexcept {
  const int64_t rank = static_cast<int64_t>(x_shape.size());
  if (rank < 1 || rank > 7 || axis < -rank || axis >= rank || !ValidBlocksize(blocksize)) return {};
  for (int64_t d : x_shape) {
    if (d < 0) return {};
  }
  const int64_t a = axis < 0 ? axis + rank : axis;
  for (int64_t i = 0; i < rank; ++i) storage[i] = x_shape[i];
  // ceil(ceil(d / blocksize) / 2) without forming d + blocksize - 1 (d may be INT64_MAX).
  const int64_t d = x_shape[a];
  const int64_t nb = d / blocksize + (d % blocksize != 0 ? 1 : 0);
  storage[a] = nb / 2 + nb % 2;
  storage[rank] = 2;
  return {storage, static_cast<size_t>(rank + 1)};
}

uint64_t storage_bytes(DType t, uint64_t count) noexcept {
  // count / 8 * bits + the rest: never more than count bytes, so no overflow.
  if (IsElem(t)) return count / 8 * static_cast<uint64_t>(ElemBits(t)) + count % 8 * static_cast<uint64_t>(ElemBits(t)) / 8;
  if (IsFloat(t)) {
    uint64_t bytes;
    return __builtin_mul_overflow(count, FloatBytes(t), &bytes) ? 0 : bytes;
  }
  if (t == DType::kUInt8 || t == DType::kFloat8E8M0) return count;
  return 0;
}

// ---- quantize ---------------------------------------------------------------------------------
Error get_workspace_size(TensorView x, const QuantizeOptions& o, MutableTensorView y, MutableTensorView mxscale,
                         uint64_t* workspace_size, QuantizePlan* plan) {
  if (plan) plan->valid = false;
  if (x.data == nullptr) return Fail(kErrNullptr, "x", "data is null");
  if (y.data == nullptr) return Fail(kErrNullptr, "y", "data is null");
  if (mxscale.data == nullptr) return Fail(kErrNullptr, "mxscale", "data is null");
  if (workspace_size == nullptr) return Fail(kErrNullptr, "workspace_size", "is null");
  if (plan == nullptr) return Fail(kErrNullptr, "plan", "is null");
  if (!IsFloat(x.dtype)) {
    return Fail(kErrParamInvalid, "x", std::string("dtype ") + dtype_name(x.dtype) + " is not float32, float16 or bfloat16");
  }
  if (!IsElem(o.dst_type)) {
    return Fail(kErrParamInvalid, "dst_type", std::string(dtype_name(o.dst_type)) + " (" +
                                                  std::to_string(static_cast<int>(o.dst_type)) + ") is not an MX element type");
  }
  RoundMode mode;
  if (!parse_round_mode(o.round_mode, &mode)) {
    return Fail(kErrParamInvalid, "round_mode", std::string("\"") + o.round_mode + "\" is not \"rint\", \"round\" or \"floor\"");
  }
  if (ElemBits(o.dst_type) == 8 && mode != RoundMode::kRint) {
    return Fail(kErrParamInvalid, "round_mode", std::string("FP8 (") + dtype_name(o.dst_type) + ") accepts only \"rint\", not \"" + o.round_mode + "\"");
  }
  if (o.scale_alg < 0 || o.scale_alg > 3) {
    return Fail(kErrParamInvalid, "scale_alg", std::to_string(o.scale_alg) + " is not 0 (ocp), 1 (rceil), 2 (ceil) or 3 (even)");
  }
  if (o.scale_alg == 1 && ElemBits(o.dst_type) != 8) {
    return Fail(kErrParamInvalid, "scale_alg", std::string("1 (rceil) is for FP8 only, not ") + dtype_name(o.dst_type));
  }
  if (o.threads < 0) return Fail(kErrParamInvalid, "threads", std::to_string(o.threads) + " is negative");
  if (Error e = CheckLayout("x", x.shape, o.dst_type, o.axis, o.blocksize); !e.ok()) return e;
  if (y.dtype != o.dst_type) {
    return Fail(kErrParamInvalid, "y", std::string("dtype ") + dtype_name(y.dtype) + " is not dst_type " + dtype_name(o.dst_type));
  }
  if (!std::equal(y.shape.begin(), y.shape.end(), x.shape.begin(), x.shape.end())) {
    return Fail(kErrParamInvalid, "y", "shape " + ShapeText(y.shape) + " is not x's " + ShapeText(x.shape));
  }
  if (Error e = CheckScaleShape("mxscale", mxscale.dtype, mxscale.shape, x.shape, o.axis, o.blocksize); !e.ok()) return e;
  const int64_t n = Count(x.shape);
  const uint64_t x_bytes = storage_bytes(x.dtype, n), y_bytes = storage_bytes(y.dtype, n);
  const uint64_t s_bytes = static_cast<uint64_t>(Count(mxscale.shape));
  if (Overlap(x.data, x_bytes, y.data, y_bytes)) return Fail(kErrParamInvalid, "y", "overlaps x");
  if (Overlap(x.data, x_bytes, mxscale.data, s_bytes)) return Fail(kErrParamInvalid, "mxscale", "overlaps x");
  if (Overlap(y.data, y_bytes, mxscale.data, s_bytes)) return Fail(kErrParamInvalid, "mxscale", "overlaps y");

  QuantizePlan p;
  p.x = x.data, p.y = y.data, p.scale = static_cast<uint8_t*>(mxscale.data);
  p.x_type = x.dtype, p.dst_type = o.dst_type, p.round = mode, p.alg = static_cast<ScaleAlg>(o.scale_alg);
  Split(x.shape, o.axis, &p.pre, &p.dim, &p.post);
  p.blocksize = o.blocksize;
  p.threads = PickThreads(o.threads, n, p.pre * ((p.dim + p.blocksize - 1) / p.blocksize));
  p.valid = true;
  *plan = p;
  *workspace_size = 0;
  return {};
}

Error run(void* /*workspace*/, uint64_t /*workspace_size*/, const QuantizePlan& plan) {
  if (!plan.valid) return Fail(kErrParamInvalid, "plan", "was not filled by a successful get_workspace_size");
  if (!PlanLooksValid(plan)) return Fail(kErrParamInvalid, "plan", "has fields that get_workspace_size cannot have set");
  RunThreads(plan, plan.pre * ((plan.dim + plan.blocksize - 1) / plan.blocksize), detail::QuantizeBlocks);
  return {};
}

Error quantize(TensorView x, MutableTensorView y, MutableTensorView mxscale, const QuantizeOptions& options) {
  uint64_t ws = 0;
  QuantizePlan plan;
  if (Error e = get_workspace_size(x, options, y, mxscale, &ws, &plan); !e.ok()) return e;
  return run(nullptr, ws, plan);
}

// ---- dequantize -------------------------------------------------------------------------------
Error get_workspace_size(TensorView y, TensorView mxscale, const DequantizeOptions& o, MutableTensorView x,
                         uint64_t* workspace_size, DequantizePlan* plan) {
  if (plan) plan->valid = false;
  if (y.data == nullptr) return Fail(kErrNullptr, "y", "data is null");
  if (mxscale.data == nullptr) return Fail(kErrNullptr, "mxscale", "data is null");
  if (x.data == nullptr) return Fail(kErrNullptr, "x", "data is null");
  if (workspace_size == nullptr) return Fail(kErrNullptr, "workspace_size", "is null");
  if (plan == nullptr) return Fail(kErrNullptr, "plan", "is null");
  if (!IsElem(y.dtype)) return Fail(kErrParamInvalid, "y", std::string("dtype ") + dtype_name(y.dtype) + " is not an MX element type");
  if (!IsFloat(x.dtype)) {
    return Fail(kErrParamInvalid, "x", std::string("dtype ") + dtype_name(x.dtype) + " is not float32, float16 or bfloat16");
  }
  if (o.threads < 0) return Fail(kErrParamInvalid, "threads", std::to_string(o.threads) + " is negative");
  if (Error e = CheckLayout("y", y.shape, y.dtype, o.axis, o.blocksize); !e.ok()) return e;
  if (!std::equal(x.shape.begin(), x.shape.end(), y.shape.begin(), y.shape.end())) {
    return Fail(kErrParamInvalid, "x", "shape " + ShapeText(x.shape) + " is not y's " + ShapeText(y.shape));
  }
  if (Error e = CheckScaleShape("mxscale", mxscale.dtype, mxscale.shape, y.shape, o.axis, o.blocksize); !e.ok()) return e;
  const int64_t n = Count(y.shape);
  const uint64_t x_bytes = storage_bytes(x.dtype, n);
  if (Overlap(x.data, x_bytes, y.data, storage_bytes(y.dtype, n))) return Fail(kErrParamInvalid, "x", "overlaps y");
  if (Overlap(x.data, x_bytes, mxscale.data, Count(mxscale.shape))) return Fail(kErrParamInvalid, "x", "overlaps mxscale");

  DequantizePlan p;
  p.y = y.data, p.scale = static_cast<const uint8_t*>(mxscale.data), p.x = x.data;
  p.elem_type = y.dtype, p.x_type = x.dtype;
  Split(y.shape, o.axis, &p.pre, &p.dim, &p.post);
  p.blocksize = o.blocksize;
  p.threads = PickThreads(o.threads, n, p.pre * ((p.dim + p.blocksize - 1) / p.blocksize));
  p.valid = true;
  *plan = p;
  *workspace_size = 0;
  return {};
}

Error run(void* /*workspace*/, uint64_t /*workspace_size*/, const DequantizePlan& plan) {
  if (!plan.valid) return Fail(kErrParamInvalid, "plan", "was not filled by a successful get_workspace_size");
  if (!PlanLooksValid(plan)) return Fail(kErrParamInvalid, "plan", "has fields that get_workspace_size cannot have set");
  RunThreads(plan, plan.pre * ((plan.dim + plan.blocksize - 1) / plan.blocksize), detail::DequantizeBlocks);
  return {};
}

Error dequantize(TensorView y, TensorView mxscale, MutableTensorView x, const DequantizeOptions& options) {
  uint64_t ws = 0;
  DequantizePlan plan;
  if (Error e = get_workspace_size(y, mxscale, options, x, &ws, &plan); !e.ok()) return e;
  return run(nullptr, ws, plan);
}

// ---- codecs -------------------------------------------------------------------------------------
uint8_t encode(float x, DType type, RoundMode mode) noexcept {
  if (!IsMode(mode)) return 0;
  switch (type) {
    case DType::kFloat8E4M3FN: return EncodeOne<kE4M3>(x, mode);
    case DType::kFloat8E5M2: return EncodeOne<kE5M2>(x, mode);
    case DType::kFloat6E3M2: return EncodeOne<kE3M2>(x, mode);
    case DType::kFloat6E2M3: return EncodeOne<kE2M3>(x, mode);
    case DType::kFloat4E2M1: return EncodeOne<kE2M1>(x, mode);
    case DType::kFloat4E1M2: return EncodeOne<kE1M2>(x, mode);
    default: return 0;
  }
}

float decode(uint8_t code, DType type) noexcept {
  switch (type) {
    case DType::kFloat8E4M3FN: return DecodeOne<kE4M3>(code);
    case DType::kFloat8E5M2: return DecodeOne<kE5M2>(code);
    case DType::kFloat6E3M2: return DecodeOne<kE3M2>(code & 0x3F);
    case DType::kFloat6E2M3: return DecodeOne<kE2M3>(code & 0x3F);
    case DType::kFloat4E2M1: return DecodeOne<kE2M1>(code & 0xF);
    case DType::kFloat4E1M2: return DecodeOne<kE1M2>(code & 0xF);
    case DType::kFloat8E8M0: {
      const int32_t bits = lane::BitCast(lane::D<int32_t>(), lane::E8M0Value(lane::D<float>(), lane::D<int32_t>(), lane::Vec<int32_t>{code})).raw;
      float out;
      std::memcpy(&out, &bits, 4);
      return out;
    }
    default: return 0.0f;
  }
}

Error encode(std::span<const float> x, std::span<uint8_t> codes, DType type, RoundMode mode) {
  if (!IsElem(type)) return Fail(kErrParamInvalid, "type", std::string(dtype_name(type)) + " is not an MX element type");
  if (!IsMode(mode)) return Fail(kErrParamInvalid, "mode", ModeText(mode) + " is not a RoundMode (0 rint, 1 round, 2 floor)");
  if (codes.size() != x.size()) return Fail(kErrParamInvalid, "codes", "size " + std::to_string(codes.size()) + " is not x's " + std::to_string(x.size()));
  if (Overlap(x.data(), x.size_bytes(), codes.data(), codes.size())) return Fail(kErrParamInvalid, "codes", "overlaps x");
  if (!x.empty()) detail::EncodeArray(x.data(), x.size(), codes.data(), type, mode);
  return {};
}

Error decode(std::span<const uint8_t> codes, std::span<float> x, DType type) {
  if (!IsElem(type) && type != DType::kFloat8E8M0) return Fail(kErrParamInvalid, "type", std::string(dtype_name(type)) + " is not an MX element or scale type");
  if (codes.size() != x.size()) return Fail(kErrParamInvalid, "x", "size " + std::to_string(x.size()) + " is not codes' " + std::to_string(codes.size()));
  if (Overlap(x.data(), x.size_bytes(), codes.data(), codes.size())) return Fail(kErrParamInvalid, "x", "overlaps codes");
  if (!x.empty()) detail::DecodeArray(codes.data(), codes.size(), x.data(), type);
  return {};
}

// ---- ggml MXFP4 ----------------------------------------------------------------------------------
Error to_ggml_mxfp4(std::span<const float> x, std::span<uint8_t> blocks, RoundMode mode) {
  const size_t nblk = x.size() / kGgmlMxfp4BlockElems;
  if (!IsMode(mode)) return Fail(kErrParamInvalid, "mode", ModeText(mode) + " is not a RoundMode (0 rint, 1 round, 2 floor)");
  if (x.empty() || x.size() % kGgmlMxfp4BlockElems != 0) {
    return Fail(kErrParamInvalid, "x", "size " + std::to_string(x.size()) + " is not a positive multiple of 32");
  }
  if (blocks.size() != nblk * kGgmlMxfp4BlockBytes) {
    return Fail(kErrParamInvalid, "blocks", "size " + std::to_string(blocks.size()) + " is not " + std::to_string(nblk * kGgmlMxfp4BlockBytes));
  }
  if (Overlap(x.data(), x.size_bytes(), blocks.data(), blocks.size())) return Fail(kErrParamInvalid, "blocks", "overlaps x");
  const int64_t shape[2] = {static_cast<int64_t>(nblk), 32};
  const int64_t sshape[3] = {static_cast<int64_t>(nblk), 1, 2};
  std::vector<uint8_t> y(nblk * 16), s(nblk * 2);
  QuantizeOptions o;
  o.dst_type = DType::kFloat4E2M1;
  o.round_mode = mode == RoundMode::kRint ? "rint" : mode == RoundMode::kRound ? "round" : "floor";
  if (Error e = quantize({x.data(), DType::kFloat32, shape}, {y.data(), DType::kFloat4E2M1, shape},
                         {s.data(), DType::kFloat8E8M0, sshape}, o);
      !e.ok()) {
    return e;
  }
  for (size_t b = 0; b < nblk; ++b) {
    uint8_t* out = blocks.data() + b * kGgmlMxfp4BlockBytes;
    const uint8_t* in = y.data() + b * 16;  // element 2i low, 2i+1 high nibble of in[i]
    auto code = [&](size_t j) { return static_cast<uint8_t>((in[j / 2] >> (4 * (j % 2))) & 0xF); };
    out[0] = s[2 * b];
    for (size_t j = 0; j < 16; ++j) out[1 + j] = static_cast<uint8_t>(code(j) | (code(j + 16) << 4));
  }
  return {};
}

Error from_ggml_mxfp4(std::span<const uint8_t> blocks, std::span<float> x) {
  const size_t nblk = blocks.size() / kGgmlMxfp4BlockBytes;
  if (blocks.empty() || blocks.size() % kGgmlMxfp4BlockBytes != 0) {
    return Fail(kErrParamInvalid, "blocks", "size " + std::to_string(blocks.size()) + " is not a positive multiple of 17");
  }
  if (x.size() != nblk * kGgmlMxfp4BlockElems) {
    return Fail(kErrParamInvalid, "x", "size " + std::to_string(x.size()) + " is not " + std::to_string(nblk * kGgmlMxfp4BlockElems));
  }
  if (Overlap(x.data(), x.size_bytes(), blocks.data(), blocks.size())) return Fail(kErrParamInvalid, "x", "overlaps blocks");
  for (size_t b = 0; b < nblk; ++b) {
    const uint8_t* in = blocks.data() + b * kGgmlMxfp4BlockBytes;
    const float scale = decode(in[0], DType::kFloat8E8M0);
    for (size_t j = 0; j < 16; ++j) {
      x[b * 32 + j] = decode(in[1 + j] & 0xF, DType::kFloat4E2M1) * scale;
      x[b * 32 + j + 16] = decode(in[1 + j] >> 4, DType::kFloat4E2M1) * scale;
    }
  }
  return {};
}

}  // namespace accelmath::mx
