#include "cli/mx_cmd.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "accelmath/mx.h"
#include "accuracy/mx_reference.h"
#include "cli/progress.h"
#include "cli/threads.h"
#include "cli/report.h"
#include "io/npy.h"

namespace accelmath::cli {
namespace {

using io::NpyArray;
using io::NpyError;
using mx::DType;

int Fail(const std::string& msg) {
  std::fprintf(stderr, "accelmath: error: %s\n", io::printable(msg).c_str());
  return 2;
}

// An element format name (e4m3 ... e1m2).
bool ParseElem(const std::string& s, DType* t) {
  if (!mx::parse_dtype(s.c_str(), t)) return false;
  for (DType e : {DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kFloat6E3M2, DType::kFloat6E2M3,
                  DType::kFloat4E2M1, DType::kFloat4E1M2}) {
    if (*t == e) return true;
  }
  return false;
}

int64_t ParseAlg(const std::string& s) {
  if (s == "ocp" || s == "floor") return 0;
  if (s == "rceil") return 1;
  if (s == "ceil") return 2;
  if (s == "even") return 3;
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  return end && *end == '\0' && !s.empty() ? v : -1;
}

int ElemBits(DType t) { return static_cast<int>(mx::storage_bytes(t, 8)); }  // bits per element

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// Checks an array read from `path` before any size is computed from its shape: not empty (the
// library would only say "data is null"), its element count representable in int64_t (a header
// may claim any dims), and `item` bytes per element actually present (the reader's own product
// could wrap around). Writes the shape as int64_t; an error message, or empty when it is fine.
std::string CheckedShape(const NpyArray& a, const std::string& path, uint64_t item, std::vector<int64_t>* shape,
                         const char* verb) {
  shape->clear();
  for (size_t d : a.shape) {
    if (d == 0) return path + ": empty array, shape " + a.shape_string() + ": nothing to " + verb;
  }
  int64_t n = 1;
  for (size_t d : a.shape) {
    if (d > static_cast<uint64_t>(INT64_MAX) || __builtin_mul_overflow(n, static_cast<int64_t>(d), &n)) {
      return path + ": shape " + a.shape_string() + " has more than 2^63 elements";
    }
    shape->push_back(static_cast<int64_t>(d));
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(static_cast<uint64_t>(n), item, &bytes) || a.data.size() < bytes) {
    return path + ": shape " + a.shape_string() + " needs more data than the file holds";
  }
  return std::string();
}

// With a wrong --block (or --axis) dequantize would apply each scale to the wrong elements and
// exit 0. So the scale array must have exactly the shape that --block and --axis give for the
// elements, and where that shape agrees by coincidence (ceil(n / 2) pairs for n and n + 1 blocks)
// every pair-padding byte of an odd block count must be the documented 0x00. Invalid --axis or
// --block values are left to the library, whose message names them.
std::string CheckScales(const DequantizeArgs& a, const std::vector<int64_t>& shape, const NpyArray& s,
                        const std::vector<int64_t>& sshape) {
  int64_t storage[8];
  const auto want_span = mx::scale_shape(shape, a.axis, a.block, storage);
  if (want_span.empty()) return std::string();
  const std::vector<int64_t> want(want_span.begin(), want_span.end());
  const int64_t rank = static_cast<int64_t>(shape.size()), ax = a.axis < 0 ? a.axis + rank : a.axis;
  const int64_t dim = shape[ax], nb = dim / a.block + (dim % a.block != 0 ? 1 : 0);
  const std::string given = "--block " + std::to_string(a.block) + " and --axis " + std::to_string(a.axis) + " give " +
                            std::to_string(nb) + " block(s) along axis " + std::to_string(ax) + " of " + a.y + " (" +
                            std::to_string(dim) + " elements)";
  if (sshape != want) {
    return a.scale + ": shape " + ShapeText(sshape) + " does not fit: " + given + ", so the scale shape is " +
           ShapeText(want) + "; dequantize with the --block and --axis the data were quantized with";
  }
  if (nb % 2 == 0) return std::string();
  int64_t pre = 1, post = 1;
  for (int64_t i = 0; i < ax; ++i) pre *= shape[i];
  for (int64_t i = ax + 1; i < rank; ++i) post *= shape[i];
  const int64_t pairs = want[ax];
  for (int64_t p = 0; p < pre; ++p) {
    for (int64_t q = 0; q < post; ++q) {
      const int64_t at = ((p * pairs + pairs - 1) * post + q) * 2 + 1;  // mxscale[p..., pairs - 1, q..., 1]
      const unsigned byte = s.data[static_cast<size_t>(at)];
      if (byte == 0) continue;
      std::string index;  // the multi-index of flat position `at`, "[0, 3, 1]"
      for (int64_t i = static_cast<int64_t>(want.size()) - 1, r = at; i >= 0; --i) {
        index = std::to_string(r % want[i]) + (index.empty() ? "]" : ", " + index), r /= want[i];
      }
      index = "[" + index;
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", byte);
      return a.scale + ": " + given + ", an odd count, so scale " + index + " is pair padding, always 0x00, but it is " +
             hex + ": the data were quantized with another --block or --axis (the scale shapes agree by coincidence)";
    }
  }
  return std::string();
}

}  // namespace

int quantize_cmd(const QuantizeArgs& a) {
  DType dst;
  if (!ParseElem(a.dst, &dst)) return Fail("--dst '" + a.dst + "': expected e4m3, e5m2, e3m2, e2m3, e2m1 or e1m2");
  const int64_t alg = ParseAlg(a.scale_alg);
  if (alg < 0 || alg > 3) {
    return Fail("--scale-alg '" + a.scale_alg + "': expected 0 or ocp, 1 or rceil (FP8 only), 2 or ceil, 3 or even");
  }
  try {
    // Both outputs are checked before any work and renamed into place together once both are
    // written: an error leaves no new file and every existing one as it was.
    io::OutputSet out({a.out_y, a.out_scale});
    NpyArray x = io::read_npy(a.in);
    DType xt;
    if (a.x_dtype == "auto") {
      if (x.descr == "<f4") xt = DType::kFloat32;
      else if (x.descr == "<f2") xt = DType::kFloat16;
      else return Fail(a.in + ": dtype '" + x.descr + "': expected float32 or float16 (bfloat16: uint16 bits with --x-dtype bfloat16)");
    } else if (a.x_dtype == "bfloat16") {
      if (x.descr != "<u2") return Fail(a.in + ": --x-dtype bfloat16 needs uint16 ('<u2') bit patterns, got '" + x.descr + "'");
      xt = DType::kBFloat16;
    } else {
      return Fail("--x-dtype '" + a.x_dtype + "': expected auto or bfloat16");
    }
    if (x.fortran_order) return Fail(a.in + ": Fortran-order arrays are not supported; save it in C order");
    std::vector<int64_t> shape;
    if (x.shape.empty()) return Fail(a.in + ": a 0-d array has no axis to block along");
    if (const std::string e = CheckedShape(x, a.in, xt == DType::kFloat32 ? 4 : 2, &shape, "quantize"); !e.empty()) return Fail(e);
    int64_t storage[8];
    const auto sshape = mx::scale_shape(shape, a.axis, a.block, storage);
    const uint64_t n = x.count();
    NpyArray y{"|u1", false, x.shape, std::vector<unsigned char>(mx::storage_bytes(dst, n))};
    const int bits = ElemBits(dst);
    if (bits != 8 && !y.shape.empty()) y.shape.back() = y.shape.back() * bits / 8;  // packed along the last dim
    NpyArray s{"|u1", false, {}, {}};
    size_t ns = 1;
    for (int64_t d : sshape) s.shape.push_back(static_cast<size_t>(d)), ns *= static_cast<size_t>(d);
    s.data.resize(ns);
    mx::QuantizeOptions o;
    o.axis = a.axis, o.dst_type = dst, o.blocksize = a.block, o.round_mode = a.round.c_str(), o.scale_alg = alg,
    o.threads = a.threads;
    const mx::Error e = mx::quantize({x.data.data(), xt, shape}, {y.data.data(), dst, shape},
                                     {s.data.data(), DType::kFloat8E8M0, sshape}, o);
    if (!e.ok()) return Fail(e.message + " (code " + std::to_string(e.code) + ")");
    out.write(0, y);
    out.write(1, s);
    out.commit();
  } catch (const NpyError& e) {
    return Fail(e.what());
  }
  return 0;
}

int dequantize_cmd(const DequantizeArgs& a) {
  DType elem, out;
  if (!ParseElem(a.dst, &elem)) return Fail("--dst '" + a.dst + "': expected e4m3, e5m2, e3m2, e2m3, e2m1 or e1m2");
  if (!mx::parse_dtype(a.out_dtype.c_str(), &out) ||
      (out != DType::kFloat32 && out != DType::kFloat16 && out != DType::kBFloat16)) {
    return Fail("--out-dtype '" + a.out_dtype + "': expected float32, float16 or bfloat16");
  }
  try {
    io::OutputSet outputs({a.out});  // checked before any work; see quantize_cmd
    const NpyArray y = io::read_npy(a.y), s = io::read_npy(a.scale);
    if (y.descr != "|u1" && y.descr != "<u1") return Fail(a.y + ": dtype '" + y.descr + "', expected uint8");
    if (s.descr != "|u1" && s.descr != "<u1") return Fail(a.scale + ": dtype '" + s.descr + "', expected uint8");
    if (y.fortran_order || s.fortran_order) return Fail("Fortran-order arrays are not supported");
    if (y.shape.empty()) return Fail(a.y + ": a 0-d array has no axis");
    std::vector<int64_t> shape, sshape;
    if (const std::string e = CheckedShape(y, a.y, 1, &shape, "dequantize"); !e.empty()) return Fail(e);
    if (const std::string e = CheckedShape(s, a.scale, 1, &sshape, "dequantize"); !e.empty()) return Fail(e);
    const int bits = ElemBits(elem);
    if (bits != 8) {
      const int64_t packed = shape.back();
      int64_t packed_bits;  // no overflow: the bytes are in memory, but a header may claim any dims
      if (__builtin_mul_overflow(packed, int64_t{8}, &packed_bits)) return Fail(a.y + ": last dim " + std::to_string(packed) + " is too large");
      if (packed_bits % bits != 0) return Fail(a.y + ": last dim " + std::to_string(packed) + " is not a whole number of " + a.dst + " groups");
      shape.back() = packed_bits / bits;
    }
    if (const std::string e = CheckScales(a, shape, s, sshape); !e.empty()) return Fail(e);
    NpyArray x{out == DType::kFloat32 ? "<f4" : out == DType::kFloat16 ? "<f2" : "<u2", false, {}, {}};
    for (int64_t d : shape) x.shape.push_back(static_cast<size_t>(d));
    x.data.resize(mx::storage_bytes(out, x.count()));
    mx::DequantizeOptions o;
    o.axis = a.axis, o.blocksize = a.block, o.threads = a.threads;
    const mx::Error e = mx::dequantize({y.data.data(), elem, shape}, {s.data.data(), DType::kFloat8E8M0, sshape},
                                       {x.data.data(), out, shape}, o);
    if (!e.ok()) return Fail(e.message + " (code " + std::to_string(e.code) + ")");
    outputs.write(0, x);
    outputs.commit();
  } catch (const NpyError& e) {
    return Fail(e.what());
  }
  return 0;
}

int mx_sweep(const std::string& dst, const std::string& round, uint64_t sample, uint64_t seed, unsigned threads,
             bool quiet) {
  std::vector<DType> types;
  if (dst == "all") {
    types = {DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kFloat6E3M2, DType::kFloat6E2M3, DType::kFloat4E2M1, DType::kFloat4E1M2};
  } else {
    DType t;
    if (!ParseElem(dst, &t)) return Fail("--dst '" + dst + "': expected all, e4m3, e5m2, e3m2, e2m3, e2m1 or e1m2");
    types = {t};
  }
  std::vector<mx::RoundMode> modes;
  if (round == "all") {
    modes = {mx::RoundMode::kRint, mx::RoundMode::kRound, mx::RoundMode::kFloor};
  } else {
    mx::RoundMode m;
    if (!mx::parse_round_mode(round.c_str(), &m)) return Fail("--round '" + round + "': expected all, rint, round or floor");
    modes = {m};
  }
  const uint64_t total = sample ? sample : (uint64_t{1} << 32);
  int rc = 0;
  std::size_t pass = 0;
  for (DType t : types) {
    for (mx::RoundMode m : modes) {
      const char* mode_name = m == mx::RoundMode::kRint ? "rint" : m == mx::RoundMode::kRound ? "round" : "floor";
      ++pass;
      Progress progress(std::string("mx-sweep ") + mx::dtype_name(t) + " " + mode_name +
                            (types.size() * modes.size() > 1
                                 ? " [" + std::to_string(pass) + "/" + std::to_string(types.size() * modes.size()) + "]"
                                 : ""),
                        total, "inputs", !quiet);
      std::atomic<uint64_t> bad{0}, first_bad{~uint64_t{0}};
      const auto t0 = std::chrono::steady_clock::now();
      auto work = [&](unsigned k) {
        constexpr uint64_t kChunk = 1 << 16;
        std::vector<float> x(kChunk);
        std::vector<uint8_t> c(kChunk);
        std::mt19937_64 rng(seed + k);
        for (uint64_t start = uint64_t(k) * kChunk; start < total; start += uint64_t(threads) * kChunk) {
          const uint64_t n = std::min(kChunk, total - start);
          for (uint64_t i = 0; i < n; ++i) {
            const uint32_t bits = sample ? static_cast<uint32_t>(rng()) : static_cast<uint32_t>(start + i);
            std::memcpy(&x[i], &bits, 4);
          }
          (void)mx::encode(std::span<const float>(x.data(), n), std::span<uint8_t>(c.data(), n), t, m);
          for (uint64_t i = 0; i < n; ++i) {
            if (c[i] != mx::reference::Encode(x[i], t, m)) {
              uint32_t b;
              std::memcpy(&b, &x[i], 4);
              if (bad++ == 0) first_bad = b;
            }
          }
          progress.add(n);
        }
      };
      RunOnThreads(threads, work);  // work(k): a static share per k
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      progress.finish();  // its last line before the result line
      std::printf("%-5s %-5s %s: %llu differences from the model (%.0f s)", mx::dtype_name(t), mode_name,
                  sample ? (std::to_string(sample) + " random float32").c_str() : "all 2^32 float32",
                  static_cast<unsigned long long>(bad.load()), secs);
      if (bad) std::printf(", first at bits 0x%08x", static_cast<unsigned>(first_bad.load()));
      std::printf(" -> %s\n", bad ? "FAIL" : "PASS");
      std::fflush(stdout);
      if (bad) rc = 1;
    }
  }
  return rc;
}

int mx_report(std::FILE* out) {
  // Built-in samples: standard Gaussian, and Student-t with 2 degrees of freedom (heavy tails:
  // the outliers set each block's scale), 2^20 float32 values each, shape [1024, 1024].
  constexpr size_t kN = 1 << 20;
  const std::vector<int64_t> shape = {1024, 1024}, sshape = {1024, 16, 2};
  std::mt19937 rng(20261130);
  std::normal_distribution<float> g;
  std::student_t_distribution<float> t2(2.0f);
  std::vector<float> gauss(kN), heavy(kN), back(kN), copy(kN);
  for (size_t i = 0; i < kN; ++i) gauss[i] = g(rng), heavy[i] = t2(rng);
  const double t_copy = median_seconds([&] { std::memcpy(copy.data(), gauss.data(), 4 * kN); }, 9);
  std::fprintf(out, "\nMX quantize (axis -1, blocksize 32, rint, OCP scale), float32 [1024, 1024]: round-trip relative\n");
  std::fprintf(out, "RMSE sqrt(sum (x - dq(q(x)))^2 / sum x^2); 'model' = bit-exact with the reference model\n");
  std::fprintf(out, "(tools/accuracy/mx_reference.cc); speed one thread, median of 9, vs memcpy of the input (%.2f GB/s;\n",
               4.0 * kN / t_copy / 1e9);
  std::fprintf(out, "4 MiB, so both run from cache: the memory-bound 16M comparison is in docs/performance.md)\n\n");
  std::fprintf(out, "%-6s %-12s %-12s %-7s %-12s %-10s %s\n", "format", "rmse gauss", "rmse t(2)", "model", "quant GB/s",
               "vs memcpy", "dequant GB/s");
  int rc = 0;
  for (DType t : {DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kFloat6E3M2, DType::kFloat6E2M3, DType::kFloat4E2M1, DType::kFloat4E1M2}) {
    std::vector<uint8_t> y(mx::storage_bytes(t, kN)), s(kN / 32);
    mx::QuantizeOptions o;
    o.dst_type = t, o.threads = 1;
    mx::DequantizeOptions d;
    d.threads = 1;
    double rmse[2];
    bool model = true;
    for (int k = 0; k < 2; ++k) {
      const std::vector<float>& x = k == 0 ? gauss : heavy;
      if (!mx::quantize({x.data(), DType::kFloat32, shape}, {y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, o).ok() ||
          !mx::dequantize({y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {back.data(), DType::kFloat32, shape}, d).ok()) {
        return 1;
      }
      double num = 0, den = 0;
      for (size_t i = 0; i < kN; ++i) num += double(x[i] - back[i]) * (x[i] - back[i]), den += double(x[i]) * x[i];
      rmse[k] = std::sqrt(num / den);
      std::vector<uint8_t> codes, scales;
      mx::reference::Quantize(x, shape, -1, t, 32, mx::RoundMode::kRint, mx::ScaleAlg::kOcp, &codes, &scales);
      for (size_t i = 0; i < kN && model; i += 7) {
        const double want = mx::reference::Value(codes[i], t) * mx::reference::ScaleValue(scales[i / 32]);
        model = double(back[i]) == want;
      }
    }
    const double tq = median_seconds([&] {
      (void)mx::quantize({gauss.data(), DType::kFloat32, shape}, {y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, o);
    }, 9);
    const double td = median_seconds([&] {
      (void)mx::dequantize({y.data(), t, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {back.data(), DType::kFloat32, shape}, d);
    }, 9);
    if (!model) rc = 1;
    std::fprintf(out, "%-6s %-12.4e %-12.4e %-7s %-12.2f %-10.2f %.2f\n", mx::dtype_name(t), rmse[0], rmse[1],
                 model ? "PASS" : "FAIL", 4.0 * kN / tq / 1e9, t_copy / tq, 4.0 * kN / td / 1e9);
  }
  return rc;
}

}  // namespace accelmath::cli
