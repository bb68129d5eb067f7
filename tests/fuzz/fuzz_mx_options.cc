// libFuzzer harness: validation of the public MX API (include/accelmath/mx.h) with arbitrary
// shapes, axes, block sizes, dtypes (enum values outside the enumerations included), rounding
// strings, scale rules and thread counts. Invariants:
//  - scale_shape is empty or rank + 1 non-negative dims ending in 2, covering every block;
//  - storage_bytes never exceeds what the count needs and is 0 only for unknown types/overflow;
//  - get_workspace_size either returns an error (plan invalid, nothing written) or a plan whose
//    [pre, dim, post] multiply to the element count without overflow, with a valid block size and
//    an mxscale shape equal to scale_shape's; when that tensor is small, run executes it on
//    buffers of exactly the validated sizes (ASan checks every access stays inside them);
//  - the array codecs refuse unknown types and modes.
//
// Input layout (little-endian, missing bytes read as 0; tests/fuzz/mx_seeds.py):
//   u8 rank (mod 9), rank x i64 dims, i64 axis, i64 blocksize, i32 dst_type, i32 x_dtype,
//   u8 round (0 null, 1 rint, 2 round, 3 floor, 4 "RINT", 5+ an arbitrary i32 RoundMode for the codecs),
//   i64 scale_alg, i32 threads, u8 flags (bit 0: y dtype = i32 that follows, else dst_type;
//   bit 1: mxscale dtype = i32 that follows, else e8m0; bit 2: mxscale shape = the u8 rank + dims
//   that follow, else scale_shape's; bit 3: dequantize too; bit 4: the codecs too).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "accelmath/mx.h"

namespace mx = accelmath::mx;

namespace {

struct Reader {
  const std::uint8_t* p;
  std::size_t n;
  template <typename T>
  T Get() {
    T v{};
    const std::size_t k = n < sizeof(T) ? n : sizeof(T);
    std::memcpy(&v, p, k);
    p += k, n -= k;
    return v;
  }
};

[[noreturn]] void Violation(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_mx_options: invariant violated: %s %s\n", what, detail.c_str());
  std::abort();
}

constexpr std::int64_t kSmall = 4096;  // run real buffers up to this many elements

std::int64_t CountOrNeg(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d <= 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

bool IsElem(mx::DType t) {
  switch (t) {
    case mx::DType::kFloat8E4M3FN: case mx::DType::kFloat8E5M2: case mx::DType::kFloat6E3M2:
    case mx::DType::kFloat6E2M3: case mx::DType::kFloat4E2M1: case mx::DType::kFloat4E1M2: return true;
    default: return false;
  }
}

void CheckScaleShape(const std::vector<std::int64_t>& shape, std::int64_t axis, std::int64_t bs) {
  std::int64_t storage[8];
  const auto s = mx::scale_shape(shape, axis, bs, storage);
  if (s.empty()) return;
  const std::int64_t rank = static_cast<std::int64_t>(shape.size());
  if (s.size() != shape.size() + 1 || s.back() != 2) Violation("scale_shape: not rank + 1 dims ending in 2");
  if (rank < 1 || rank > 7 || axis < -rank || axis >= rank || bs < 32 || bs > 1024 || bs % 32) {
    Violation("scale_shape accepted an invalid axis/blocksize");
  }
  const std::int64_t a = axis < 0 ? axis + rank : axis;
  for (std::int64_t i = 0; i < rank; ++i) {
    if (s[i] < 0) Violation("scale_shape: a negative dim");
    if (i != a && s[i] != shape[i]) Violation("scale_shape: a dim other than axis changed");
  }
  // s[a] pairs of blocks cover dim: 2 * s[a] * bs >= dim > 2 * (s[a] - 1) * bs (in 128-bit).
  const __int128 cover = static_cast<__int128>(s[a]) * 2 * bs, d = shape[a];
  if (cover < d || (s[a] > 0 && static_cast<__int128>(s[a] - 1) * 2 * bs >= d)) Violation("scale_shape: blocks do not cover the axis exactly");
}

void CheckStorageBytes(mx::DType t, std::uint64_t count) {
  const std::uint64_t b = mx::storage_bytes(t, count);
  const char* name = mx::dtype_name(t);
  const bool known = std::strcmp(name, "unknown") != 0;
  if (!known && b != 0) Violation("storage_bytes of an unknown type is not 0");
  if (!known) return;
  const unsigned __int128 exact = static_cast<unsigned __int128>(count) *
                                  (t == mx::DType::kFloat32 ? 32 : t == mx::DType::kFloat16 || t == mx::DType::kBFloat16 ? 16
                                   : t == mx::DType::kFloat4E2M1 || t == mx::DType::kFloat4E1M2 ? 4
                                   : t == mx::DType::kFloat6E3M2 || t == mx::DType::kFloat6E2M3 ? 6 : 8) / 8;
  if (exact > UINT64_MAX ? b != 0 : b != static_cast<std::uint64_t>(exact)) Violation("storage_bytes is not count * bits / 8", name);
}

template <typename Plan>
void CheckPlan(const Plan& p, std::int64_t n) {
  if (!p.valid) Violation("ok without a valid plan");
  std::int64_t m;
  if (p.pre <= 0 || p.dim <= 0 || p.post <= 0 || __builtin_mul_overflow(p.pre, p.dim, &m) || __builtin_mul_overflow(m, p.post, &m) || m != n) {
    Violation("plan: pre * dim * post is not the element count");
  }
  if (p.blocksize < 32 || p.blocksize > 1024 || p.blocksize % 32) Violation("plan: invalid blocksize");
  if (p.threads < 1) Violation("plan: threads < 1");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r{data, size};
  const int rank = r.Get<std::uint8_t>() % 9;
  std::vector<std::int64_t> shape(rank);
  for (auto& d : shape) d = r.Get<std::int64_t>();
  const auto axis = r.Get<std::int64_t>(), bs = r.Get<std::int64_t>();
  const auto dst = static_cast<mx::DType>(r.Get<std::int32_t>());
  const auto xt = static_cast<mx::DType>(r.Get<std::int32_t>());
  const std::uint8_t round = r.Get<std::uint8_t>();
  static const char* const kRound[] = {nullptr, "rint", "round", "floor", "RINT"};
  const char* round_name = kRound[round < 5 ? round : 1];
  const auto alg = r.Get<std::int64_t>();
  const auto threads = r.Get<std::int32_t>();
  const std::uint8_t flags = r.Get<std::uint8_t>();
  const auto yt = (flags & 1) ? static_cast<mx::DType>(r.Get<std::int32_t>()) : dst;
  const auto st = (flags & 2) ? static_cast<mx::DType>(r.Get<std::int32_t>()) : mx::DType::kFloat8E8M0;
  std::int64_t storage[8];
  std::vector<std::int64_t> sshape;
  if (flags & 4) {
    sshape.resize(r.Get<std::uint8_t>() % 10);
    for (auto& d : sshape) d = r.Get<std::int64_t>();
  } else {
    const auto s = mx::scale_shape(shape, axis, bs, storage);
    sshape.assign(s.begin(), s.end());
  }

  CheckScaleShape(shape, axis, bs);
  for (std::int64_t d : shape) CheckStorageBytes(dst, static_cast<std::uint64_t>(d)), CheckStorageBytes(xt, static_cast<std::uint64_t>(d));

  // Validation only: distinct fake addresses (get_workspace_size reads and writes nothing).
  alignas(64) static std::uint8_t x_fake[1], y_fake[1], s_fake[1];
  mx::QuantizeOptions o;
  o.axis = axis, o.dst_type = dst, o.blocksize = bs, o.round_mode = round_name, o.scale_alg = alg, o.threads = threads % 5;
  if (threads < -1000) o.threads = threads;  // negative counts keep reaching validation
  std::uint64_t ws = 123;
  mx::QuantizePlan plan;
  mx::Error e = mx::get_workspace_size({x_fake, xt, shape}, o, {y_fake, yt, shape}, {s_fake, st, sshape}, &ws, &plan);
  if (!e.ok()) {
    if (plan.valid || ws != 123) Violation("error but the plan or workspace size was written");
    if (e.param.empty() || e.message.find(e.param) == std::string::npos) Violation("error without its parameter", e.message);
    if (e.code != mx::kErrParamInvalid && e.code != mx::kErrNullptr) Violation("unknown error code", e.message);
  } else {
    const std::int64_t n = CountOrNeg(shape);
    if (n <= 0 || n > (std::int64_t{1} << 60)) Violation("ok for an empty, negative or oversized shape");
    CheckPlan(plan, n);
    if (ws != 0) Violation("workspace size is not 0");
    std::int64_t want[8];
    const auto ws_shape = mx::scale_shape(shape, axis, bs, want);
    if (!std::equal(ws_shape.begin(), ws_shape.end(), sshape.begin(), sshape.end())) Violation("ok with an mxscale shape that is not scale_shape's");
    if (!IsElem(dst) || yt != dst || st != mx::DType::kFloat8E8M0) Violation("ok with a wrong dtype");
    const std::int64_t ns = CountOrNeg(sshape);
    if (ns <= 0) Violation("mxscale has no elements");
    if (n <= kSmall) {
      // Buffers of exactly the validated sizes: ASan reports any access outside them.
      std::vector<std::uint8_t> x(mx::storage_bytes(xt, n)), y(mx::storage_bytes(dst, n)), s(static_cast<std::size_t>(ns));
      if (x.empty() || y.empty()) Violation("validated tensor with no bytes");
      e = mx::quantize({x.data(), xt, shape}, {y.data(), dst, shape}, {s.data(), st, sshape}, o);
      if (!e.ok()) Violation("quantize failed after get_workspace_size succeeded", e.message);
      if (flags & 8) {
        mx::DequantizeOptions d;
        d.axis = axis, d.blocksize = bs, d.threads = o.threads;
        std::vector<std::uint8_t> back(mx::storage_bytes(xt, n));
        e = mx::dequantize({y.data(), dst, shape}, {s.data(), st, sshape}, {back.data(), xt, shape}, d);
        if (!e.ok()) Violation("dequantize failed on quantize's output", e.message);
      }
    }
  }
  // Dequantize validation with the same fuzzed fields (y's dtype as the element type).
  {
    mx::DequantizeOptions d;
    d.axis = axis, d.blocksize = bs, d.threads = o.threads;
    mx::DequantizePlan dp;
    ws = 123;
    e = mx::get_workspace_size({y_fake, yt, shape}, {s_fake, st, sshape}, d, {x_fake, xt, shape}, &ws, &dp);
    if (e.ok()) {
      const std::int64_t n = CountOrNeg(shape);
      if (n <= 0 || n > (std::int64_t{1} << 60)) Violation("dequantize: ok for an empty, negative or oversized shape");
      CheckPlan(dp, n);
    } else if (dp.valid || ws != 123) {
      Violation("dequantize: error but the plan or workspace size was written");
    }
  }
  if (flags & 16) {
    // The array codecs with fuzzed type and mode (round byte >= 5: an arbitrary RoundMode).
    const auto mode = static_cast<mx::RoundMode>(round >= 5 ? r.Get<std::int32_t>() : round % 3);
    std::vector<float> v(r.n / 4 + 1);
    std::memcpy(v.data(), r.p, r.n / 4 * 4);
    std::vector<std::uint8_t> codes(v.size(), 0xA5);
    e = mx::encode(v, codes, dst, mode);
    const bool mode_ok = mode == mx::RoundMode::kRint || mode == mx::RoundMode::kRound || mode == mx::RoundMode::kFloor;
    if (e.ok() != (IsElem(dst) && mode_ok)) Violation("encode: accepted/refused wrongly", e.message);
    if (!e.ok()) {
      for (std::uint8_t c : codes) if (c != 0xA5) Violation("encode: wrote on error");
    }
    e = mx::decode(codes, v, xt);
    if (e.ok() != (IsElem(xt) || xt == mx::DType::kFloat8E8M0)) Violation("decode: accepted/refused wrongly", e.message);
    std::vector<std::uint8_t> blocks(v.size() / 32 * 17);
    (void)mx::to_ggml_mxfp4(std::span<const float>(v.data(), v.size() / 32 * 32), blocks, mode);
  }
  return 0;
}
