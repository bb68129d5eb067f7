// The per-thread work of the CUDA MX kernels (src/cuda/mx_elements.h), run on the host over every
// index, against accelmath::mx on the CPU: the GPU's indexing, scale layout, packing and value rules
// are checked on every machine, with or without a GPU (tests/cuda/device_check.cu runs the same cases
// on a GPU). Byte for byte, codes, scales and values. The emulation takes the kernels' path: the
// chunk path where UseChunks holds, else one call per scale byte, unit or value.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../tests/cuda/mx_cases.h"
#include "accelmath/mx.h"
#include "cuda/mx_elements.h"

namespace accelmath::cuda::mx::detail {
namespace {

using accelmath::mx::DequantizeOptions;
using accelmath::mx::TensorView;
using accelmath::mx::MutableTensorView;
using mxcases::Case;

// Cases that took the chunk path (src/cuda/mx.cu's dispatch, mirrored here).
int g_chunk_quantize = 0, g_chunk_dequantize = 0;

template <DType kType, typename T>
void EmulateQuantize(const accelmath::mx::QuantizePlan& p) {
  const Layout l = Layout::Of(p.pre, p.dim, p.post, p.blocksize);
  const T* x = static_cast<const T*>(p.x);
  if (UseChunks(l, {p.x, p.y})) {
    ++g_chunk_quantize;
    auto* y = static_cast<uint8_t*>(p.y);
    for (int64_t w = 0; w < l.pre * l.nb; ++w) {
      switch (p.round) {
        case RoundMode::kRound: QuantizeBlockAt<kType, RoundMode::kRound>(x, p.scale, y, l, p.alg, w); break;
        case RoundMode::kFloor: QuantizeBlockAt<kType, RoundMode::kFloor>(x, p.scale, y, l, p.alg, w); break;
        default: QuantizeBlockAt<kType, RoundMode::kRint>(x, p.scale, y, l, p.alg, w); break;
      }
    }
    return;
  }
  for (int64_t s = 0; s < l.scale_bytes(); ++s) p.scale[s] = ScaleAt<kType>(x, l, p.alg, s);
  const int64_t units = p.pre * p.dim * p.post / PerUnit(kType);
  auto* y = static_cast<uint8_t*>(p.y);
  for (int64_t u = 0; u < units; ++u) {
    switch (p.round) {
      case RoundMode::kRound: CodesAt<kType, RoundMode::kRound>(x, p.scale, y, l, u); break;
      case RoundMode::kFloor: CodesAt<kType, RoundMode::kFloor>(x, p.scale, y, l, u); break;
      default: CodesAt<kType, RoundMode::kRint>(x, p.scale, y, l, u); break;
    }
  }
}

template <DType kType>
void EmulateQuantizeTyped(const accelmath::mx::QuantizePlan& p) {
  switch (p.x_type) {
    case DType::kFloat16: EmulateQuantize<kType, float16>(p); break;
    case DType::kBFloat16: EmulateQuantize<kType, bfloat16>(p); break;
    default: EmulateQuantize<kType, float>(p); break;
  }
}

template <DType kType, typename T>
void EmulateDequantize(const accelmath::mx::DequantizePlan& p) {
  const Layout l = Layout::Of(p.pre, p.dim, p.post, p.blocksize);
  if (UseChunks(l, {p.y, p.x})) {
    ++g_chunk_dequantize;
    for (int64_t q = 0; q < l.pre * l.dim / 4; ++q) {
      DequantizeQuadAt<kType>(static_cast<const uint8_t*>(p.y), p.scale, static_cast<T*>(p.x), l, q);
    }
    return;
  }
  const int64_t units = p.pre * p.dim * p.post / PerUnit(kType);
  for (int64_t u = 0; u < units; ++u) ValuesAt<kType>(static_cast<const uint8_t*>(p.y), p.scale, static_cast<T*>(p.x), l, u);
}

template <DType kType>
void EmulateDequantizeTyped(const accelmath::mx::DequantizePlan& p) {
  switch (p.x_type) {
    case DType::kFloat16: EmulateDequantize<kType, float16>(p); break;
    case DType::kBFloat16: EmulateDequantize<kType, bfloat16>(p); break;
    default: EmulateDequantize<kType, float>(p); break;
  }
}

TEST(CudaMxElements, QuantizeAndDequantizeMatchTheCpuOnEveryCase) {
  int cases = 0;
  for (const Case& c : mxcases::Cases()) {
    SCOPED_TRACE(c.name());
    const std::vector<uint8_t> x = mxcases::Input(c, static_cast<uint64_t>(cases) + 1);
    const int64_t n = c.count();
    int64_t storage[8];
    const auto sshape = accelmath::mx::scale_shape(c.shape, c.axis, c.blocksize, storage);
    ASSERT_FALSE(sshape.empty());
    size_t ns = 1;
    for (int64_t d : sshape) ns *= static_cast<size_t>(d);
    const size_t ny = accelmath::mx::storage_bytes(c.dst, static_cast<uint64_t>(n));
    std::vector<uint8_t> y_cpu(ny, 0xAA), s_cpu(ns, 0xAA), y_emu(ny, 0x55), s_emu(ns, 0x55);
    const TensorView xv{x.data(), c.x_type, c.shape};
    ASSERT_TRUE(accelmath::mx::quantize(xv, {y_cpu.data(), c.dst, c.shape}, {s_cpu.data(), DType::kFloat8E8M0, sshape},
                                        mxcases::Options(c)).ok());
    uint64_t ws = 0;
    accelmath::mx::QuantizePlan qp;
    ASSERT_TRUE(accelmath::mx::get_workspace_size(xv, mxcases::Options(c), {y_emu.data(), c.dst, c.shape},
                                                  {s_emu.data(), DType::kFloat8E8M0, sshape}, &ws, &qp).ok());
#define ACCELMATH_EMU_Q(T) EmulateQuantizeTyped<T>(qp)
    ACCELMATH_CUDA_MX_SWITCH(c.dst, ACCELMATH_EMU_Q)
#undef ACCELMATH_EMU_Q
    ASSERT_EQ(s_emu, s_cpu);
    ASSERT_EQ(y_emu, y_cpu);
    // Dequantize the codes to each float type, and random bytes under random scales (every code,
    // NaN codes and the NaN scale 0xFF included).
    std::vector<uint8_t> y_rand(ny), s_rand(ns);
    for (size_t i = 0; i < ny; ++i) y_rand[i] = static_cast<uint8_t>(mxcases::Mix(i + 77 * cases));
    for (size_t i = 0; i < ns; ++i) s_rand[i] = static_cast<uint8_t>(mxcases::Mix(i + 1000003ull * cases) % 8 == 0 ? 255 : mxcases::Mix(i + 5 * cases));
    for (const auto& [yy, ss] : {std::pair{&y_cpu, &s_cpu}, std::pair{&y_rand, &s_rand}}) {
      for (DType xt : mxcases::kFloatTypes) {
        const size_t nx = accelmath::mx::storage_bytes(xt, static_cast<uint64_t>(n));
        std::vector<uint8_t> x_cpu(nx, 0xAA), x_emu(nx, 0x55);
        DequantizeOptions o;
        o.axis = c.axis, o.blocksize = c.blocksize;
        const TensorView yv{yy->data(), c.dst, c.shape}, sv{ss->data(), DType::kFloat8E8M0, sshape};
        ASSERT_TRUE(accelmath::mx::dequantize(yv, sv, {x_cpu.data(), xt, c.shape}, o).ok());
        accelmath::mx::DequantizePlan dp;
        ASSERT_TRUE(accelmath::mx::get_workspace_size(yv, sv, o, {x_emu.data(), xt, c.shape}, &ws, &dp).ok());
#define ACCELMATH_EMU_D(T) EmulateDequantizeTyped<T>(dp)
        ACCELMATH_CUDA_MX_SWITCH(c.dst, ACCELMATH_EMU_D)
#undef ACCELMATH_EMU_D
        ASSERT_EQ(x_emu, x_cpu) << "dequantize to " << accelmath::mx::dtype_name(xt);
      }
    }
    ++cases;
  }
  EXPECT_EQ(cases, 3 * (2 * 4 + 4 * 3 * 3) * 6);  // x types * (FP8: 4 rules; FP6/FP4: 3 roundings x 3 rules) * layouts
  // Two of the six layouts take the chunk path (last axis, a multiple of 32 long): every rule of
  // them, and their dequantize to three types from two sets of codes.
  EXPECT_EQ(g_chunk_quantize, cases / 3);
  EXPECT_EQ(g_chunk_dequantize, cases / 3 * 2 * 3);
}

}  // namespace
}  // namespace accelmath::cuda::mx::detail
