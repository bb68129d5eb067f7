// MX (microscaling) block quantization, modelled on the DynamicMxQuant operator: docs/mx.md.
//
// quantize:   y, mxscale = quantize(x, axis, dst_type, blocksize, round_mode, scale_alg)
// dequantize: x = value(y) * 2^(mxscale - 127)
// Both in the operator's two-phase style (get_workspace_size validates everything and returns a
// plan; run executes it) and in a one-call form. Errors carry the operator's code (161001 null
// pointer, 161002 invalid parameter) and name the first bad parameter; nothing is written then.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace accelmath::mx {

// Data types, numbered as the operator's aclDataType.
enum class DType : int32_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kUInt8 = 4,
  kBFloat16 = 27,
  kFloat8E5M2 = 35,
  kFloat8E4M3FN = 36,
  kFloat8E8M0 = 37,  // the scale type: 2^(code - 127), 0xFF = NaN
  kFloat6E3M2 = 38,
  kFloat6E2M3 = 39,
  kFloat4E2M1 = 40,
  kFloat4E1M2 = 41,
};

// Element rounding: rint = half to even, round = half away from zero, floor = toward -inf.
enum class RoundMode : int32_t { kRint = 0, kRound = 1, kFloor = 2 };

// Shared-scale rules (docs/mx.md, "Scale"). 0 and 1 are the operator's scaleAlg values; 2 and 3
// are torchao's CEIL and EVEN (the operator's own scaleAlg 2, an E2M1 dstTypeMax variant, is not
// offered).
enum class ScaleAlg : int64_t {
  kOcp = 0,    // floor(log2 amax) - emax from the exponent bits (torchao FLOOR)
  kRceil = 1,  // cuBLAS/TransformerEngine round-up of amax * fp32(1/max_normal), FP8 only
  kCeil = 2,   // torchao CEIL: ceil(log2 amax) - emax
  kEven = 3,   // torchao EVEN: amax rounded to the element's precision, then kOcp
};

inline constexpr int32_t kSuccess = 0;
inline constexpr int32_t kErrNullptr = 161001;       // ACLNN_ERR_PARAM_NULLPTR
inline constexpr int32_t kErrParamInvalid = 161002;  // ACLNN_ERR_PARAM_INVALID

struct Error {
  int32_t code = kSuccess;
  std::string param;    // the first bad parameter: "x", "y", "mxscale", "axis", "blocksize", ...
  std::string message;  // one line: the parameter, its value and the rule it breaks
  bool ok() const noexcept { return code == kSuccess; }
};

// A dense row-major tensor. Element counts come from `shape`; packed types (FP4: 2 per byte in
// flat order, element 2i in the low nibble of byte i; FP6: 4 per 3 bytes, docs/mx.md) keep their
// logical shape, so y has the shape of x.
struct TensorView {
  const void* data = nullptr;
  DType dtype = DType::kFloat32;
  std::span<const int64_t> shape;
};
struct MutableTensorView {
  void* data = nullptr;
  DType dtype = DType::kFloat32;
  std::span<const int64_t> shape;
};

struct QuantizeOptions {
  int64_t axis = -1;                     // in [-rank, rank - 1]
  DType dst_type = DType::kFloat4E2M1;   // the operator's default (40)
  int64_t blocksize = 32;                // a multiple of 32 in [32, 1024]
  const char* round_mode = nullptr;      // "rint" (also nullptr), "round" or "floor", exactly
  int64_t scale_alg = 0;                 // a ScaleAlg value
  int threads = 0;                       // 0: all cores for large tensors; n: at most n threads
};

struct DequantizeOptions {
  int64_t axis = -1;
  int64_t blocksize = 32;
  int threads = 0;
};

// What get_workspace_size hands to run: the validated job. Only meaningful when it returned ok.
struct QuantizePlan {
  const void* x = nullptr;
  void* y = nullptr;
  uint8_t* scale = nullptr;
  DType x_type = DType::kFloat32, dst_type = DType::kFloat4E2M1;
  RoundMode round = RoundMode::kRint;
  ScaleAlg alg = ScaleAlg::kOcp;
  int64_t pre = 0, dim = 0, post = 0, blocksize = 0;  // x viewed as [pre, dim, post], dim = axis
  int threads = 1;
  bool valid = false;
};
struct DequantizePlan {
  const void* y = nullptr;
  const uint8_t* scale = nullptr;
  void* x = nullptr;
  DType elem_type = DType::kFloat4E2M1, x_type = DType::kFloat32;
  int64_t pre = 0, dim = 0, post = 0, blocksize = 0;
  int threads = 1;
  bool valid = false;
};

// Validates every parameter (nothing is read or written), fills *plan and sets *workspace_size
// (always 0: the work needs no scratch memory beyond the stack). Enum-typed fields (dtypes) holding
// a value that is not an enumerator are kErrParamInvalid. run re-checks a plan's fields (enums,
// non-null pointers, extents) and refuses one that validation cannot have produced; the buffers
// it points to must still be the ones validated.
Error get_workspace_size(TensorView x, const QuantizeOptions& options, MutableTensorView y,
                         MutableTensorView mxscale, uint64_t* workspace_size, QuantizePlan* plan);
Error run(void* workspace, uint64_t workspace_size, const QuantizePlan& plan);
Error quantize(TensorView x, MutableTensorView y, MutableTensorView mxscale, const QuantizeOptions& options = {});

// y and mxscale as quantize wrote them; x's dtype (float32, float16 or bfloat16) picks the output.
Error get_workspace_size(TensorView y, TensorView mxscale, const DequantizeOptions& options,
                         MutableTensorView x, uint64_t* workspace_size, DequantizePlan* plan);
Error run(void* workspace, uint64_t workspace_size, const DequantizePlan& plan);
Error dequantize(TensorView y, TensorView mxscale, MutableTensorView x, const DequantizeOptions& options = {});

// The mxscale shape for x's shape: x's dims with dim[axis] = ceil(ceil(dim / blocksize) / 2),
// then a last dim of 2. Empty when the rank is not in [1, 7], axis or blocksize is invalid (as
// get_workspace_size checks them) or a dim is negative; computed without overflow for any dims.
std::span<const int64_t> scale_shape(std::span<const int64_t> x_shape, int64_t axis, int64_t blocksize,
                                     int64_t (&storage)[8]) noexcept;
// Bytes that `count` elements of `type` occupy (packed for FP4/FP6); 0 for an unknown type, and
// 0 when the byte count does not fit in uint64_t (float16/bfloat16 from 2^63, float32 from 2^62).
uint64_t storage_bytes(DType type, uint64_t count) noexcept;
// "e4m3", "e5m2", "e2m1", "e1m2", "e3m2", "e2m3", "e8m0", "float32", "float16", "bfloat16", "uint8".
const char* dtype_name(DType type) noexcept;
// Parses the names above (and "rint"/"round"/"floor"); false if unknown.
bool parse_dtype(const char* name, DType* type) noexcept;
bool parse_round_mode(const char* name, RoundMode* mode) noexcept;

// ---- element codecs ---------------------------------------------------------------------------
// One float32 onto one element code (low bits of the byte, sign in the format's top bit): one
// rounding of x in `mode`, subnormals kept, finite overflow and +-Inf saturate to +-max normal, a
// negative x that rounds to zero gives -0. NaN gives the format's NaN with x's sign (E4M3FN
// S.1111.111, E5M2 S.11111.10) and +0 in FP4/FP6, which have none. E8M0 is not an element type:
// a type that is not one of the six element types, or a mode that is not one of RoundMode's three,
// gives 0 (the array form reports an error).
uint8_t encode(float x, DType type, RoundMode mode = RoundMode::kRint) noexcept;
// Exact value of an element code (E4M3FN 0x7F/0xFF and E5M2 NaN codes give NaN, E5M2 0x7C/0xFC
// give +-Inf) or of an E8M0 code (2^(code - 127); 0xFF gives NaN).
float decode(uint8_t code, DType type) noexcept;
// The same over arrays, one code per byte (unpacked), with the SIMD kernels. Sizes must match;
// a type or mode outside its enumeration is kErrParamInvalid (nothing written).
Error encode(std::span<const float> x, std::span<uint8_t> codes, DType type, RoundMode mode = RoundMode::kRint);
Error decode(std::span<const uint8_t> codes, std::span<float> x, DType type);

// ---- GGUF / ggml MXFP4 --------------------------------------------------------------------------
// ggml's block_mxfp4: 32 elements in 17 bytes, { uint8 e (E8M0); uint8 qs[16] } with element j in
// the low nibble and element j + 16 in the high nibble of qs[j]. Quantized with this library's
// rules (E2M1, OCP scale, `mode` rounding), which differ from ggml's quantize_row_mxfp4 on ties
// (ggml rounds them toward the smaller magnitude) and on NaN/Inf blocks: docs/mx.md.
inline constexpr size_t kGgmlMxfp4BlockElems = 32;
inline constexpr size_t kGgmlMxfp4BlockBytes = 17;
// x.size() must be a multiple of 32 and blocks.size() == x.size() / 32 * 17; mode one of RoundMode's.
Error to_ggml_mxfp4(std::span<const float> x, std::span<uint8_t> blocks, RoundMode mode = RoundMode::kRint);
// The inverse, as ggml's dequantize_row_mxfp4 (value * 2^(e - 127)) except that e = 0xFF gives
// NaN (ggml reads it as 2^127); sizes as above.
Error from_ggml_mxfp4(std::span<const uint8_t> blocks, std::span<float> x);

}  // namespace accelmath::mx
