// Hostile input to the library's entry points (docs/reliability.md): null pointers with a non-zero
// count, enum arguments outside their enumerations, sizes whose arithmetic overflows, hand-edited
// plans. Each gets an error (Status / mx::Error) and nothing is written; none crashes or is UB
// (this file is also run under ASan + UBSan: scripts/test, build-asan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "accelmath/atomic.h"
#include "accelmath/c_api.h"
#include "accelmath/mx.h"
#include "accelmath/registry.h"
#include "cli/atomic_cmd.h"
#include "shape_test_util.h"

namespace {

using accelmath::Status;
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

// ---- C ABI: null pointers -----------------------------------------------------------------------

TEST(HostileCAbi, NullPointersWithCountAreAnError) {
  EXPECT_EQ(accelmath_ndtri_f32(nullptr, nullptr, 4), static_cast<int>(Status::kNullPointer));  // segfaulted
  EXPECT_EQ(static_cast<int>(Status::kNullPointer), 8);  // documented in c_api.h
  float buf[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  EXPECT_EQ(accelmath_ndtri_f32(buf, nullptr, 4), 8);
  EXPECT_EQ(accelmath_ndtri_f32(nullptr, buf, 4), 8);
  EXPECT_EQ(buf[0], 0.1f);
  EXPECT_EQ(accelmath_ndtri_f32(nullptr, nullptr, 0), 0);  // n == 0: nothing to read or write
  // Every row, whatever its shape: each operand null in turn (and all of them), through the C ABI
  // and FunctionInfo::run; nothing written; n == 0 accepts nulls.
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    const bool rows = f.shape == accelmath::Shape::kRows;
    const std::size_t rl = rows ? 3 : 0;
    accelmath::test::Operands o = accelmath::test::RandomOperands(f, 4, 1, rl);
    const std::vector<void*> none_out(2, nullptr);
    const std::vector<const void*> none_in(4, nullptr);
    EXPECT_EQ(f.run_c_abi(none_out.data(), none_in.data(), 4, rl), 8);
    EXPECT_EQ(f.run_c_abi(none_out.data(), none_in.data(), std::numeric_limits<size_t>::max(), rl), 8);
    EXPECT_EQ(f.run_c_abi(none_out.data(), none_in.data(), 0, rl), 0);
    EXPECT_EQ(f.run(none_out.data(), none_in.data(), 4, rl), Status::kNullPointer);
    EXPECT_EQ(f.run(none_out.data(), none_in.data(), 0, rl), Status::kOk);
    for (int which = 0; which < f.outputs() + f.inputs(); ++which) {
      auto out = o.outs();
      auto in = o.ins();
      if (which < f.outputs()) {
        out[which] = nullptr;
      } else {
        in[which - f.outputs()] = nullptr;
      }
      EXPECT_EQ(f.run_c_abi(out.data(), in.data(), 4, rl), 8) << "operand " << which;
      EXPECT_EQ(f.run(out.data(), in.data(), 4, rl), Status::kNullPointer) << "operand " << which;
    }
    for (const auto& b : o.out) {
      for (std::size_t i = 0; i < 4; ++i) EXPECT_FALSE(b.written(i));
    }
    EXPECT_EQ(o.RunCAbi(), 0);  // and the real call still works
    for (const auto& b : o.out) EXPECT_TRUE(b.written(3));
  }
}

// Rows (norm, rnorm): src holds count * n floats, so it may be null when n == 0 (empty rows, which
// give the kernel's value of +0); a count * n beyond size_t describes no array: kBufferTooSmall (1),
// nothing written, before anything is read.
TEST(HostileCAbi, RowsOfNoElementsAndRowCountsThatOverflow) {
  int checked = 0;
  for (const auto& f : accelmath::functions()) {
    if (f.shape != accelmath::Shape::kRows) continue;
    ++checked;
    SCOPED_TRACE(f.name);
    float dst[4] = {7, 7, 7, 7}, src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    void* out[1] = {dst};
    const void* none[1] = {nullptr};
    const void* in[1] = {src};
    float empty = 7;
    void* out_empty[1] = {&empty};
    const float zeros[1] = {0.0f};
    const void* in_zeros[1] = {zeros};
    f.run_scalar(out_empty, in_zeros, 0);  // the empty row's value
    EXPECT_EQ(f.run_c_abi(out, none, 4, 0), 0);
    for (float d : dst) EXPECT_EQ(accelmath::test::Bits(d), accelmath::test::Bits(empty));
    EXPECT_EQ(f.run(out, none, 4, 0), Status::kOk);
    std::fill(dst, dst + 4, 7.0f);
    for (std::size_t n : {std::size_t{2}, std::size_t{3}, std::numeric_limits<size_t>::max()}) {
      const std::size_t count = std::numeric_limits<size_t>::max() / n + 1;
      EXPECT_EQ(f.run_c_abi(out, in, count, n), 1) << n;
      EXPECT_EQ(f.run(out, in, count, n), Status::kBufferTooSmall) << n;
    }
    for (float d : dst) EXPECT_EQ(d, 7.0f);
  }
  EXPECT_GE(checked, 1) << "no Rows row: this test checks nothing";
}

}  // namespace

namespace accelmath::mx {
namespace {

// ---- scale_shape / storage_bytes: overflow -------------------------------------------------------

TEST(HostileMx, ScaleShapeOfHugeDimIsExact) {
  int64_t storage[8];
  const int64_t x[] = {kI64Max};
  auto s = scale_shape(x, 0, 32, storage);  // (INT64_MAX + 31) overflowed: a negative dim
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], int64_t{1} << 57);  // ceil(ceil((2^63 - 1) / 32) / 2) = 2^58 / 2
  EXPECT_EQ(s[1], 2);
  s = scale_shape(x, 0, 1024, storage);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], int64_t{1} << 52);
  const int64_t x2[] = {3, kI64Max - 1};
  s = scale_shape(x2, -1, 64, storage);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0], 3);
  EXPECT_EQ(s[1], int64_t{1} << 56);
  EXPECT_GT(s[1], 0);
}

TEST(HostileMx, ScaleShapeRefusesInvalidBlocksizeAndDims) {
  int64_t storage[8];
  const int64_t x[] = {2, 64};
  for (int64_t bs : {kI64Max, kI64Max - 30, int64_t{1} << 62, int64_t{0}, int64_t{-32}, int64_t{16}, int64_t{48},
                     int64_t{1056}, std::numeric_limits<int64_t>::min()}) {
    EXPECT_TRUE(scale_shape(x, -1, bs, storage).empty()) << bs;
  }
  const int64_t neg[] = {2, -64};
  EXPECT_TRUE(scale_shape(neg, -1, 32, storage).empty());
  EXPECT_TRUE(scale_shape(neg, 0, 32, storage).empty());
  EXPECT_TRUE(scale_shape(x, kI64Max, 32, storage).empty());
  EXPECT_TRUE(scale_shape(x, std::numeric_limits<int64_t>::min(), 32, storage).empty());
  EXPECT_EQ(scale_shape(x, -1, 32, storage).size(), 3u);
}

// The CLI's flow (mx_cmd.cc): mxscale sized from scale_shape, then quantize. A huge block size
// overflowed inside scale_shape, gave a 0-byte mxscale and the error "mxscale: data is null";
// it must be the block size that is reported.
TEST(HostileMx, HugeBlocksizeIsABlocksizeError) {
  const std::vector<int64_t> shape{2, 64};
  std::vector<float> x(128, 1.0f);
  std::vector<uint8_t> y(64, 0xA5);
  for (int64_t bs : {kI64Max, kI64Max - 31, int64_t{1} << 62}) {
    int64_t storage[8];
    const auto sshape = scale_shape(shape, -1, bs, storage);
    size_t ns = 1;
    for (int64_t d : sshape) ns *= static_cast<size_t>(d);
    std::vector<uint8_t> s(ns, 0xA5);
    QuantizeOptions o;
    o.blocksize = bs;
    const Error e = quantize({x.data(), DType::kFloat32, shape}, {y.data(), DType::kFloat4E2M1, shape},
                             {s.data(), DType::kFloat8E8M0, sshape}, o);
    EXPECT_EQ(e.code, kErrParamInvalid) << bs << ": " << e.message;
    EXPECT_EQ(e.param, "blocksize") << bs << ": " << e.message;
    DequantizeOptions d;
    d.blocksize = bs;
    const Error e2 = dequantize({y.data(), DType::kFloat4E2M1, shape}, {s.data(), DType::kFloat8E8M0, sshape},
                                {x.data(), DType::kFloat32, shape}, d);
    EXPECT_EQ(e2.param, "blocksize") << bs << ": " << e2.message;
  }
  for (uint8_t v : y) ASSERT_EQ(v, 0xA5);
  for (float v : x) ASSERT_EQ(v, 1.0f);
}

TEST(HostileMx, HugeShapesAreRefusedNotWrapped) {
  std::vector<float> x(64, 1.0f);
  std::vector<uint8_t> y(64, 0xA5), s(8, 0xA5);
  QuantizeOptions o;
  o.dst_type = DType::kFloat8E4M3FN;
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{kI64Max, 32}, std::vector<int64_t>{int64_t{1} << 31, int64_t{1} << 31, 32},
                                            std::vector<int64_t>{int64_t{1} << 60, 2, 32}, std::vector<int64_t>{-1, -32},
                                            std::vector<int64_t>{kI64Max}}) {
    int64_t storage[8];
    const auto sshape = scale_shape(shape, -1, 32, storage);
    const Error e = quantize({x.data(), DType::kFloat32, shape}, {y.data(), DType::kFloat8E4M3FN, shape},
                             {s.data(), DType::kFloat8E8M0, sshape}, o);
    EXPECT_EQ(e.code, kErrParamInvalid) << e.message;
    EXPECT_EQ(e.param, "x") << e.message;
  }
  for (uint8_t v : y) ASSERT_EQ(v, 0xA5);
}

TEST(HostileMx, StorageBytesDoesNotWrap) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(storage_bytes(DType::kFloat32, kMax), 0u);  // wrapped to kMax - 3
  EXPECT_EQ(storage_bytes(DType::kFloat32, uint64_t{1} << 62), 0u);
  EXPECT_EQ(storage_bytes(DType::kFloat32, (uint64_t{1} << 62) - 1), ((uint64_t{1} << 62) - 1) * 4);
  EXPECT_EQ(storage_bytes(DType::kBFloat16, uint64_t{1} << 63), 0u);
  EXPECT_EQ(storage_bytes(DType::kFloat16, 3), 6u);
  // Packed types: count * bits / 8 exactly, for any count.
  EXPECT_EQ(storage_bytes(DType::kFloat6E3M2, kMax), kMax / 8 * 6 + 7 * 6 / 8);
  EXPECT_EQ(storage_bytes(DType::kFloat4E2M1, kMax), kMax / 2);
  EXPECT_EQ(storage_bytes(DType::kFloat8E4M3FN, kMax), kMax);
  EXPECT_EQ(storage_bytes(DType::kFloat6E2M3, 12), 9u);
  EXPECT_EQ(storage_bytes(DType::kFloat4E1M2, 7), 3u);
  EXPECT_EQ(storage_bytes(DType::kUInt8, kMax), kMax);
  EXPECT_EQ(storage_bytes(static_cast<DType>(2), 8), 0u);
}

// ---- enum arguments outside their enumerations ---------------------------------------------------

TEST(HostileMx, EncodeRefusesUnknownRoundMode) {
  const std::vector<float> x(40, 1.5f);
  std::vector<uint8_t> codes(40, 0xA5);
  for (int32_t m : {3, 7, -1, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()}) {
    const Error e = encode(x, codes, DType::kFloat4E2M1, static_cast<RoundMode>(m));  // was ok, wrote nothing
    EXPECT_EQ(e.code, kErrParamInvalid) << m;
    EXPECT_EQ(e.param, "mode") << m;
    EXPECT_EQ(encode(1.5f, DType::kFloat4E2M1, static_cast<RoundMode>(m)), 0) << m;
    std::vector<uint8_t> blocks(40 / 32 * 17 + 17, 0xA5);
    const std::vector<float> x64(64, 1.5f);
    const Error g = to_ggml_mxfp4(x64, std::span<uint8_t>(blocks.data(), 34), static_cast<RoundMode>(m));
    EXPECT_EQ(g.param, "mode") << m;  // was quantized as "floor"
    for (uint8_t b : blocks) ASSERT_EQ(b, 0xA5);
  }
  for (uint8_t c : codes) ASSERT_EQ(c, 0xA5);
  EXPECT_TRUE(encode(x, codes, DType::kFloat4E2M1, RoundMode::kFloor).ok());
}

TEST(HostileMx, UnknownDTypesAreRefused) {
  const std::vector<float> x(32, 1.0f);
  std::vector<uint8_t> codes(32, 0xA5);
  std::vector<float> back(32, 7.0f);
  for (int32_t t : {-1, 2, 3, 26, 42, 200, std::numeric_limits<int32_t>::max()}) {
    const DType bad = static_cast<DType>(t);
    EXPECT_EQ(encode(x, codes, bad).param, "type") << t;
    EXPECT_EQ(decode(codes, back, bad).param, "type") << t;
    EXPECT_EQ(encode(1.0f, bad), 0) << t;
    EXPECT_EQ(decode(0x38, bad), 0.0f) << t;
    EXPECT_STREQ(dtype_name(bad), "unknown");
    EXPECT_EQ(storage_bytes(bad, 32), 0u);

    const std::vector<int64_t> shape{2, 32}, sshape{2, 1, 2};
    std::vector<float> xx(64, 1.0f);
    std::vector<uint8_t> y(64, 0xA5), s(4, 0xA5);
    QuantizeOptions o;
    o.dst_type = DType::kFloat8E4M3FN;
    auto q = [&](DType xt, DType dst, DType yt, DType st) {
      QuantizeOptions oo = o;
      oo.dst_type = dst;
      return quantize({xx.data(), xt, shape}, {y.data(), yt, shape}, {s.data(), st, sshape}, oo);
    };
    const DType e4 = DType::kFloat8E4M3FN, f32 = DType::kFloat32, e8 = DType::kFloat8E8M0;
    EXPECT_EQ(q(bad, e4, e4, e8).param, "x") << t;
    EXPECT_EQ(q(f32, bad, bad, e8).param, "dst_type") << t;
    EXPECT_EQ(q(f32, e4, bad, e8).param, "y") << t;
    EXPECT_EQ(q(f32, e4, e4, bad).param, "mxscale") << t;
    DequantizeOptions d;
    auto dq = [&](DType yt, DType st, DType xt) {
      return dequantize({y.data(), yt, shape}, {s.data(), st, sshape}, {xx.data(), xt, shape}, d);
    };
    EXPECT_EQ(dq(bad, e8, f32).param, "y") << t;
    EXPECT_EQ(dq(e4, bad, f32).param, "mxscale") << t;
    EXPECT_EQ(dq(e4, e8, bad).param, "x") << t;
    for (uint8_t v : y) ASSERT_EQ(v, 0xA5);
    for (float v : xx) ASSERT_EQ(v, 1.0f);
  }
  for (float v : back) ASSERT_EQ(v, 7.0f);
}

TEST(HostileMx, ScaleAlgAndThreadsOutOfRange) {
  const std::vector<int64_t> shape{2, 32}, sshape{2, 1, 2};
  std::vector<float> x(64, 1.0f);
  std::vector<uint8_t> y(64, 0xA5), s(4, 0xA5);
  for (int64_t alg : {int64_t{-1}, int64_t{4}, kI64Max, std::numeric_limits<int64_t>::min()}) {
    QuantizeOptions o;
    o.dst_type = DType::kFloat8E4M3FN, o.scale_alg = alg;
    EXPECT_EQ(quantize({x.data(), DType::kFloat32, shape}, {y.data(), DType::kFloat8E4M3FN, shape},
                       {s.data(), DType::kFloat8E8M0, sshape}, o).param, "scale_alg") << alg;
  }
  QuantizeOptions o;
  o.dst_type = DType::kFloat8E4M3FN, o.threads = std::numeric_limits<int>::min();
  EXPECT_EQ(quantize({x.data(), DType::kFloat32, shape}, {y.data(), DType::kFloat8E4M3FN, shape},
                     {s.data(), DType::kFloat8E8M0, sshape}, o).param, "threads");
  for (uint8_t v : y) ASSERT_EQ(v, 0xA5);
  // Far more threads than blocks: capped at the block count, same result.
  o.threads = std::numeric_limits<int>::max();
  EXPECT_TRUE(quantize({x.data(), DType::kFloat32, shape}, {y.data(), DType::kFloat8E4M3FN, shape},
                       {s.data(), DType::kFloat8E8M0, sshape}, o).ok());
  EXPECT_EQ(s[0], 119);
}

// A plan's fields are public: run refuses one that validation cannot have produced.
TEST(HostileMx, RunRefusesHandEditedPlans) {
  const std::vector<int64_t> shape{2, 32}, sshape{2, 1, 2};
  std::vector<float> x(64, 1.0f);
  std::vector<uint8_t> y(64, 0xA5), s(4, 0xA5);
  QuantizeOptions o;
  o.dst_type = DType::kFloat4E2M1;
  uint64_t ws = 0;
  QuantizePlan good;
  ASSERT_TRUE(get_workspace_size({x.data(), DType::kFloat32, shape}, o, {y.data(), DType::kFloat4E2M1, shape},
                                 {s.data(), DType::kFloat8E8M0, sshape}, &ws, &good).ok());
  auto refused = [&](auto edit) {
    QuantizePlan p = good;
    edit(p);
    return run(nullptr, 0, p).code == kErrParamInvalid;
  };
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.round = static_cast<RoundMode>(7); }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.alg = static_cast<ScaleAlg>(9); }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.dst_type = static_cast<DType>(99); }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.x_type = DType::kUInt8; }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.y = nullptr; }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.blocksize = 0; }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.dim = -32; }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.pre = kI64Max; }));
  EXPECT_TRUE(refused([](QuantizePlan& p) { p.threads = 0; }));
  for (uint8_t v : y) ASSERT_EQ(v, 0xA5);
  EXPECT_TRUE(run(nullptr, 0, good).ok());

  std::vector<float> back(64, 7.0f);
  DequantizePlan dgood;
  ASSERT_TRUE(get_workspace_size({y.data(), DType::kFloat4E2M1, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {},
                                 {back.data(), DType::kFloat32, shape}, &ws, &dgood).ok());
  DequantizePlan d = dgood;
  d.elem_type = static_cast<DType>(-3);
  EXPECT_EQ(run(nullptr, 0, d).code, kErrParamInvalid);
  d = dgood, d.post = 0;
  EXPECT_EQ(run(nullptr, 0, d).code, kErrParamInvalid);
  for (float v : back) ASSERT_EQ(v, 7.0f);
  EXPECT_TRUE(run(nullptr, 0, dgood).ok());
  EXPECT_EQ(back[0], 1.0f);
}

}  // namespace
}  // namespace accelmath::mx

namespace {

// ---- atomic: Mode outside its enumeration, every type and form -----------------------------------

template <typename T>
void CheckModes() {
  using accelmath::atomic::Mode;
  std::vector<T> dst(4), src(4);
  const std::vector<std::int64_t> index{0, 1, 2, 3};
  std::vector<unsigned char> before(sizeof(T) * 4);
  std::memcpy(before.data(), dst.data(), before.size());
  for (int m : {2, -1, 255, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    const Mode bad = static_cast<Mode>(m);
    const std::span<T> d(dst);
    const std::span<const T> s(src);
    EXPECT_EQ(accelmath::atomic::add(d, s, bad), Status::kInvalidArgument) << m;
    EXPECT_EQ(accelmath::atomic::max(d, s, bad), Status::kInvalidArgument) << m;
    EXPECT_EQ(accelmath::atomic::min(d, s, bad), Status::kInvalidArgument) << m;
    EXPECT_EQ(accelmath::atomic::add(d, index, s, bad), Status::kInvalidArgument) << m;
    EXPECT_EQ(accelmath::atomic::max(d, index, s, bad), Status::kInvalidArgument) << m;
    EXPECT_EQ(accelmath::atomic::min(d, index, s, bad), Status::kInvalidArgument) << m;
    // Empty arrays do not excuse an unknown mode.
    EXPECT_EQ(accelmath::atomic::add(std::span<T>(), std::span<const T>(), bad), Status::kInvalidArgument) << m;
  }
  EXPECT_EQ(std::memcmp(before.data(), dst.data(), before.size()), 0);
}

TEST(HostileAtomic, UnknownModeEveryTypeAndForm) {
  CheckModes<accelmath::float16>();
  CheckModes<accelmath::bfloat16>();
  CheckModes<float>();
  CheckModes<std::int8_t>();
  CheckModes<std::int16_t>();
  CheckModes<std::int32_t>();
  CheckModes<std::int64_t>();
}

// ---- the atomic-table CSV checker (`atomic-table --check`, fuzzed by tests/fuzz/fuzz_atomic_csv) ------

TEST(HostileCsv, MalformedTablesAreErrorsNotCrashes) {
  using accelmath::cli::atomic_check_csv;
  const std::string hdr = "op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode\n";
  auto r = atomic_check_csv("int8", hdr + "add,int8,127,1,-128,127\nmin,int8,-128,0/127,-128,-128\n");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.rows, 2);
  EXPECT_EQ(r.checks, 12);  // 1 + 2 operands, 2 orders, 2 modes
  EXPECT_EQ(r.differences, 0u);
  EXPECT_NE(atomic_check_csv("float64", hdr + "add,float64,1,1,2,2\n").error, "");
  for (const std::string& bad : std::initializer_list<std::string>{
           std::string(), std::string("\0\0", 2), hdr, hdr + "add,int8,1,2\n",
           hdr + "add,int8,128,1,-127,127\n", hdr + "xor,int8,1,1,0,0\n", hdr + "add,half,1,1,2,2\n",
           hdr + "add,int8,99999999999999999999999,1,2,2\n", hdr + std::string(10000, ',') + "\n",
           std::string("op,dtype\n")}) {
    const auto e = atomic_check_csv("int8", bad);
    EXPECT_NE(e.error, "") << bad;
    EXPECT_EQ(e.error.find('\n'), std::string::npos) << e.error;
  }
  // A float that the type cannot represent exactly is refused, not rounded.
  EXPECT_NE(atomic_check_csv("half", hdr + "add,half,0.1,0.0,0.1,0.1\n").error, "");
}

// Found by fuzz_atomic_csv: an empty operand_b (or a trailing '/') is skipped, so the row counts
// as checked with no check done (or fewer operands) and `--check` reports PASS for it; text after
// a NUL byte in a field is ignored (strtoll/strtod stop at it: "1\0junk" reads as 1). Fixed in
// CheckCsv's Split (empty fields kept) and Parse (the whole field must be the number).
TEST(HostileCsv, EmptyOperandIsAnError) {
  using accelmath::cli::atomic_check_csv;
  const std::string hdr = "op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode\n";
  for (const std::string& bad : std::initializer_list<std::string>{
           hdr + "add,int8,1,,2,2\n", hdr + "add,int8,1,1/,2,2\n", hdr + "add,int8,1,/1,2,2\n",
           hdr + "add,int8,1,1//2,2,2\n", hdr + std::string("add,int8,1\0junk,1,2,2\n", 22)}) {
    const auto e = atomic_check_csv("int8", bad);
    EXPECT_NE(e.error, "") << bad << " gave " << e.rows << " rows, " << e.checks << " checks";
  }
}

}  // namespace
