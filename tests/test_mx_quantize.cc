// MX quantize/dequantize: whole tensors against the independent model
// (tools/accuracy/mx_reference.cc) for every format, rounding mode, scale rule, input type, rank,
// axis and blocksize tried here, on every compiled SIMD target and with threads; the layout
// (FP4 nibbles, FP6 packing, mxscale pairs and padding) decoded by this file's own code; every
// validation rule; dequantize exactness.
#include <gtest/gtest.h>
#include <hwy/highway.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "accelmath/mx.h"
#include "accuracy/mx_reference.h"
#include "mx/job.h"
#include "mx_test_util.h"
#include "test_util.h"

namespace accelmath::mx {
namespace {

using test::Bits;
using test::FromBits;
using test::NativeHalf;

using mxtest::BitsOf;
using mxtest::CodeAt;
using mxtest::kElems;
using mxtest::MxTargetName;
using mxtest::MxTargets;

// A tensor in one input type: raw storage plus its exact float32 values.
struct Input {
  DType type;
  std::vector<uint8_t> raw;
  std::vector<float> values;
};

Input MakeInput(DType type, size_t n, std::mt19937& rng, double special_rate) {
  Input in{type, std::vector<uint8_t>(n * (type == DType::kFloat32 ? 4 : 2)), std::vector<float>(n)};
  std::normal_distribution<float> gauss;
  for (size_t i = 0; i < n; ++i) {
    // Gaussian times 2^k, with k varying by position so that blocks differ in range.
    float v = gauss(rng) * std::ldexp(1.0f, static_cast<int>((i / 37) % 60) - 30);
    const double u = std::uniform_real_distribution<double>()(rng);
    if (u < special_rate) v = (rng() & 1) ? NAN : -INFINITY;
    else if (u < 0.02) v = 0.0f;
    else if (u < 0.03) v = -0.0f;
    else if (u < 0.05) v = FromBits(rng() & 0x807FFFFF);  // float32 subnormal
    uint32_t b = Bits(v);
    if (type == DType::kFloat32) {
      std::memcpy(&in.raw[4 * i], &b, 4);
      in.values[i] = v;
    } else if (type == DType::kBFloat16) {
      const uint16_t h = static_cast<uint16_t>(b >> 16);  // truncation: any bfloat16 will do
      std::memcpy(&in.raw[2 * i], &h, 2);
      in.values[i] = FromBits(detail::BFloat16ToBits(h));
    } else {
      const NativeHalf hf = static_cast<NativeHalf>(v);
      uint16_t h;
      std::memcpy(&h, &hf, 2);
      std::memcpy(&in.raw[2 * i], &h, 2);
      in.values[i] = static_cast<float>(hf);
    }
  }
  return in;
}

struct Case {
  std::vector<int64_t> shape;
  int64_t axis;
  int64_t blocksize;
};

// Quantizes with the library and compares codes and mxscale with the model; returns false on
// the first difference (reported).
bool CheckCase(const Input& in, const Case& c, DType t, RoundMode mode, ScaleAlg alg, int threads) {
  size_t n = 1;
  for (auto d : c.shape) n *= static_cast<size_t>(d);
  std::vector<uint8_t> y(storage_bytes(t, n) + 8, 0xA5);
  int64_t storage[8];
  const auto sshape = scale_shape(c.shape, c.axis, c.blocksize, storage);
  size_t ns = 1;
  for (auto d : sshape) ns *= static_cast<size_t>(d);
  std::vector<uint8_t> s(ns + 8, 0xA5);
  QuantizeOptions o;
  o.axis = c.axis, o.dst_type = t, o.blocksize = c.blocksize, o.scale_alg = static_cast<int64_t>(alg);
  o.round_mode = mode == RoundMode::kRint ? "rint" : mode == RoundMode::kRound ? "round" : "floor";
  o.threads = threads;
  const Error e = quantize({in.raw.data(), in.type, c.shape}, {y.data(), t, c.shape}, {s.data(), DType::kFloat8E8M0, sshape}, o);
  if (!e.ok()) {
    ADD_FAILURE() << e.message;
    return false;
  }
  std::vector<uint8_t> want_codes, want_scales;
  reference::Quantize(in.values, c.shape, c.axis, t, c.blocksize, mode, alg, &want_codes, &want_scales);
  const std::string what = std::string(dtype_name(t)) + " from " + dtype_name(in.type) + " mode " +
                           std::to_string(int(mode)) + " alg " + std::to_string(int(alg)) + " axis " +
                           std::to_string(c.axis) + " bs " + std::to_string(c.blocksize);
  for (size_t i = 0; i < n; ++i) {
    if (CodeAt(y, t, i) != want_codes[i]) {
      ADD_FAILURE() << what << ": element " << i << " x=" << in.values[i] << " code 0x" << std::hex
                    << int(CodeAt(y, t, i)) << " want 0x" << int(want_codes[i]);
      return false;
    }
  }
  for (size_t k = 0; k < 8; ++k) {
    if (y[storage_bytes(t, n) + k] != 0xA5 || s[ns + k] != 0xA5) {
      ADD_FAILURE() << what << ": wrote past the end";
      return false;
    }
  }
  // mxscale[p..., j, q..., k] = scale of block 2j+k; 0x00 pads an odd block count.
  const int64_t rank = static_cast<int64_t>(c.shape.size()), a = c.axis < 0 ? c.axis + rank : c.axis;
  int64_t pre = 1, post = 1;
  for (int64_t i = 0; i < a; ++i) pre *= c.shape[i];
  for (int64_t i = a + 1; i < rank; ++i) post *= c.shape[i];
  const int64_t nb = (c.shape[a] + c.blocksize - 1) / c.blocksize, nb2 = (nb + 1) / 2;
  for (int64_t p = 0; p < pre; ++p) {
    for (int64_t j = 0; j < nb2; ++j) {
      for (int64_t q = 0; q < post; ++q) {
        for (int64_t k = 0; k < 2; ++k) {
          const int64_t b = 2 * j + k;
          const uint8_t want = b < nb ? want_scales[(p * nb + b) * post + q] : 0;
          const uint8_t got = s[((p * nb2 + j) * post + q) * 2 + k];
          if (got != want) {
            ADD_FAILURE() << what << ": scale of block " << b << " (p " << p << ", q " << q << ") " << int(got)
                          << " want " << int(want);
            return false;
          }
        }
      }
    }
  }
  return true;
}

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {{64}, -1, 32},           {{100}, 0, 32},          {{3, 96}, -1, 64},     {{2, 1056}, 1, 1024},
      {{70, 8}, 0, 32},         {{2, 40, 12}, 1, 32},    {{4, 33, 20}, -2, 32}, {{2, 3, 2, 36}, -1, 32},
      {{5, 4, 3, 4}, 0, 32},    {{1, 2, 1, 2, 1, 2, 68}, 6, 64},            {{130, 4}, 0, 96},
      // whole blocks in groups of Lanes (8 or 16) and partial groups: rows with a short last
      // block, odd block counts (a pad byte per scale row, with and without a short block), and
      // rows of 2 blocks that the groups run across
      {{3, 300}, -1, 32},       {{2, 512}, 1, 32},       {{5, 480}, -1, 32},    {{7, 64}, -1, 32},
      {{3, 1088}, -1, 64},      {{9, 20, 96}, -1, 32},   {{4, 80}, -1, 32},  // last: 3 blocks, one short
      // blocks of three 32-lane vectors along the last axis: pairs of vectors that span two blocks
      {{5, 480}, -1, 96},       {{2, 576}, -1, 96}};
  return cases;
}

// Every case, input type, format, rounding and scale rule, on every compiled SIMD target this CPU
// runs (each has its own group width, Lanes).
TEST(MxQuantize, MatchesModelEverywhere) {
  for (int64_t target : MxTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(MxTargetName(target));
    std::mt19937 rng(7);
    for (DType in_type : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
      for (const Case& c : Cases()) {
        size_t n = 1;
        for (auto d : c.shape) n *= static_cast<size_t>(d);
        const Input in = MakeInput(in_type, n, rng, 0.002);
        for (DType t : kElems) {
          if (BitsOf(t) == 6 && c.shape.back() % 4 != 0) continue;
          for (RoundMode m : {RoundMode::kRint, RoundMode::kRound, RoundMode::kFloor}) {
            if (BitsOf(t) == 8 && m != RoundMode::kRint) continue;
            for (ScaleAlg alg : {ScaleAlg::kOcp, ScaleAlg::kRceil, ScaleAlg::kCeil, ScaleAlg::kEven}) {
              if (alg == ScaleAlg::kRceil && BitsOf(t) != 8) continue;
              ASSERT_TRUE(CheckCase(in, c, t, m, alg, 1));
            }
          }
        }
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}

// Every compiled SIMD target that this CPU runs, and several threads, give the model's bits.
// Cases for every target (EveryTarget) and for threads (Threads); two tests, so that a run without
// threads (scripts/arm-check under qemu-user) can take the first alone.
struct TargetCases {
  std::mt19937 rng{11};
  const Case big{{64, 2048}, -1, 32}, inner{{256, 48}, 0, 64};
  // an inner axis wider than a tile (4096 columns): two whole tiles and a short one, 15 rows (one
  // short block; the tile after the last one is the next block's: src/mx/quantize_inner.cc)
  const Case wide{{15, 2 * 4100}, 0, 32};
  const Input in32 = MakeInput(DType::kFloat32, 64 * 2048, rng, 0.0005);
  const Input in16 = MakeInput(DType::kBFloat16, 256 * 48, rng, 0.0005);
  // 16-bit inputs along axis 0 whose rows end 4 or 8 columns after a pair of 16-bit vectors (32
  // columns), in one tile and after a whole one (4096 columns): FP6 stores 32 bytes for 24, and the
  // 8 extra must not outlive the row (the guard bytes after the output, the next row's codes).
  const Case edge4{{32, 36}, 0, 32}, edge8{{32, 4096 + 40}, 0, 32};
  // No NaN/Inf: a column of scale code 255 sends its whole tile the float32 way.
  const Input in16w = MakeInput(DType::kFloat16, 32 * (4096 + 40), rng, 0.0);
};

TEST(MxQuantize, EveryTarget) {
  const TargetCases c;
  for (int64_t target : MxTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(MxTargetName(target));
    for (DType t : kElems) {
      ASSERT_TRUE(CheckCase(c.in32, c.big, t, RoundMode::kRint, ScaleAlg::kOcp, 1));
      ASSERT_TRUE(CheckCase(c.in16, c.inner, t, BitsOf(t) == 8 ? RoundMode::kRint : RoundMode::kFloor, ScaleAlg::kEven, 1));
      ASSERT_TRUE(CheckCase(c.in32, c.wide, t, RoundMode::kRint, ScaleAlg::kOcp, 1));
      ASSERT_TRUE(CheckCase(c.in16w, c.edge4, t, RoundMode::kRint, ScaleAlg::kOcp, 1));
      ASSERT_TRUE(CheckCase(c.in16w, c.edge8, t, RoundMode::kRint, ScaleAlg::kOcp, 1));
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}

TEST(MxQuantize, Threads) {
  const TargetCases c;
  for (int threads : {2, 3, 8}) {
    ASSERT_TRUE(CheckCase(c.in32, c.big, DType::kFloat4E2M1, RoundMode::kRint, ScaleAlg::kOcp, threads));
    ASSERT_TRUE(CheckCase(c.in16, c.inner, DType::kFloat8E4M3FN, RoundMode::kRint, ScaleAlg::kRceil, threads));
  }
}

// 16-bit inputs to FP8 along axis 0 in a tensor whose codes take 4 MiB or more: the kernel stores
// them by streaming stores from each row's first aligned column (src/mx/quantize_inner.cc), the
// columns before and after by plain stores. Rows of 131144 columns (8 mod 64) start at every
// offset mod 64 from the output's own, and end in a short tile of 72 columns.
TEST(MxQuantize, StreamedAxis0Codes) {
  std::mt19937 rng(13);
  const Case c{{32, 131072 + 72}, 0, 32};
  for (DType in_type : {DType::kBFloat16, DType::kFloat16}) {
    const Input in = MakeInput(in_type, 32 * (131072 + 72), rng, 0.0);
    for (int64_t target : MxTargets()) {
      hwy::SetSupportedTargetsForTest(target);
      SCOPED_TRACE(MxTargetName(target));
      for (DType t : {DType::kFloat8E4M3FN, DType::kFloat8E5M2}) ASSERT_TRUE(CheckCase(in, c, t, RoundMode::kRint, ScaleAlg::kOcp, 1));
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}

// bfloat16 and float16 inputs are encoded in 16-bit lanes (src/mx/blocks-inl.h, Encode16): every
// 16-bit pattern, both signs, at every scale code the OCP rule reaches. Rows of two blocks (so
// that one pair of 32-lane vectors holds blocks of different scales). Each block of 32: a
// max-magnitude pattern setting the scale (exponent field ea, mantissa all ones), then 31
// patterns no larger. float16: all patterns below each of the 31 amax binades; bfloat16: the 41
// binades below each of the 255 amax binades (deeper ones are below a quarter of every format's
// smallest step at that scale, and are in the rows of smaller amax), subnormals and zeros included;
// first, two blocks of zeros (scale code 0: the FP8 path's per-block constant wraps there), then
// for float16 a block of amax 2^-24 beside one of amax 65504 over subnormal inputs, then blocks of
// every subnormal amax 2^(j+1) - 1 below the largest one (float16 -> E5M2 blocks of amax below
// 2^-17: the FP8 path's kdk leaves int16). rint and round (FP4/FP6), against the model, on
// every compiled SIMD target this CPU runs.
TEST(MxQuantize, Every16BitPatternAtEveryScale) {
  const auto targets = MxTargets();
  for (DType in_type : {DType::kBFloat16, DType::kFloat16}) {
    const bool bf = in_type == DType::kBFloat16;
    const int K = bf ? 7 : 10, top = bf ? 254 : 30, window = bf ? 40 : 30;
    std::vector<uint16_t> raw(64, 0);  // a block of zeros (E = 0), then one of zeros of both signs
    for (size_t i = 33; i < 64; i += 2) raw[i] = 0x8000;
    uint32_t k = 0;
    auto blocks = [&](uint16_t amax, uint32_t from) {  // the patterns from..amax, rows led by amax
      for (uint32_t a = from; a <= amax; ++k) {
        if (raw.size() % 32 == 0) raw.push_back(amax);
        raw.push_back(static_cast<uint16_t>(a | (((k * 0x9E3779B9u) >> 31) << 15)));  // sign: top bit of a golden-ratio hash
        ++a;
      }
      while (raw.size() % 32 != 0) raw.push_back(0);
    };
    if (!bf) {  // blocks 2 and 3 (one pair of 32-lane vectors): amax 2^-24, then amax 65504 over
      // subnormal inputs (the table path's signed difference for the pair saturates there)
      blocks(1, 0);
      raw.push_back(0x7BFF);
      for (uint16_t a = 1; a < 32; ++a) raw.push_back(static_cast<uint16_t>(a | ((a & 1) << 15)));
    }
    for (int j = 0; j + 1 < K; ++j) blocks(static_cast<uint16_t>((2 << j) - 1), 0);
    for (int ea = 0; ea <= top; ++ea) {
      blocks(static_cast<uint16_t>((ea << K) | ((1 << K) - 1)), static_cast<uint32_t>(std::max(0, ea - window)) << K);
    }
    raw.resize((raw.size() + 63) / 64 * 64, 0);  // rows of two blocks: the kernels' pairs of 32-lane vectors span both
    const int64_t n = static_cast<int64_t>(raw.size());
    std::vector<float> values(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
      if (bf) {
        values[i] = FromBits(detail::BFloat16ToBits(raw[i]));
      } else {
        NativeHalf h;
        std::memcpy(&h, &raw[i], 2);
        values[i] = static_cast<float>(h);
      }
    }
    const std::vector<int64_t> shape = {n / 64, 64};
    int64_t storage[8];
    const auto sshape = scale_shape(shape, -1, 32, storage);
    for (DType t : kElems) {
      for (RoundMode mode : {RoundMode::kRint, RoundMode::kRound}) {
        if (BitsOf(t) == 8 && mode != RoundMode::kRint) continue;
        std::vector<uint8_t> want, want_scales;
        reference::Quantize(values, shape, -1, t, 32, mode, ScaleAlg::kOcp, &want, &want_scales);
        for (int64_t target : targets) {
          hwy::SetSupportedTargetsForTest(target);
          SCOPED_TRACE(MxTargetName(target) + " " + dtype_name(t) + " from " + dtype_name(in_type) +
                       (mode == RoundMode::kRint ? " rint" : " round"));
          std::vector<uint8_t> y(storage_bytes(t, static_cast<size_t>(n))), s(static_cast<size_t>(n / 16));
          QuantizeOptions o;
          o.dst_type = t;
          o.round_mode = mode == RoundMode::kRint ? "rint" : "round";
          o.threads = 1;
          const Error err = quantize({raw.data(), in_type, shape}, {y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, o);
          ASSERT_TRUE(err.ok()) << err.message;
          for (int64_t i = 0; i < n; ++i) {
            ASSERT_EQ(CodeAt(y, t, static_cast<size_t>(i)), want[static_cast<size_t>(i)])
                << "pattern 0x" << std::hex << raw[static_cast<size_t>(i)] << " in a block of amax 0x" << raw[static_cast<size_t>(i / 32 * 32)];
          }
          for (int64_t b = 0; b < n / 32; ++b) ASSERT_EQ(s[static_cast<size_t>(b)], want_scales[static_cast<size_t>(b)]);
          // float16 -> FP8 both ways (the last-axis kernel's choice from a call's first 8192 inputs,
          // ManySubnormal16): these patterns, subnormal ones first, take EncodeFp8Normalized for every
          // pair; behind 8192 zeros, EncodeFp8 and its flag.
          if (!bf && BitsOf(t) == 8) {
            constexpr size_t kZeros = 8192;
            std::vector<uint16_t> behind(kZeros + raw.size(), 0);
            std::copy(raw.begin(), raw.end(), behind.begin() + kZeros);
            const std::vector<int64_t> shape2 = {static_cast<int64_t>(behind.size()) / 64, 64};
            int64_t storage2[8];
            const auto sshape2 = scale_shape(shape2, -1, 32, storage2);
            std::vector<uint8_t> y2(storage_bytes(t, behind.size())), s2(behind.size() / 16);
            const Error err2 = quantize({behind.data(), in_type, shape2}, {y2.data(), t, shape2}, {s2.data(), DType::kFloat8E8M0, sshape2}, o);
            ASSERT_TRUE(err2.ok()) << err2.message;
            for (int64_t i = 0; i < n; ++i) {
              ASSERT_EQ(CodeAt(y2, t, kZeros + static_cast<size_t>(i)), want[static_cast<size_t>(i)])
                  << "behind zeros: pattern 0x" << std::hex << raw[static_cast<size_t>(i)] << " in a block of amax 0x"
                  << raw[static_cast<size_t>(i / 32 * 32)];
            }
          }
        }
        // The same blocks along axis 0 (each column one block, QuantizeInner's 16-bit lanes):
        // shape [32, cols], cols a multiple of 4 (padding blocks of zeros), several tiles wide.
        const int64_t cols = (n / 32 + 3) / 4 * 4;
        std::vector<uint16_t> rawT(static_cast<size_t>(32 * cols), 0);
        std::vector<float> valuesT(rawT.size(), 0.0f);
        for (int64_t j = 0; j < n / 32; ++j) {
          for (int64_t r = 0; r < 32; ++r) {
            rawT[static_cast<size_t>(r * cols + j)] = raw[static_cast<size_t>(j * 32 + r)];
            valuesT[static_cast<size_t>(r * cols + j)] = values[static_cast<size_t>(j * 32 + r)];
          }
        }
        const std::vector<int64_t> shapeT = {32, cols};
        int64_t storageT[8];
        const auto sshapeT = scale_shape(shapeT, 0, 32, storageT);
        std::vector<uint8_t> wantT, want_scalesT;
        reference::Quantize(valuesT, shapeT, 0, t, 32, mode, ScaleAlg::kOcp, &wantT, &want_scalesT);
        for (int64_t target : targets) {
          hwy::SetSupportedTargetsForTest(target);
          SCOPED_TRACE(MxTargetName(target) + " axis 0 " + dtype_name(t) + " from " + dtype_name(in_type) +
                       (mode == RoundMode::kRint ? " rint" : " round"));
          std::vector<uint8_t> y(storage_bytes(t, rawT.size())), s(static_cast<size_t>(2 * cols));
          QuantizeOptions o;
          o.dst_type = t, o.axis = 0;
          o.round_mode = mode == RoundMode::kRint ? "rint" : "round";
          o.threads = 1;
          const Error err = quantize({rawT.data(), in_type, shapeT}, {y.data(), t, shapeT}, {s.data(), DType::kFloat8E8M0, sshapeT}, o);
          ASSERT_TRUE(err.ok()) << err.message;
          for (size_t i = 0; i < rawT.size(); ++i) {
            ASSERT_EQ(CodeAt(y, t, i), wantT[i]) << "pattern 0x" << std::hex << rawT[i] << " in column " << std::dec << i % cols;
          }
          for (int64_t j = 0; j < cols; ++j) ASSERT_EQ(s[static_cast<size_t>(2 * j)], want_scalesT[static_cast<size_t>(j)]);
          // float16 -> FP8 both ways (the inner-axis kernel's choice from a call's first 8192
          // inputs, ManySubnormal16): the same columns behind a block of zeros (EncodeFp8 and its
          // flag) and behind one of subnormal inputs (every pair by EncodeFp8Normalized first).
          for (const bool subnormal : {false, true}) {
            if (bf || BitsOf(t) != 8) break;
            std::vector<uint16_t> behind(2 * rawT.size(), 0);
            for (size_t i = 0; i < rawT.size(); ++i) {
              if (subnormal) behind[i] = static_cast<uint16_t>(i % 1023 + 1);
              behind[rawT.size() + i] = rawT[i];
            }
            const std::vector<int64_t> shape2 = {64, cols};
            int64_t storage2[8];
            const auto sshape2 = scale_shape(shape2, 0, 32, storage2);
            std::vector<uint8_t> y2(storage_bytes(t, behind.size())), s2(static_cast<size_t>(2 * cols));
            const Error err2 = quantize({behind.data(), in_type, shape2}, {y2.data(), t, shape2}, {s2.data(), DType::kFloat8E8M0, sshape2}, o);
            ASSERT_TRUE(err2.ok()) << err2.message;
            for (size_t i = 0; i < rawT.size(); ++i) {
              ASSERT_EQ(CodeAt(y2, t, rawT.size() + i), wantT[i]) << (subnormal ? "behind subnormal inputs" : "behind zeros") << ": pattern 0x"
                                                                  << std::hex << rawT[i] << " in column " << std::dec << i % cols;
            }
          }
        }
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}

// Blocks the spec singles out: NaN/Inf (scale 0xFF, elements +0), all zero and -0, subnormal
// only (code 0), tiny (amax < 2^-120: the true 2^127 factor), huge (E1M2 reaches code 254).
TEST(MxQuantize, SpecialBlocks) {
  const int64_t shape[1] = {32};
  auto run = [&](std::vector<float> x, DType t, std::vector<uint8_t>* y, uint8_t* scale) {
    x.resize(32, 0.0f);
    y->assign(storage_bytes(t, 32), 0xA5);
    uint8_t s[2] = {0xA5, 0xA5};
    const int64_t sshape[2] = {1, 2};
    QuantizeOptions o;
    o.dst_type = t;
    ASSERT_TRUE(quantize({x.data(), DType::kFloat32, shape}, {y->data(), t, shape}, {s, DType::kFloat8E8M0, sshape}, o).ok());
    EXPECT_EQ(s[1], 0x00);  // padding
    *scale = s[0];
  };
  std::vector<uint8_t> y;
  uint8_t e;
  run({1.0f, NAN, -2.0f}, DType::kFloat8E4M3FN, &y, &e);
  EXPECT_EQ(e, 0xFF);
  for (uint8_t c : y) EXPECT_EQ(c, 0x00);
  run({-INFINITY, 3.0f}, DType::kFloat4E2M1, &y, &e);
  EXPECT_EQ(e, 0xFF);
  for (uint8_t c : y) EXPECT_EQ(c, 0x00);
  run({0.0f, -0.0f}, DType::kFloat8E4M3FN, &y, &e);
  EXPECT_EQ(e, 0);
  EXPECT_EQ(y[0], 0x00);
  EXPECT_EQ(y[1], 0x80);
  run({0x1p-125f, 0x1p-126f}, DType::kFloat4E2M1, &y, &e);  // survey 2.7: golden 6 4, scale 0
  EXPECT_EQ(e, 0);
  EXPECT_EQ(y[0], 0x6 | (0x4 << 4));
  run({0x1p-140f, -0x1p-149f}, DType::kFloat8E4M3FN, &y, &e);  // subnormal only: code 0
  EXPECT_EQ(e, 0);
  EXPECT_EQ(y[0], encode(0x1p-13f, DType::kFloat8E4M3FN));
  EXPECT_EQ(y[1], 0x80);
  run({0x1.8p127f, 1.0f}, DType::kFloat4E1M2, &y, &e);
  EXPECT_EQ(e, 254);
  EXPECT_EQ(y[0], 0x6);  // 1.5
}

// Dequantize: value(code) * 2^(E - 127), exact in float32, then one rounding to float16/bfloat16,
// on every compiled SIMD target this CPU runs.
TEST(MxDequantize, ExactAndRounded) {
  for (int64_t target : MxTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(MxTargetName(target));
    std::mt19937 rng(5);
    for (const Case& c : Cases()) {
      size_t n = 1;
      for (auto d : c.shape) n *= static_cast<size_t>(d);
      const Input in = MakeInput(DType::kFloat32, n, rng, 0.002);
      for (DType t : kElems) {
        if (BitsOf(t) == 6 && c.shape.back() % 4 != 0) continue;
        int64_t storage[8];
        const auto sshape = scale_shape(c.shape, c.axis, c.blocksize, storage);
        size_t ns = 1;
        for (auto d : sshape) ns *= static_cast<size_t>(d);
        std::vector<uint8_t> y(storage_bytes(t, n)), s(ns);
        QuantizeOptions o;
        o.axis = c.axis, o.dst_type = t, o.blocksize = c.blocksize;
        ASSERT_TRUE(quantize({in.raw.data(), DType::kFloat32, c.shape}, {y.data(), t, c.shape}, {s.data(), DType::kFloat8E8M0, sshape}, o).ok());
        std::vector<uint8_t> codes, scales;
        reference::Quantize(in.values, c.shape, c.axis, t, c.blocksize, RoundMode::kRint, ScaleAlg::kOcp, &codes, &scales);
        const int64_t rank = static_cast<int64_t>(c.shape.size()), a = c.axis < 0 ? c.axis + rank : c.axis;
        int64_t post = 1;
        for (int64_t i = a + 1; i < rank; ++i) post *= c.shape[i];
        const int64_t dim = c.shape[a], nb = (dim + c.blocksize - 1) / c.blocksize;
        std::vector<double> want(n);
        for (size_t i = 0; i < n; ++i) {
          const int64_t q = static_cast<int64_t>(i) % post, tt = (static_cast<int64_t>(i) / post) % dim, p = static_cast<int64_t>(i) / post / dim;
          want[i] = reference::Value(codes[i], t) * reference::ScaleValue(scales[(p * nb + tt / c.blocksize) * post + q]);
        }
        DequantizeOptions d;
        d.axis = c.axis, d.blocksize = c.blocksize;
        std::vector<float> x32(n);
        ASSERT_TRUE(dequantize({y.data(), t, c.shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x32.data(), DType::kFloat32, c.shape}, d).ok());
        std::vector<uint16_t> x16(n), xb(n);
        ASSERT_TRUE(dequantize({y.data(), t, c.shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x16.data(), DType::kFloat16, c.shape}, d).ok());
        ASSERT_TRUE(dequantize({y.data(), t, c.shape}, {s.data(), DType::kFloat8E8M0, sshape}, {xb.data(), DType::kBFloat16, c.shape}, d).ok());
        for (size_t i = 0; i < n; ++i) {
          const double w = want[i];
          if (std::isnan(w)) {
            ASSERT_TRUE(std::isnan(x32[i])) << i;
            continue;
          }
          ASSERT_EQ(double(x32[i]), w) << dtype_name(t) << " element " << i;  // exact
          ASSERT_EQ(std::signbit(x32[i]), std::signbit(w)) << i;
          const NativeHalf h = static_cast<NativeHalf>(w);  // GCC rounds double -> half to nearest even once
          uint16_t hb;
          std::memcpy(&hb, &h, 2);
          ASSERT_EQ(x16[i], hb) << dtype_name(t) << " f16 element " << i << " value " << w;
          // bfloat16: round the float32 (exact) to 8 significant bits, half to even.
          const uint32_t b = Bits(x32[i]);
          const uint16_t rb = static_cast<uint16_t>((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
          ASSERT_EQ(xb[i], rb) << dtype_name(t) << " bf16 element " << i;
        }
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}

// Every element code at every scale code E = 0..255, on every target, to each output type: rows of
// one block (blocksize 256) whose E is the row number, the row holding every code (FP4/FP6 codes
// repeat). Small E make float32 subnormals, whose bfloat16 and float16 roundings the fast paths
// must not skip (the bfloat16 path truncates only from E = 1 - emin + mbits up); large E overflow.
TEST(MxDequantize, EveryCodeAtEveryScale) {
  constexpr int64_t kBs = 256;
  const std::vector<int64_t> shape = {256, kBs};
  int64_t storage[8];
  const auto sshape = scale_shape(shape, -1, kBs, storage);
  std::vector<uint8_t> s(512, 0);
  for (int e = 0; e < 256; ++e) s[2 * e] = static_cast<uint8_t>(e);
  // The first target's outputs per element type: every other target must give the same bytes,
  // NaN payloads included (the value checks below look at a NaN's class only).
  std::map<DType, std::tuple<std::vector<float>, std::vector<uint16_t>, std::vector<uint16_t>>> first;
  for (int64_t target : MxTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(MxTargetName(target));
    for (DType t : kElems) {
      const int bits = BitsOf(t);
      std::vector<uint8_t> codes(256 * kBs), codes_t(codes.size());
      for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint8_t>(i % (size_t{1} << bits));
      for (size_t i = 0; i < codes.size(); ++i) codes_t[i % kBs * 256 + i / kBs] = codes[i];  // transposed
      auto pack = [&](const std::vector<uint8_t>& c) {  // as the API packs them
        std::vector<uint8_t> y(storage_bytes(t, c.size()));
        for (size_t i = 0; i < c.size(); i += 4) {
          if (bits == 8) {
            std::memcpy(&y[i], &c[i], 4);
          } else if (bits == 4) {
            y[i / 2] = c[i] | c[i + 1] << 4, y[i / 2 + 1] = c[i + 2] | c[i + 3] << 4;
          } else {
            const uint32_t w = c[i] | c[i + 1] << 6 | c[i + 2] << 12 | uint32_t(c[i + 3]) << 18;
            y[3 * i / 4] = uint8_t(w), y[3 * i / 4 + 1] = uint8_t(w >> 8), y[3 * i / 4 + 2] = uint8_t(w >> 16);
          }
        }
        return y;
      };
      const std::vector<uint8_t> y = pack(codes), y_t = pack(codes_t);
      DequantizeOptions d;
      d.blocksize = kBs;
      std::vector<float> x32(codes.size());
      std::vector<uint16_t> x16(codes.size()), xb(codes.size());
      ASSERT_TRUE(dequantize({y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x32.data(), DType::kFloat32, shape}, d).ok());
      ASSERT_TRUE(dequantize({y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x16.data(), DType::kFloat16, shape}, d).ok());
      ASSERT_TRUE(dequantize({y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {xb.data(), DType::kBFloat16, shape}, d).ok());
      // The same codes transposed, blocks along axis 0 (column j has scale code j, the same bytes of
      // mxscale): the per-element-scale path must give the last axis's bits, NaNs included.
      {
        const std::vector<int64_t> shape_t = {kBs, 256};
        int64_t storage_t[8];
        const auto sshape_t = scale_shape(shape_t, 0, kBs, storage_t);
        DequantizeOptions d0 = d;
        d0.axis = 0;
        std::vector<float> t32(codes.size());
        std::vector<uint16_t> t16(codes.size()), tb(codes.size());
        ASSERT_TRUE(dequantize({y_t.data(), t, shape_t}, {s.data(), DType::kFloat8E8M0, sshape_t}, {t32.data(), DType::kFloat32, shape_t}, d0).ok());
        ASSERT_TRUE(dequantize({y_t.data(), t, shape_t}, {s.data(), DType::kFloat8E8M0, sshape_t}, {t16.data(), DType::kFloat16, shape_t}, d0).ok());
        ASSERT_TRUE(dequantize({y_t.data(), t, shape_t}, {s.data(), DType::kFloat8E8M0, sshape_t}, {tb.data(), DType::kBFloat16, shape_t}, d0).ok());
        for (size_t i = 0; i < codes.size(); ++i) {
          const size_t k = i % kBs * 256 + i / kBs;
          ASSERT_TRUE(Bits(t32[k]) == Bits(x32[i]) && t16[k] == x16[i] && tb[k] == xb[i])
              << dtype_name(t) << " code " << int(codes[i]) << " E " << i / kBs << ": axis 0 gives " << std::hex
              << Bits(t32[k]) << " / " << t16[k] << " / " << tb[k] << ", the last axis " << Bits(x32[i]) << " / " << x16[i] << " / " << xb[i];
        }
      }
      if (!first.count(t)) first[t] = {x32, x16, xb};
      for (size_t i = 0; i < codes.size(); ++i) {
        const auto& [f32, f16, bf16] = first[t];
        ASSERT_TRUE(Bits(x32[i]) == Bits(f32[i]) && x16[i] == f16[i] && xb[i] == bf16[i])
            << dtype_name(t) << " code " << int(codes[i]) << " E " << i / kBs << ": float32 / float16 / bfloat16 bits "
            << std::hex << Bits(x32[i]) << " / " << x16[i] << " / " << xb[i] << " here, " << Bits(f32[i]) << " / "
            << f16[i] << " / " << bf16[i] << " on the first target";
      }
      for (size_t i = 0; i < codes.size(); ++i) {
        const double w = reference::Value(codes[i], t) * reference::ScaleValue(static_cast<uint8_t>(i / kBs));
        if (std::isnan(w)) {
          ASSERT_TRUE(std::isnan(x32[i]) && (x16[i] & 0x7FFF) > 0x7C00 && (xb[i] & 0x7FFF) > 0x7F80) << i;
          continue;
        }
        // Exact in float32 (at most 4 significant bits, nothing below 2^-149), or past 2^128: +-inf.
        ASSERT_EQ(x32[i], static_cast<float>(w)) << dtype_name(t) << " code " << int(codes[i]) << " E " << i / kBs;
        ASSERT_TRUE(std::isinf(x32[i]) || double(x32[i]) == w) << i;
        ASSERT_EQ(std::signbit(x32[i]), std::signbit(w)) << i;
        const NativeHalf h = static_cast<NativeHalf>(w);
        uint16_t hb;
        std::memcpy(&hb, &h, 2);
        ASSERT_EQ(x16[i], hb) << dtype_name(t) << " f16, code " << int(codes[i]) << " E " << i / kBs;
        const uint32_t b = Bits(x32[i]);
        const uint16_t rb = static_cast<uint16_t>((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
        ASSERT_EQ(xb[i], rb) << dtype_name(t) << " bf16, code " << int(codes[i]) << " E " << i / kBs;
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}

// ---- validation: each bad parameter gives its code and name, and nothing is written -----------
struct Bufs {
  std::vector<float> x = std::vector<float>(64, 1.0f);
  std::vector<uint8_t> y = std::vector<uint8_t>(64, 0xA5), s = std::vector<uint8_t>(8, 0xA5);
  bool Untouched() const {
    for (uint8_t b : y) if (b != 0xA5) return false;
    for (uint8_t b : s) if (b != 0xA5) return false;
    return true;
  }
};

Error Try(Bufs& b, std::vector<int64_t> xshape, QuantizeOptions o, std::vector<int64_t> yshape,
          std::vector<int64_t> sshape, DType xtype = DType::kFloat32, DType ytype = DType(-1),
          DType stype = DType::kFloat8E8M0, bool null_x = false) {
  if (ytype == DType(-1)) ytype = o.dst_type;
  return quantize({null_x ? nullptr : b.x.data(), xtype, xshape}, {b.y.data(), ytype, yshape}, {b.s.data(), stype, sshape}, o);
}

TEST(MxQuantize, Validation) {
  QuantizeOptions fp8;
  fp8.dst_type = DType::kFloat8E4M3FN;
  QuantizeOptions fp4;  // e2m1, the default
  const std::vector<int64_t> x{2, 32}, s{2, 1, 2};
  struct Expect { int32_t code; const char* param; };
  auto check = [&](Error e, Expect want, Bufs& b) {
    EXPECT_EQ(e.code, want.code) << e.message;
    EXPECT_EQ(e.param, want.param) << e.message;
    EXPECT_NE(e.message.find(want.param), std::string::npos) << e.message;
    EXPECT_TRUE(b.Untouched()) << e.message;
  };
  {
    Bufs b;
    check(Try(b, x, fp8, x, s, DType::kFloat32, DType(-1), DType::kFloat8E8M0, true), {kErrNullptr, "x"}, b);
    check(quantize({b.x.data(), DType::kFloat32, x}, {nullptr, DType::kFloat8E4M3FN, x}, {b.s.data(), DType::kFloat8E8M0, s}, fp8), {kErrNullptr, "y"}, b);
    check(quantize({b.x.data(), DType::kFloat32, x}, {b.y.data(), DType::kFloat8E4M3FN, x}, {nullptr, DType::kFloat8E8M0, s}, fp8), {kErrNullptr, "mxscale"}, b);
    check(Try(b, {0, 32}, fp8, {0, 32}, {0, 1, 2}), {kErrParamInvalid, "x"}, b);        // empty
    check(Try(b, {}, fp8, {}, {2}), {kErrParamInvalid, "x"}, b);                         // rank 0
    check(Try(b, {1, 1, 1, 1, 1, 1, 1, 32}, fp8, {1, 1, 1, 1, 1, 1, 1, 32}, {1, 1, 1, 1, 1, 1, 1, 1, 2}), {kErrParamInvalid, "x"}, b);  // rank 8
    check(Try(b, x, fp8, x, s, DType::kUInt8), {kErrParamInvalid, "x"}, b);             // x dtype
    QuantizeOptions o = fp8;
    o.dst_type = DType::kFloat8E8M0;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "dst_type"}, b);
    o = fp8, o.round_mode = "floor";
    check(Try(b, x, o, x, s), {kErrParamInvalid, "round_mode"}, b);                    // FP8 only rint
    o = fp4, o.round_mode = "RINT";
    check(Try(b, x, o, x, s), {kErrParamInvalid, "round_mode"}, b);                    // exact strings
    o = fp4, o.scale_alg = 1;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "scale_alg"}, b);                     // rceil: FP8 only
    o = fp8, o.scale_alg = 4;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "scale_alg"}, b);
    o = fp8, o.blocksize = 48;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "blocksize"}, b);
    o = fp8, o.blocksize = 1056;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "blocksize"}, b);
    o = fp8, o.blocksize = 0;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "blocksize"}, b);
    o = fp8, o.axis = 2;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "axis"}, b);
    o = fp8, o.axis = -3;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "axis"}, b);
    check(Try(b, {32, 3}, fp4, {32, 3}, {1, 3, 2}), {kErrParamInvalid, "x"}, b);       // FP4 odd last dim
    o = fp4, o.dst_type = DType::kFloat6E3M2;
    check(Try(b, {32, 6}, o, {32, 6}, {1, 6, 2}), {kErrParamInvalid, "x"}, b);        // FP6 last dim % 4
    check(Try(b, x, fp8, x, s, DType::kFloat32, DType::kFloat8E5M2), {kErrParamInvalid, "y"}, b);  // y dtype
    check(Try(b, x, fp8, {2, 31}, s), {kErrParamInvalid, "y"}, b);                     // y shape
    check(Try(b, x, fp8, x, {2, 2}), {kErrParamInvalid, "mxscale"}, b);                 // mxscale shape
    check(Try(b, x, fp8, x, {2, 1, 2}, DType::kFloat32, DType(-1), DType::kUInt8), {kErrParamInvalid, "mxscale"}, b);
    o = fp8, o.threads = -1;
    check(Try(b, x, o, x, s), {kErrParamInvalid, "threads"}, b);
    // y inside x's bytes
    check(quantize({b.x.data(), DType::kFloat32, x}, {b.x.data() + 8, DType::kFloat8E4M3FN, x}, {b.s.data(), DType::kFloat8E8M0, s}, fp8),
          {kErrParamInvalid, "y"}, b);
  }
  // The two-phase form reports the same, and run refuses a plan that was not validated.
  Bufs b;
  uint64_t ws = 1;
  QuantizePlan plan;
  QuantizeOptions o = fp8;
  o.axis = 5;
  Error e = get_workspace_size({b.x.data(), DType::kFloat32, x}, o, {b.y.data(), DType::kFloat8E4M3FN, x}, {b.s.data(), DType::kFloat8E8M0, s}, &ws, &plan);
  EXPECT_EQ(e.param, "axis");
  EXPECT_FALSE(plan.valid);
  EXPECT_EQ(run(nullptr, 0, plan).code, kErrParamInvalid);
  EXPECT_TRUE(b.Untouched());
  e = get_workspace_size({b.x.data(), DType::kFloat32, x}, fp8, {b.y.data(), DType::kFloat8E4M3FN, x}, {b.s.data(), DType::kFloat8E8M0, s}, &ws, &plan);
  ASSERT_TRUE(e.ok()) << e.message;
  EXPECT_EQ(ws, 0u);
  EXPECT_TRUE(b.Untouched());  // get_workspace_size writes nothing
  ASSERT_TRUE(run(nullptr, ws, plan).ok());
  EXPECT_EQ(b.s[0], 119);  // amax 1.0: E = 127 + floor(log2 1) - emax(8)
}

TEST(MxDequantize, Validation) {
  std::vector<uint8_t> y(64, 0), s(4, 127);
  std::vector<float> x(64, 7.0f);
  const std::vector<int64_t> shape{2, 32}, sshape{2, 1, 2};
  DequantizeOptions o;
  auto untouched = [&] { for (float v : x) if (v != 7.0f) return false; return true; };
  Error e = dequantize({nullptr, DType::kFloat8E4M3FN, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x.data(), DType::kFloat32, shape}, o);
  EXPECT_EQ(e.code, kErrNullptr);
  EXPECT_EQ(e.param, "y");
  e = dequantize({y.data(), DType::kFloat32, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x.data(), DType::kFloat32, shape}, o);
  EXPECT_EQ(e.param, "y");
  e = dequantize({y.data(), DType::kFloat8E4M3FN, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x.data(), DType::kUInt8, shape}, o);
  EXPECT_EQ(e.param, "x");
  e = dequantize({y.data(), DType::kFloat8E4M3FN, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x.data(), DType::kFloat32, sshape}, o);
  EXPECT_EQ(e.param, "x");
  e = dequantize({y.data(), DType::kFloat8E4M3FN, shape}, {s.data(), DType::kFloat8E8M0, shape}, {x.data(), DType::kFloat32, shape}, o);
  EXPECT_EQ(e.param, "mxscale");
  o.blocksize = 16;
  e = dequantize({y.data(), DType::kFloat8E4M3FN, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {x.data(), DType::kFloat32, shape}, o);
  EXPECT_EQ(e.param, "blocksize");
  EXPECT_TRUE(untouched());
}

}  // namespace
}  // namespace accelmath::mx

namespace accelmath::mx {
namespace {

// ggml layout: our E2M1 quantization with element j and j + 16 sharing byte j, read by this
// file's own code; the inverse gives dequantize's values; sizes are checked.
TEST(MxGgml, LayoutAndInverse) {
  std::mt19937 rng(17);
  const size_t n = 32 * 40;
  const Input in = MakeInput(DType::kFloat32, n, rng, 0.01);
  const int64_t shape[2] = {40, 32}, sshape[3] = {40, 1, 2};
  std::vector<uint8_t> y(n / 2), s(80), blocks(40 * 17);
  QuantizeOptions o;
  ASSERT_TRUE(quantize({in.raw.data(), DType::kFloat32, shape}, {y.data(), DType::kFloat4E2M1, shape}, {s.data(), DType::kFloat8E8M0, sshape}, o).ok());
  ASSERT_TRUE(to_ggml_mxfp4(in.values, blocks).ok());
  for (size_t b = 0; b < 40; ++b) {
    EXPECT_EQ(blocks[17 * b], s[2 * b]) << b;
    for (size_t j = 0; j < 16; ++j) {
      EXPECT_EQ(blocks[17 * b + 1 + j] & 0xF, CodeAt(y, DType::kFloat4E2M1, 32 * b + j));
      EXPECT_EQ(blocks[17 * b + 1 + j] >> 4, CodeAt(y, DType::kFloat4E2M1, 32 * b + j + 16));
    }
  }
  std::vector<float> back(n), want(n);
  ASSERT_TRUE(from_ggml_mxfp4(blocks, back).ok());
  ASSERT_TRUE(dequantize({y.data(), DType::kFloat4E2M1, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {want.data(), DType::kFloat32, shape}).ok());
  for (size_t i = 0; i < n; ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(back[i])) << i;
    else EXPECT_EQ(Bits(back[i]), Bits(want[i])) << i;
  }
  std::vector<float> bad(33);
  EXPECT_EQ(to_ggml_mxfp4(bad, blocks).param, "x");
  EXPECT_EQ(to_ggml_mxfp4(std::span<const float>(in.values.data(), 64), blocks).param, "blocks");
  EXPECT_EQ(from_ggml_mxfp4(std::span<const uint8_t>(blocks.data(), 16), back).param, "blocks");
  EXPECT_EQ(from_ggml_mxfp4(blocks, std::span<float>(back.data(), 64)).param, "x");
}

}  // namespace
}  // namespace accelmath::mx
