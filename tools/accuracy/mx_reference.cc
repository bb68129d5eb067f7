#include "accuracy/mx_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace accelmath::mx::reference {

Format FormatOf(DType type) {
  switch (type) {
    case DType::kFloat8E4M3FN: return {8, 4, 3, 7, true, false};
    case DType::kFloat8E5M2: return {8, 5, 2, 15, false, true};
    case DType::kFloat6E3M2: return {6, 3, 2, 3, false, false};
    case DType::kFloat6E2M3: return {6, 2, 3, 1, false, false};
    case DType::kFloat4E2M1: return {4, 2, 1, 1, false, false};
    case DType::kFloat4E1M2: return {4, 1, 2, 1, false, false};
    default: return {0, 0, 0, 0, false, false};
  }
}

double Value(uint8_t code, DType type) {
  const Format f = FormatOf(type);
  const int mag_bits = f.bits - 1;
  const bool neg = (code >> mag_bits) & 1;
  const int mag = code & ((1 << mag_bits) - 1);
  const int e = mag >> f.mbits, m = mag & ((1 << f.mbits) - 1);
  double v;
  if (f.e4m3_nan && mag == (1 << mag_bits) - 1) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (f.ieee_inf && e == (1 << f.ebits) - 1) {
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (e == 0) {
    v = std::ldexp(m, 1 - f.bias - f.mbits);
  } else {
    v = std::ldexp((1 << f.mbits) + m, e - f.bias - f.mbits);
  }
  return neg ? -v : v;
}

namespace {
std::vector<double> MakeGrid(DType type) {
  const Format f = FormatOf(type);
  std::vector<double> g;
  for (int c = 0; c < (1 << (f.bits - 1)); ++c) {
    const double v = Value(static_cast<uint8_t>(c), type);
    if (!std::isfinite(v)) break;
    g.push_back(v);
  }
  return g;
}
// Finite non-negative grid: codes 0..max_code with their values (ascending).
const std::vector<double>& Grid(DType type, int* max_code) {
  static const std::vector<double> grids[6] = {
      MakeGrid(DType::kFloat8E4M3FN), MakeGrid(DType::kFloat8E5M2), MakeGrid(DType::kFloat6E3M2),
      MakeGrid(DType::kFloat6E2M3),   MakeGrid(DType::kFloat4E2M1), MakeGrid(DType::kFloat4E1M2)};
  const int i = type == DType::kFloat8E4M3FN ? 0 : type == DType::kFloat8E5M2 ? 1 : type == DType::kFloat6E3M2 ? 2
              : type == DType::kFloat6E2M3 ? 3 : type == DType::kFloat4E2M1 ? 4 : 5;
  *max_code = static_cast<int>(grids[i].size()) - 1;
  return grids[i];
}
}  // namespace

uint8_t Encode(double x, DType type, RoundMode mode) {
  const Format f = FormatOf(type);
  const uint8_t sign = static_cast<uint8_t>(1u << (f.bits - 1));
  int max_code;
  const std::vector<double>& g = Grid(type, &max_code);
  if (std::isnan(x)) {
    if (f.e4m3_nan) return static_cast<uint8_t>(0x7F | (std::signbit(x) ? sign : 0));
    if (f.ieee_inf) return static_cast<uint8_t>(0x7E | (std::signbit(x) ? sign : 0));
    return 0;
  }
  const bool neg = std::signbit(x);
  const double a = std::fabs(x);
  int code;
  if (a >= g.back()) {
    code = max_code;  // saturation, Inf included
  } else {
    // g[lo] <= a < g[lo + 1]
    const int lo = static_cast<int>(std::upper_bound(g.begin(), g.end(), a) - g.begin()) - 1;
    const int hi = lo + 1;
    if (g[lo] == a) {
      code = lo;
    } else if (mode == RoundMode::kFloor) {
      code = neg ? hi : lo;
    } else {
      const double dl = a - g[lo], dh = g[hi] - a;  // exact: few significant bits each
      if (dl < dh) code = lo;
      else if (dh < dl) code = hi;
      else code = mode == RoundMode::kRound ? hi : (lo % 2 == 0 ? lo : hi);
    }
  }
  return static_cast<uint8_t>(code | (neg ? sign : 0));
}

double ScaleValue(uint8_t code) {
  return code == 0xFF ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, code - 127);
}

namespace {
int Emax(DType type) {
  switch (type) {
    case DType::kFloat8E4M3FN: return 8;
    case DType::kFloat8E5M2: return 15;
    case DType::kFloat6E3M2: return 4;
    case DType::kFloat6E2M3: return 2;
    case DType::kFloat4E2M1: return 2;
    default: return 0;
  }
}
double MaxNormal(DType type) {
  int max_code;
  return Grid(type, &max_code).back();
}
// floor(log2 a) for a > 0 (exact, frexp).
int FloorLog2(double a) {
  int e;
  std::frexp(a, &e);
  return e - 1;
}
}  // namespace

uint8_t ScaleCode(double amax, DType type, ScaleAlg alg) {
  if (!std::isfinite(amax)) return 0xFF;
  const int emax = Emax(type);
  auto clamp = [](int e) { return static_cast<uint8_t>(std::clamp(e, 0, 254)); };
  // float32 exponent field of amax: 0 for zero and subnormals.
  const int field = amax < 0x1p-126 ? 0 : FloorLog2(amax) + 127;
  switch (alg) {
    case ScaleAlg::kOcp: return clamp(field - emax);
    case ScaleAlg::kCeil: {
      const bool exact = amax == 0 || (amax >= 0x1p-126 && amax == std::ldexp(1.0, FloorLog2(amax)));
      return clamp(field + (exact ? 0 : 1) - emax);
    }
    case ScaleAlg::kEven: {
      // Round amax half-up to mbits + 1 significant bits (a float32 subnormal keeps the
      // fixed-point step 2^-149 * 2^(22 - mbits + 1)), then the exponent field.
      const Format f = FormatOf(type);
      double r;
      if (amax >= 0x1p-126) {
        const double unit = std::ldexp(1.0, FloorLog2(amax) - f.mbits);
        r = std::floor(amax / unit + 0.5) * unit;
      } else {
        const double unit = std::ldexp(1.0, -149 + 23 - f.mbits);
        r = std::floor(amax / unit + 0.5) * unit;
      }
      const int rf = r < 0x1p-126 ? 0 : std::min(FloorLog2(r) + 127, 255);
      return clamp(rf - emax);
    }
    case ScaleAlg::kRceil: {
      // S = fp32(amax * fp32(1/max)); smallest code with 2^(code-127) >= S, except that the
      // rule leaves S in (0, 2^-127] at code 0.
      const float rcp = static_cast<float>(1.0 / MaxNormal(type));
      const float s = static_cast<float>(amax) * rcp;  // one float32 rounding, as the operator
      if (s == 0) return 0;
      int code = 0;
      while (code < 254 && std::ldexp(1.0, code - 127) < s) ++code;
      return static_cast<uint8_t>(code);
    }
  }
  return 0;
}

void Quantize(const std::vector<float>& x, const std::vector<int64_t>& shape, int64_t axis, DType type,
              int64_t blocksize, RoundMode mode, ScaleAlg alg, std::vector<uint8_t>* codes,
              std::vector<uint8_t>* scales) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  int64_t pre = 1, post = 1;
  for (int64_t i = 0; i < a; ++i) pre *= shape[i];
  for (int64_t i = a + 1; i < rank; ++i) post *= shape[i];
  const int64_t dim = shape[a], nb = (dim + blocksize - 1) / blocksize;
  codes->assign(x.size(), 0);
  scales->assign(static_cast<size_t>(pre * nb * post), 0);
  for (int64_t p = 0; p < pre; ++p) {
    for (int64_t b = 0; b < nb; ++b) {
      for (int64_t q = 0; q < post; ++q) {
        auto at = [&](int64_t t) { return static_cast<size_t>((p * dim + t) * post + q); };
        const int64_t t1 = std::min(dim, (b + 1) * blocksize);
        double amax = 0;
        bool special = false;
        for (int64_t t = b * blocksize; t < t1; ++t) {
          const double v = x[at(t)];
          if (!std::isfinite(v)) special = true;
          amax = std::max(amax, std::fabs(v));
        }
        const uint8_t e = special ? 0xFF : ScaleCode(amax, type, alg);
        (*scales)[static_cast<size_t>((p * nb + b) * post + q)] = e;
        for (int64_t t = b * blocksize; t < t1; ++t) {
          (*codes)[at(t)] = e == 0xFF ? 0 : Encode(std::ldexp(double(x[at(t)]), 127 - e), type, mode);
        }
      }
    }
  }
}

}  // namespace accelmath::mx::reference
