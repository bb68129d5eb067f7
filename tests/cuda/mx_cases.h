// MX cases shared by the GPU check (tests/cuda/device_check.cu) and the host run of the GPU's element
// code (tests/test_cuda_mx_elements.cc): every input type x element type x rounding x scale rule the
// validation accepts, on layouts that cover the last axis and an inner axis, a partial last block,
// an odd block count (a pad scale byte) and blocks of 32 and 64; inputs with a spread of exponents
// per block, zeros, subnormals, and blocks holding Inf or NaN.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "accelmath/mx.h"
#include "accelmath/types.h"

namespace accelmath::mxcases {

using mx::DType;

struct Case {
  DType x_type, dst;
  const char* round;
  int64_t alg;
  std::vector<int64_t> shape;
  int64_t axis, blocksize;
  std::string name() const {
    std::string s = mx::dtype_name(x_type);
    s += std::string("->") + mx::dtype_name(dst) + " " + round + " alg" + std::to_string(alg) + " [";
    for (size_t i = 0; i < shape.size(); ++i) {
      if (i) s += ",";
      s += std::to_string(shape[i]);
    }
    s += "] axis " + std::to_string(axis) + " bs " + std::to_string(blocksize);
    return s;
  }
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

inline const DType kFloatTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
inline const DType kElemTypes[] = {DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kFloat6E3M2,
                                   DType::kFloat6E2M3,   DType::kFloat4E2M1, DType::kFloat4E1M2};

inline bool IsFp8(DType t) { return t == DType::kFloat8E4M3FN || t == DType::kFloat8E5M2; }

inline std::vector<Case> Cases() {
  struct Layout {
    std::vector<int64_t> shape;
    int64_t axis, bs;
  };
  const Layout layouts[] = {
      {{16, 256}, -1, 32},    // last axis, whole blocks, even count
      {{5, 160}, -1, 64},     // last axis, 3 blocks: a partial one and a pad scale byte
      {{7, 80}, -1, 32},      // last axis, 3 blocks, the last 16 long (half a warp)
      {{3, 100, 8}, 1, 32},   // inner axis, 4 blocks, the last partial
      {{2, 70, 12}, -2, 64},  // inner axis, 2 blocks, the last partial
      {{96, 4}, 0, 32},       // the first axis of a matrix, 3 blocks
  };
  std::vector<Case> out;
  for (DType xt : kFloatTypes) {
    for (DType dst : kElemTypes) {
      for (const char* round : {"rint", "round", "floor"}) {
        if (IsFp8(dst) && std::string(round) != "rint") continue;
        for (int64_t alg = 0; alg < 4; ++alg) {
          if (alg == 1 && !IsFp8(dst)) continue;
          for (const Layout& l : layouts) out.push_back({xt, dst, round, alg, l.shape, l.axis, l.bs});
        }
      }
    }
  }
  return out;
}

inline uint64_t Mix(uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Float32 values for a tensor of n elements: runs of 32 share a base exponent (so blocks along the
// last axis look like real data), each element within 2^-12 .. 2^0 of it; about 1 in 64 elements
// is a zero, 1 in 256 a subnormal, and 1 in 512 an Inf or a NaN (which makes its block's scale 0xFF).
inline std::vector<float> Values(int64_t n, uint64_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = Mix(seed * 0x100000001ull + static_cast<uint64_t>(i));
    const int base = static_cast<int>(Mix(seed + static_cast<uint64_t>(i / 32)) % 250) - 125;
    const int e = base - static_cast<int>(r % 13);
    uint32_t bits = static_cast<uint32_t>(((r >> 8) & 1) << 31);
    const uint32_t man = static_cast<uint32_t>(r >> 9) & 0x7FFFFF;
    const int kind = static_cast<int>((r >> 40) % 512);
    if (kind == 0) bits |= 0x7F800000u;  // Inf
    else if (kind == 1) bits |= 0x7FC00000u | (man & 0xFFFF);  // NaN
    else if (kind < 9) bits |= 0;  // zero
    else if (kind < 11) bits |= man;  // subnormal (or zero)
    else bits |= (static_cast<uint32_t>(e < -126 ? 1 : e + 127) << 23) | man;
    v[static_cast<size_t>(i)] = std::bit_cast<float>(bits);
  }
  return v;
}

// The case's input tensor as raw bytes of its x_type (float16/bfloat16: the values rounded once).
inline std::vector<uint8_t> Input(const Case& c, uint64_t seed) {
  const std::vector<float> v = Values(c.count(), seed);
  const size_t width = c.x_type == DType::kFloat32 ? 4 : 2;
  std::vector<uint8_t> raw(v.size() * width);
  for (size_t i = 0; i < v.size(); ++i) {
    if (c.x_type == DType::kFloat32) {
      std::memcpy(&raw[4 * i], &v[i], 4);
    } else {
      const uint16_t h = c.x_type == DType::kFloat16 ? to_float16(v[i]).bits : to_bfloat16(v[i]).bits;
      std::memcpy(&raw[2 * i], &h, 2);
    }
  }
  return raw;
}

inline mx::QuantizeOptions Options(const Case& c) {
  mx::QuantizeOptions o;
  o.axis = c.axis, o.dst_type = c.dst, o.blocksize = c.blocksize, o.round_mode = c.round, o.scale_alg = c.alg;
  return o;
}

}  // namespace accelmath::mxcases
