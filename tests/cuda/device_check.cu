// The GPU check (docs/cuda.md; scripts/device-check runs it): on an NVIDIA GPU, everything of
// libaccelmath_cuda against the CPU library in the same process.
//  1. math: every registry function on 2^24 inputs (the whole float32 bit range sampled, every
//     special value of the registry and of a list of edge values, all pairs/triples of those for
//     functions of several inputs) through accelmath::cuda::run, against the CPU's scalar lane
//     (FunctionInfo::run_scalar, the per-element API) on every element, bit for bit; a NaN result
//     must be a NaN on both (its payload and sign are the GPU's: counted, not failed). The CPU's own
//     SIMD array path (FunctionInfo::run on this host's Highway target) is compared too. Then the
//     API's refusals (null, host memory, partial overlap, an unknown row) and in-place use.
//  2. MX: every case of tests/cuda/mx_cases.h and every quantize vector of the golden files (torchao,
//     the survey), codes and scales against accelmath::mx; dequantize of those codes and of random
//     bytes under random scales (NaN scale included) to float32/float16/bfloat16, byte for byte.
//  3. atomics (accelmath/cuda_atomic.h): the published float16 boundary table row for row; every
//     ordered pair of boundary values and 2^16 random pairs per type, op and mode against
//     accelmath::atomic; then concurrent updates of a few elements by
//     2^20 threads whose result does not depend on their order (exact partial sums, max/min, wrapping
//     or one-sided saturating integer adds) against the CPU's scatter form run sequentially.
// Prints one line per function / case group and a summary; exit 0 when everything matched, 1 if
// anything differed. Without a GPU it checks this harness instead: the math and MX checks with the
// CPU library standing in for the device (everything must match) and with corrupted stand-ins (every
// function and case must differ), the boundary table through the CPU library; then that the API
// refuses cleanly (argument errors, then kDeviceError); and exits 77, CTest's "skipped".
// Options: --data DIR (tests/data), --n LOG2 (inputs per function, default 24).
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "accelmath/atomic.h"
#include "accelmath/cuda.h"
#include "accelmath/cuda_atomic.h"
#include "accelmath/mx.h"
#include "accelmath/registry.h"
#include "mx_cases.h"

namespace {

using accelmath::ElementType;
using accelmath::FunctionInfo;
using accelmath::Shape;
using accelmath::Status;
using accelmath::mxcases::Mix;

int g_failed = 0;  // check groups that differed

#define CUDA_OK(call)                                                                                  \
  do {                                                                                                 \
    const cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                           \
      std::printf("FATAL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));        \
      std::exit(2);                                                                                    \
    }                                                                                                  \
  } while (0)

// A device copy of some bytes.
struct DeviceBytes {
  void* p = nullptr;
  size_t n = 0;
  explicit DeviceBytes(size_t bytes) : n(bytes) { CUDA_OK(cudaMalloc(&p, bytes ? bytes : 1)); }
  DeviceBytes(const void* host, size_t bytes) : DeviceBytes(bytes) {
    if (bytes) CUDA_OK(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice));
  }
  ~DeviceBytes() { cudaFree(p); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  std::vector<uint8_t> get() const {
    std::vector<uint8_t> out(n);
    if (n) CUDA_OK(cudaMemcpy(out.data(), p, n, cudaMemcpyDeviceToHost));
    return out;
  }
};

void ParallelFor(size_t n, const std::function<void(size_t, size_t)>& body) {
  const size_t threads = std::max(1u, std::thread::hardware_concurrency());
  const size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    const size_t a = t * chunk, b = std::min(n, a + chunk);
    if (a < b) pool.emplace_back(body, a, b);
  }
  for (auto& th : pool) th.join();
}

// What the math and MX checks run as "the device", on host arrays: the GPU (copies in, the
// accelmath::cuda call, copies out), or, where there is none, the CPU library standing in for it (a
// check of this harness: everything must match) and a corrupted stand-in (one wrong result per
// function or case: everything must differ). So the comparisons here are shown able to fail.
namespace amx = accelmath::mx;
using amx::DType;
struct Device {
  const char* name;
  std::function<Status(const FunctionInfo&, void* const* out, const void* const* in, size_t count, size_t row_length)> math;
  std::function<amx::Error(amx::TensorView, amx::MutableTensorView, amx::MutableTensorView, const amx::QuantizeOptions&)>
      quantize;
  std::function<amx::Error(amx::TensorView, amx::TensorView, amx::MutableTensorView, const amx::DequantizeOptions&)>
      dequantize;
};

size_t Product(std::span<const int64_t> s) {
  size_t n = 1;
  for (int64_t d : s) n *= static_cast<size_t>(d);
  return n;
}

// Bytes of an MX tensor view.
size_t Bytes(DType t, std::span<const int64_t> shape) { return amx::storage_bytes(t, Product(shape)); }

Device GpuDevice() {
  Device d;
  d.name = "gpu";
  d.math = [](const FunctionInfo& f, void* const* out, const void* const* in, size_t count, size_t row_length) {
    const size_t in_bytes = 4 * (f.shape == Shape::kRows ? count * row_length : count);  // float or int32 inputs
    std::vector<std::unique_ptr<DeviceBytes>> din, dout;
    void* o[2] = {};
    const void* x[4] = {};
    for (int k = 0; k < f.inputs(); ++k) {
      din.push_back(std::make_unique<DeviceBytes>(in[k], in_bytes));
      x[k] = din.back()->p;
    }
    for (int k = 0; k < f.outputs(); ++k) {
      dout.push_back(std::make_unique<DeviceBytes>(count * accelmath::detail::ElementSize(f.output_type(k))));
      o[k] = dout.back()->p;
    }
    const Status s = accelmath::cuda::run(f, o, x, count, row_length);
    CUDA_OK(cudaDeviceSynchronize());
    for (int k = 0; k < f.outputs() && s == Status::kOk; ++k) {
      CUDA_OK(cudaMemcpy(out[k], dout[k]->p, dout[k]->n, cudaMemcpyDeviceToHost));
    }
    return s;
  };
  d.quantize = [](amx::TensorView x, amx::MutableTensorView y, amx::MutableTensorView s, const amx::QuantizeOptions& o) {
    DeviceBytes dx(x.data, Bytes(x.dtype, x.shape)), dy(Bytes(y.dtype, y.shape)), ds(Bytes(DType::kUInt8, s.shape));
    CUDA_OK(cudaMemset(dy.p, 0xAA, dy.n));  // so that a byte left unwritten shows
    CUDA_OK(cudaMemset(ds.p, 0xAA, ds.n));
    const amx::Error e = accelmath::cuda::mx::quantize({dx.p, x.dtype, x.shape}, {dy.p, y.dtype, y.shape},
                                                      {ds.p, s.dtype, s.shape}, o);
    CUDA_OK(cudaDeviceSynchronize());
    if (e.ok()) {
      CUDA_OK(cudaMemcpy(y.data, dy.p, dy.n, cudaMemcpyDeviceToHost));
      CUDA_OK(cudaMemcpy(s.data, ds.p, ds.n, cudaMemcpyDeviceToHost));
    }
    return e;
  };
  d.dequantize = [](amx::TensorView y, amx::TensorView s, amx::MutableTensorView x, const amx::DequantizeOptions& o) {
    DeviceBytes dy(y.data, Bytes(y.dtype, y.shape)), ds(s.data, Bytes(DType::kUInt8, s.shape)), dx(Bytes(x.dtype, x.shape));
    CUDA_OK(cudaMemset(dx.p, 0xAA, dx.n));
    const amx::Error e = accelmath::cuda::mx::dequantize({dy.p, y.dtype, y.shape}, {ds.p, s.dtype, s.shape},
                                                        {dx.p, x.dtype, x.shape}, o);
    CUDA_OK(cudaDeviceSynchronize());
    if (e.ok()) CUDA_OK(cudaMemcpy(x.data, dx.p, dx.n, cudaMemcpyDeviceToHost));
    return e;
  };
  return d;
}

// The CPU library as the device. Corrupted: one result of each math call changed to another ordinary
// value (so that it cannot pass as a NaN payload difference), and one byte of each quantize (kResults)
// or of each dequantize (kDequantize) flipped.
enum class Corrupt { kNone, kResults, kDequantize };
Device CpuDevice(Corrupt how) {
  Device d;
  d.name = how == Corrupt::kNone ? "cpu" : how == Corrupt::kResults ? "corrupted cpu" : "cpu with a corrupted dequantize";
  const bool corrupt = how == Corrupt::kResults, corrupt_back = how == Corrupt::kDequantize;
  d.math = [corrupt](const FunctionInfo& f, void* const* out, const void* const* in, size_t count, size_t row_length) {
    const Status s = f.run(out, in, count, row_length);
    if (corrupt && count > 0) {
      const size_t i = count / 2, w = accelmath::detail::ElementSize(f.output_type(0));
      auto* p = static_cast<uint8_t*>(out[0]) + i * w;
      if (f.output_type(0) == ElementType::kF32) {
        uint32_t b;
        std::memcpy(&b, p, 4);
        b = b == 0x3F800000u ? 0x40000000u : 0x3F800000u;
        std::memcpy(p, &b, 4);
      } else {
        p[0] ^= 1;
      }
    }
    return s;
  };
  d.quantize = [corrupt](amx::TensorView x, amx::MutableTensorView y, amx::MutableTensorView s, const amx::QuantizeOptions& o) {
    const amx::Error e = amx::quantize(x, y, s, o);
    if (corrupt) static_cast<uint8_t*>(y.data)[0] ^= 1;
    return e;
  };
  d.dequantize = [corrupt_back](amx::TensorView y, amx::TensorView s, amx::MutableTensorView x,
                                const amx::DequantizeOptions& o) {
    const amx::Error e = amx::dequantize(y, s, x, o);
    if (corrupt_back) static_cast<uint8_t*>(x.data)[1] ^= 0x40;  // an exponent bit of element 0 (any float type)
    return e;
  };
  return d;
}

// ---- 1. math --------------------------------------------------------------------------------------

// Edge values every float input sees: signed zeros, subnormals, the normal range's ends, infinities,
// NaNs (quiet, signalling, negative), small integers and half-integers, powers of two around the
// reduction thresholds, pi multiples, overflow and underflow thresholds of exp-like functions.
const uint32_t kEdgeBits[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000,
    0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF,
    0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x3FC00000, 0xBFC00000, 0x40000000, 0xC0000000,
    0x40400000, 0xC0400000, 0x40490FDB, 0xC0490FDB, 0x3FC90FDB, 0x4B000000, 0x4B000001, 0x4AFFFFFF,
    0x4B800000, 0x33800000, 0x39800000, 0x3F7FFFFF, 0x3F800001, 0x42B17218, 0x42B17219, 0xC2CFF1B5,
    0xC2D00000, 0x42C80000, 0x4E800000, 0x5D5E0B6B, 0x7149F2CA, 0x420C0000, 0x41200000, 0xC11CCCCD};
constexpr size_t kEdges = sizeof(kEdgeBits) / sizeof(kEdgeBits[0]);

// Input k of element i: the row's own specials first, then all tuples of edge values (at most 2^18),
// then the sample: one input spans the whole bit range in order (high 24 bits from i); several
// inputs take random bits, half of them in [2^-12, 2^12) where the functions' regions are.
uint32_t InputBits(const FunctionInfo& f, int k, size_t i, size_t n_special, size_t n_tuples) {
  const int inputs = f.inputs();
  if (i < n_special) {
    return std::bit_cast<uint32_t>(f.specials[i].in[f.shape == Shape::kRows ? 0 : k].f);
  }
  i -= n_special;
  if (i < n_tuples) {
    size_t idx = i;
    for (int j = 0; j < k; ++j) idx /= kEdges;
    return kEdgeBits[idx % kEdges];
  }
  i -= n_tuples;
  if (inputs == 1) return static_cast<uint32_t>((uint64_t(i) << 8) ^ (Mix(i) & 0xFF));
  const uint64_t r = Mix(i * 8 + static_cast<uint64_t>(k));
  if (r & 1) return static_cast<uint32_t>(r >> 32);
  const uint32_t e = static_cast<uint32_t>(127 - 12 + (r >> 8) % 24);
  return static_cast<uint32_t>(((r >> 1) & 1) << 31 | e << 23 | ((r >> 32) & 0x7FFFFF));
}

struct MathResult {
  size_t differ = 0, nan_payload = 0, simd_differ = 0;
  std::string first;
};

// Compares element i of an output (element type t) of GPU vs reference.
bool SameElement(ElementType t, const uint8_t* a, const uint8_t* b, size_t i, bool* nan_payload) {
  if (t == ElementType::kU8) return a[i] == b[i];
  uint32_t x, y;
  std::memcpy(&x, a + 4 * i, 4);
  std::memcpy(&y, b + 4 * i, 4);
  if (x == y) return true;
  if (t == ElementType::kF32 && (x & 0x7FFFFFFF) > 0x7F800000 && (y & 0x7FFFFFFF) > 0x7F800000) {
    *nan_payload = true;
    return true;
  }
  return false;
}

MathResult CheckFunction(const Device& dev, const FunctionInfo& f, size_t n_sample) {
  const int inputs = f.inputs(), outputs = f.outputs();
  const bool rows = f.shape == Shape::kRows;
  const size_t row_length = rows ? 16 : 0;
  const size_t n_special = rows ? 0 : f.specials.size();
  size_t n_tuples = 1;
  for (int k = 0; k < inputs && !rows; ++k) n_tuples *= kEdges;
  n_tuples = std::min<size_t>(n_tuples, size_t{1} << 18);
  // count results; Rows: count rows of 16 (the sample's element budget).
  const size_t count = rows ? n_sample / row_length : n_special + n_tuples + n_sample;
  const size_t in_elems = rows ? count * row_length : count;
  std::vector<std::vector<uint8_t>> in(inputs), cpu(outputs), simd(outputs);
  for (int k = 0; k < inputs; ++k) {
    in[k].resize(in_elems * 4);
    const bool is_int = f.input_type(k) == ElementType::kI32;
    ParallelFor(in_elems, [&](size_t a, size_t b) {
      for (size_t i = a; i < b; ++i) {
        uint32_t bits;
        if (is_int && i < n_special) {
          bits = static_cast<uint32_t>(f.specials[i].in[k].i);
        } else if (is_int) {  // ldexp's exponent: mostly within the float range's reach, sometimes extreme
          const uint64_t r = Mix(i * 8 + 5);
          const int32_t extremes[] = {INT_MIN, INT_MAX, -150, 150, 0, -1, 1, 255, -300};
          bits = static_cast<uint32_t>(r % 64 == 0 ? extremes[(r >> 8) % 9] : int32_t((r >> 16) % 701) - 350);
        } else if (rows) {  // rows: random bits, 1 in 256 elements an edge value
          const uint64_t r = Mix(i * 8 + 7);
          bits = r % 256 == 0 ? kEdgeBits[(r >> 8) % kEdges] : InputBits(f, 0, i, 0, 0) ^ uint32_t(r >> 40);
        } else {
          bits = InputBits(f, k, i, n_special, n_tuples);
        }
        std::memcpy(&in[k][4 * i], &bits, 4);
      }
    });
  }
  for (int k = 0; k < outputs; ++k) {
    cpu[k].assign(count * accelmath::detail::ElementSize(f.output_type(k)), 0);
    simd[k].assign(cpu[k].size(), 0);
  }
  // The device
  std::vector<std::vector<uint8_t>> gpu(outputs);
  void* out_ptr[2] = {};
  const void* in_ptr[4] = {};
  for (int k = 0; k < inputs; ++k) in_ptr[k] = in[k].data();
  for (int k = 0; k < outputs; ++k) {
    gpu[k].assign(cpu[k].size(), 0xAA);
    out_ptr[k] = gpu[k].data();
  }
  MathResult r;
  if (const Status s = dev.math(f, out_ptr, in_ptr, count, row_length); s != Status::kOk) {
    r.differ = count;
    r.first = std::string(" (the device call returned: ") + accelmath::status_message(s) + ")";
    return r;
  }
  // CPU scalar lane, element by element (run_scalar reads element 0 of the pointers it is given).
  ParallelFor(count, [&](size_t a, size_t b) {
    for (size_t i = a; i < b; ++i) {
      void* o[2];
      const void* x[4];
      for (int k = 0; k < outputs; ++k) {
        o[k] = cpu[k].data() + i * accelmath::detail::ElementSize(f.output_type(k));
      }
      for (int k = 0; k < inputs; ++k) x[k] = in[k].data() + 4 * i * (rows ? row_length : 1);
      f.run_scalar(o, x, row_length);
    }
  });
  // CPU SIMD array path of this host.
  {
    void* o[2];
    const void* x[4];
    for (int k = 0; k < outputs; ++k) o[k] = simd[k].data();
    for (int k = 0; k < inputs; ++k) x[k] = in[k].data();
    if (f.run(o, x, count, row_length) != Status::kOk) r.simd_differ = count;
  }
  for (int k = 0; k < outputs; ++k) {
    const ElementType t = f.output_type(k);
    for (size_t i = 0; i < count; ++i) {
      bool payload = false, simd_payload = false;
      if (!SameElement(t, gpu[k].data(), cpu[k].data(), i, &payload)) {
        if (r.differ++ < 3) {
          char line[200];
          uint32_t g = 0, c = 0;
          const size_t w = accelmath::detail::ElementSize(t);
          std::memcpy(&g, gpu[k].data() + w * i, w);
          std::memcpy(&c, cpu[k].data() + w * i, w);
          uint32_t x0;
          std::memcpy(&x0, in[0].data() + 4 * i * (rows ? row_length : 1), 4);
          std::snprintf(line, sizeof line, " [out %d, x0 0x%08x: %s 0x%08x cpu 0x%08x]", k, x0, dev.name, g, c);
          r.first += line;
        }
      }
      r.nan_payload += payload;
      if (!SameElement(t, simd[k].data(), cpu[k].data(), i, &simd_payload)) ++r.simd_differ;
    }
  }
  return r;
}

// Returns the number of functions whose results differ; one line per function when verbose.
size_t CheckMath(const Device& dev, size_t n_sample, bool verbose) {
  if (verbose) std::printf("== math: every registry function, %s vs the CPU scalar lane (and the host's SIMD path)\n", dev.name);
  size_t functions = 0, bad = 0, nan_total = 0;
  for (const FunctionInfo& f : accelmath::functions()) {
    const MathResult r = CheckFunction(dev, f, n_sample);
    ++functions;
    nan_total += r.nan_payload;
    const bool ok = r.differ == 0 && r.simd_differ == 0;
    bad += !ok;
    if (verbose) {
      std::printf("%-16s %s  %s!=scalar %zu  simd!=scalar %zu  nan-payload-only %zu%s\n", f.name, ok ? "same" : "DIFFER",
                  dev.name, r.differ, r.simd_differ, r.nan_payload, r.first.c_str());
    }
  }
  std::printf("math on the %s: %zu functions, %zu sampled results each (rows: %zu rows of 16), %zu differ; NaN "
              "results whose payload/sign differ: %zu\n",
              dev.name, functions, n_sample, n_sample / 16, bad, nan_total);
  return bad;
}

void CheckApi() {
  std::printf("== API: refusals and in-place\n");
  const size_t n = 1000;
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = 0.01f * float(i) - 3.0f;
  DeviceBytes dx(x.data(), n * 4), dy(n * 4);
  auto* px = static_cast<float*>(dx.p);
  auto* py = static_cast<float*>(dy.p);
  int bad = 0;
  auto expect = [&](const char* what, Status got, Status want) {
    const bool ok = got == want;
    bad += !ok;
    std::printf("  %-44s %s (%s)\n", what, ok ? "ok" : "WRONG", accelmath::status_message(got));
  };
  expect("null dst", accelmath::cuda::sin(nullptr, px, n), Status::kNullPointer);
  expect("n = 0 with null pointers", accelmath::cuda::sin(nullptr, nullptr, 0), Status::kOk);
  expect("host memory as src", accelmath::cuda::sin(py, x.data(), n), Status::kNotDeviceMemory);
  expect("dst = src + 1 (partial overlap)", accelmath::cuda::sin(px + 1, px, n - 1), Status::kPartialOverlap);
  expect("sincos with dst1 == dst2", accelmath::cuda::sincos(py, py, px, n), Status::kPartialOverlap);
  FunctionInfo fake = accelmath::functions()[0];
  fake.name = "no_such_function";
  void* o[2] = {py};
  const void* i[4] = {px};
  expect("run() on a row that is not in the registry", accelmath::cuda::run(fake, o, i, n), Status::kInvalidArgument);
  expect("sin out of place", accelmath::cuda::sin(py, px, n), Status::kOk);
  expect("sin in place", accelmath::cuda::sin(px, px, n), Status::kOk);
  CUDA_OK(cudaDeviceSynchronize());
  const bool same = dx.get() == dy.get();
  bad += !same;
  std::printf("  %-44s %s\n", "in place gives the out-of-place bits", same ? "ok" : "WRONG");
  const cudaError_t sticky = cudaGetLastError();
  bad += sticky != cudaSuccess;
  std::printf("  %-44s %s\n", "no CUDA error left behind", sticky == cudaSuccess ? "ok" : cudaGetErrorString(sticky));
  if (bad) ++g_failed;
}

// ---- 2. MX ----------------------------------------------------------------------------------------

struct MxTotals {
  int cases = 0, differ = 0;
};

// Quantizes raw x (x_type, shape) with options on the CPU and the GPU; compares codes and scales,
// then dequantizes the CPU's codes and random bytes on both. Returns the first difference or "".
std::string MxCompare(const Device& dev, const std::vector<uint8_t>& x, DType x_type, const std::vector<int64_t>& shape,
                      const amx::QuantizeOptions& o, uint64_t seed) {
  int64_t storage[8];
  const auto sshape = amx::scale_shape(shape, o.axis, o.blocksize, storage);
  const size_t n = Product(shape), ns = Product(sshape), ny = amx::storage_bytes(o.dst_type, n);
  std::vector<uint8_t> y(ny), s(ns), dy(ny), ds(ns);
  if (amx::Error e = amx::quantize({x.data(), x_type, shape}, {y.data(), o.dst_type, shape},
                                   {s.data(), DType::kFloat8E8M0, sshape}, o);
      !e.ok()) {
    return "CPU quantize refused: " + e.message;
  }
  if (amx::Error e = dev.quantize({x.data(), x_type, shape}, {dy.data(), o.dst_type, shape},
                                  {ds.data(), DType::kFloat8E8M0, sshape}, o);
      !e.ok()) {
    return std::string(dev.name) + " quantize refused: " + e.message;
  }
  if (ds != s) return "scales differ";
  if (dy != y) return "codes differ";
  std::vector<uint8_t> y_rand(ny), s_rand(ns);
  for (size_t i = 0; i < ny; ++i) y_rand[i] = static_cast<uint8_t>(Mix(seed * 977 + i));
  for (size_t i = 0; i < ns; ++i) s_rand[i] = static_cast<uint8_t>(Mix(seed * 131 + i) % 8 == 0 ? 255 : Mix(seed + i));
  for (const auto& [yy, ss] : {std::pair{&y, &s}, std::pair{&y_rand, &s_rand}}) {
    for (DType xt : accelmath::mxcases::kFloatTypes) {
      amx::DequantizeOptions d;
      d.axis = o.axis, d.blocksize = o.blocksize;
      const size_t nx = amx::storage_bytes(xt, n);
      std::vector<uint8_t> back(nx), dback(nx);
      const amx::TensorView yv{yy->data(), o.dst_type, shape}, sv{ss->data(), DType::kFloat8E8M0, sshape};
      if (!amx::dequantize(yv, sv, {back.data(), xt, shape}, d).ok()) return "CPU dequantize refused";
      if (amx::Error e = dev.dequantize(yv, sv, {dback.data(), xt, shape}, d); !e.ok()) {
        return std::string(dev.name) + " dequantize refused: " + e.message;
      }
      if (dback != back) {
        return std::string("dequantize to ") + amx::dtype_name(xt) + (yy == &y ? " (quantized codes)" : " (random bytes)") +
               " differs";
      }
    }
  }
  return "";
}

// Returns the number of cases and golden vectors that differ (-1 entries: a missing file counts).
int CheckMx(const Device& dev, const std::string& data, bool verbose) {
  if (verbose) std::printf("== MX: quantize and dequantize on the %s vs accelmath::mx on the CPU\n", dev.name);
  MxTotals cases;
  uint64_t seed = 1;
  for (const auto& c : accelmath::mxcases::Cases()) {
    const std::string why = MxCompare(dev, accelmath::mxcases::Input(c, seed), c.x_type, c.shape, accelmath::mxcases::Options(c), seed);
    ++seed;
    ++cases.cases;
    if (!why.empty()) {
      if (cases.differ++ < 5 && verbose) std::printf("  DIFFER %s: %s\n", c.name().c_str(), why.c_str());
    }
  }
  std::printf("mx cases (tests/cuda/mx_cases.h) on the %s: %d, %d differ\n", dev.name, cases.cases, cases.differ);
  MxTotals golden;
  for (const char* file : {"golden_torchao.jsonl", "golden_survey.jsonl"}) {
    std::ifstream in(data + "/mx/" + file);
    if (!in.good()) {
      std::printf("  MISSING %s/mx/%s (--data DIR)\n", data.c_str(), file);
      ++golden.differ;
      continue;
    }
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      const nlohmann::json v = nlohmann::json::parse(line);
      if (v["kind"] != "quantize") continue;
      // As tests/test_mx_golden.cc: FP4/FP6 pad the last dim with zeros to a whole packing unit.
      std::vector<int64_t> shape = v["shape"];
      const std::vector<uint32_t> xb = v["x_bits"];
      DType xt{}, dst{};
      amx::parse_dtype(v["x_dtype"].get<std::string>().c_str(), &xt);
      amx::parse_dtype(v["dst"].get<std::string>().c_str(), &dst);
      const int64_t group = dst == DType::kFloat6E3M2 || dst == DType::kFloat6E2M3 ? 4
                            : dst == DType::kFloat4E2M1 || dst == DType::kFloat4E1M2 ? 2 : 1;
      const int64_t last = shape.back(), plast = (last + group - 1) / group * group;
      std::vector<int64_t> pshape = shape;
      pshape.back() = plast;
      const size_t width = xt == DType::kFloat32 ? 4 : 2;
      std::vector<uint8_t> raw(Product(pshape) * width, 0);
      for (size_t i = 0; i < xb.size(); ++i) {
        const size_t at = (i / size_t(last) * size_t(plast) + i % size_t(last)) * width;
        std::memcpy(&raw[at], &xb[i], width);  // little-endian: the low half for 16-bit types
      }
      amx::QuantizeOptions o;
      o.axis = v["axis"], o.dst_type = dst, o.blocksize = v["blocksize"];
      const std::string alg = v["scale_alg"], round = v["round"];
      o.scale_alg = alg == "ocp" ? 0 : alg == "rceil" ? 1 : alg == "ceil" ? 2 : 3;
      o.round_mode = round.c_str();
      const std::string why = MxCompare(dev, raw, xt, pshape, o, seed++);
      ++golden.cases;
      if (!why.empty() && golden.differ++ < 5 && verbose) std::printf("  DIFFER %s: %s\n", v["id"].get<std::string>().c_str(), why.c_str());
    }
  }
  std::printf("mx golden quantize vectors (torchao, survey) on the %s: %d, %d differ\n", dev.name, golden.cases,
              golden.differ);
  return cases.differ + golden.differ;
}

// The GPU API's refusals: the CPU's validation, plus device memory.
void CheckMxRefusals() {
  std::vector<float> hx(64, 1.0f);
  const int64_t shape[] = {64}, sshape[] = {1, 2};
  DeviceBytes dy(32), ds(2);
  const amx::Error e1 = accelmath::cuda::mx::quantize({hx.data(), DType::kFloat32, shape}, {dy.p, DType::kFloat4E2M1, shape},
                                                      {ds.p, DType::kFloat8E8M0, sshape});
  amx::QuantizeOptions bad_bs;
  bad_bs.blocksize = 48;
  const amx::Error e2 = accelmath::cuda::mx::quantize({dy.p, DType::kFloat32, shape}, {dy.p, DType::kFloat4E2M1, shape},
                                                      {ds.p, DType::kFloat8E8M0, sshape}, bad_bs);
  const bool refusals = e1.code == amx::kErrParamInvalid && e1.param == "x" && e2.code == amx::kErrParamInvalid &&
                        e2.param == "blocksize";
  std::printf("mx refusals: host x -> %d %s (%s); blocksize 48 -> %d %s: %s\n", e1.code, e1.param.c_str(),
              e1.message.c_str(), e2.code, e2.param.c_str(), refusals ? "ok" : "WRONG");
  if (!refusals) ++g_failed;
}

// ---- 3. atomics -----------------------------------------------------------------------------------

using accelmath::atomic::Mode;
enum class AOp { kAdd, kMax, kMin };

template <typename T>
__global__ void PairKernel(T* dst, const T* src, T* old, size_t n, AOp op, Mode mode) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  T o;
  if (op == AOp::kAdd) o = accelmath::cuda::atomic_add(&dst[i], src[i], mode);
  else if (op == AOp::kMax) o = accelmath::cuda::atomic_max(&dst[i], src[i], mode);
  else o = accelmath::cuda::atomic_min(&dst[i], src[i], mode);
  old[i] = o;
}

template <typename T>
__global__ void ScatterKernel(T* dst, const int64_t* index, const T* src, size_t n, AOp op, Mode mode) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  if (op == AOp::kAdd) accelmath::cuda::atomic_add(&dst[index[i]], src[i], mode);
  else if (op == AOp::kMax) accelmath::cuda::atomic_max(&dst[index[i]], src[i], mode);
  else accelmath::cuda::atomic_min(&dst[index[i]], src[i], mode);
}

template <typename T>
Status CpuApply(AOp op, std::span<T> dst, std::span<const T> src, Mode mode) {
  namespace at = accelmath::atomic;
  return op == AOp::kAdd ? at::add(dst, src, mode) : op == AOp::kMax ? at::max(dst, src, mode) : at::min(dst, src, mode);
}
template <typename T>
Status CpuScatter(AOp op, std::span<T> dst, std::span<const int64_t> idx, std::span<const T> src, Mode mode) {
  namespace at = accelmath::atomic;
  return op == AOp::kAdd ? at::add(dst, idx, src, mode) : op == AOp::kMax ? at::max(dst, idx, src, mode) : at::min(dst, idx, src, mode);
}

template <typename T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T>
T FromU(uint64_t bits) {
  using U = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t,
            std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  return std::bit_cast<T>(static_cast<U>(bits));
}

// Boundary values of each type (bit patterns).
template <typename T>
std::vector<uint64_t> Boundary() {
  if constexpr (std::is_same_v<T, accelmath::float16>) {
    return {0x0000, 0x8000, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x7BFE, 0x0001, 0x8001, 0x0400, 0x7C00, 0xFC00, 0x7E00,
            0x7D01, 0xFE00, 0x3800, 0x6400, 0x7A00};
  } else if constexpr (std::is_same_v<T, accelmath::bfloat16>) {
    return {0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F7F, 0xFF7F, 0x7F7E, 0x0001, 0x8001, 0x0080, 0x7F80, 0xFF80, 0x7FC0,
            0x7F81, 0xFFC0, 0x3F00, 0x7F00};
  } else if constexpr (std::is_same_v<T, float>) {
    return {0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F7FFFFE, 0x00000001,
            0x80000001, 0x00800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00000, 0x33800000,
            0x4B800000, 0x7F000000};
  } else {
    using S = T;
    const S mn = std::numeric_limits<S>::min(), mx = std::numeric_limits<S>::max();
    std::vector<uint64_t> v;
    for (S x : {mn, S(mn + 1), S(mn / 2), S(-1), S(0), S(1), S(mx / 2), S(mx - 1), mx}) {
      v.push_back(static_cast<uint64_t>(std::make_unsigned_t<S>(x)));
    }
    return v;
  }
}

template <typename T>
int CheckAtomicType(const char* name) {
  int bad = 0;
  // Pairs: every ordered boundary pair, then 2^16 random bit patterns.
  const std::vector<uint64_t> b = Boundary<T>();
  std::vector<T> a_vals, b_vals;
  for (uint64_t x : b)
    for (uint64_t y : b) a_vals.push_back(FromU<T>(x)), b_vals.push_back(FromU<T>(y));
  const size_t n_boundary = a_vals.size();
  for (uint64_t i = 0; i < 65536; ++i) a_vals.push_back(FromU<T>(Mix(i * 2))), b_vals.push_back(FromU<T>(Mix(i * 2 + 1)));
  const size_t n = a_vals.size();
  size_t differ = 0;
  for (AOp op : {AOp::kAdd, AOp::kMax, AOp::kMin}) {
    for (Mode mode : {Mode::kIeee, Mode::kSaturate}) {
      std::vector<T> cpu = a_vals;
      CpuApply<T>(op, cpu, b_vals, mode);
      DeviceBytes dd(a_vals.data(), n * sizeof(T)), ds(b_vals.data(), n * sizeof(T)), dold(n * sizeof(T));
      PairKernel<T><<<unsigned((n + 255) / 256), 256>>>(static_cast<T*>(dd.p), static_cast<const T*>(ds.p),
                                                          static_cast<T*>(dold.p), n, op, mode);
      CUDA_OK(cudaGetLastError());
      CUDA_OK(cudaDeviceSynchronize());
      const std::vector<uint8_t> got = dd.get(), old = dold.get();
      for (size_t i = 0; i < n; ++i) {
        if (std::memcmp(got.data() + i * sizeof(T), &cpu[i], sizeof(T)) != 0 ||
            std::memcmp(old.data() + i * sizeof(T), &a_vals[i], sizeof(T)) != 0) {
          if (differ++ < 3) {
            uint64_t g = 0, c = 0, x = 0, y = 0;
            std::memcpy(&g, got.data() + i * sizeof(T), sizeof(T));
            std::memcpy(&c, &cpu[i], sizeof(T));
            std::memcpy(&x, &a_vals[i], sizeof(T));
            std::memcpy(&y, &b_vals[i], sizeof(T));
            std::printf("  DIFFER %s op %d mode %d: 0x%" PRIx64 " . 0x%" PRIx64 ": gpu 0x%" PRIx64 " cpu 0x%" PRIx64 "%s\n",
                        name, int(op), int(mode), x, y, g, c, i < n_boundary ? " (boundary pair)" : "");
          }
        }
      }
    }
  }
  bad += differ != 0;
  // Concurrency: 2^20 updates onto 16 elements, order-independent results.
  // elems: how many elements the 2^20 updates share (update i goes to element i % elems).
  struct Scenario {
    const char* what;
    AOp op;
    Mode mode;
    size_t elems;
    std::function<T(uint64_t)> value;
  };
  std::vector<Scenario> scenarios;
  if constexpr (std::is_same_v<T, accelmath::float16>) {
    // 1024 adds of 1 per element: every partial sum an integer <= 2048, exact in float16.
    scenarios.push_back({"add 1 (partial sums exact)", AOp::kAdd, Mode::kIeee, 1024, [](uint64_t) { return FromU<T>(0x3C00); }});
    scenarios.push_back({"add 1024 saturating (-> MAX)", AOp::kAdd, Mode::kSaturate, 16, [](uint64_t) { return FromU<T>(0x6400); }});
  } else if constexpr (std::is_same_v<T, accelmath::bfloat16>) {
    // 256 adds of 1 per element: every partial sum an integer <= 256, exact in bfloat16.
    scenarios.push_back({"add 1 (partial sums exact)", AOp::kAdd, Mode::kIeee, 4096, [](uint64_t) { return FromU<T>(0x3F80); }});
    scenarios.push_back({"add 2^127 saturating (-> MAX)", AOp::kAdd, Mode::kSaturate, 16, [](uint64_t) { return FromU<T>(0x7F00); }});
  } else if constexpr (std::is_same_v<T, float>) {
    // 2^16 integers in [-64, 64] per element: partial sums below 2^22 in magnitude, exact.
    scenarios.push_back({"add integers in [-64, 64] (exact)", AOp::kAdd, Mode::kIeee, 16,
                         [](uint64_t i) { return float(int(Mix(i) % 129) - 64); }});
  } else {
    // Wrapping add is modular, and saturating adds of non-negative values stop at MAX: both
    // independent of the order.
    scenarios.push_back({"add random (wraps)", AOp::kAdd, Mode::kIeee, 16, [](uint64_t i) { return FromU<T>(Mix(i)); }});
    scenarios.push_back({"add non-negative saturating (-> MAX)", AOp::kAdd, Mode::kSaturate, 16,
                         [](uint64_t i) { return T(Mix(i) % (uint64_t(std::numeric_limits<T>::max()) / 64 + 1)); }});
  }
  // IEEE maximum/minimum are order-independent (a NaN wins and stays); saturation is not (a NaN
  // result becomes +0 and the later updates continue from it), so it is checked on pairs only.
  scenarios.push_back({"max of random bits", AOp::kMax, Mode::kIeee, 16, [](uint64_t i) { return FromU<T>(Mix(i + 99)); }});
  scenarios.push_back({"min of random bits", AOp::kMin, Mode::kIeee, 16, [](uint64_t i) { return FromU<T>(Mix(i + 7)); }});
  const size_t updates = size_t{1} << 20;
  for (const Scenario& sc : scenarios) {
    const size_t elems = sc.elems;
    std::vector<T> src(updates), init(elems, FromU<T>(0));
    std::vector<int64_t> idx(updates);
    for (size_t i = 0; i < updates; ++i) src[i] = sc.value(i), idx[i] = int64_t(i % elems);
    std::vector<T> cpu = init;
    CpuScatter<T>(sc.op, cpu, idx, src, sc.mode);
    DeviceBytes dd(init.data(), elems * sizeof(T)), di(idx.data(), updates * 8), dsrc(src.data(), updates * sizeof(T));
    ScatterKernel<T><<<unsigned(updates / 256), 256>>>(static_cast<T*>(dd.p), static_cast<const int64_t*>(di.p),
                                                         static_cast<const T*>(dsrc.p), updates, sc.op, sc.mode);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<uint8_t> got = dd.get();
    const bool same = std::memcmp(got.data(), cpu.data(), elems * sizeof(T)) == 0;
    bad += !same;
    uint64_t g0 = 0, c0 = 0;
    std::memcpy(&g0, got.data(), sizeof(T));
    std::memcpy(&c0, cpu.data(), sizeof(T));
    std::printf("  %-9s 2^20 concurrent updates of %4zu elements, %-36s %s (element 0: gpu 0x%" PRIx64 " cpu 0x%" PRIx64 ")\n",
                name, elems, sc.what, same ? "same" : "DIFFER", g0, c0);
  }
  std::printf("  %-9s pairs: %zu boundary + 65536 random, x 3 ops x 2 modes: %zu differ\n", name, n_boundary, differ);
  return bad;
}

// The published float16 boundary table (tests/data/atomic/atomic-boundary.csv; docs/atomics.md):
// every row, every '/' alternative of operand b, both operand orders, both modes, through
// apply(op, mode, a, b) -> result bits, against the table itself (NaN matches NaN). Returns the
// number of differences, -1 for an unreadable table.
using TableApply = std::function<uint16_t(AOp, Mode, uint16_t, uint16_t)>;
int CheckBoundaryTable(const std::string& data, const char* who, const TableApply& apply) {
  std::ifstream in(data + "/atomic/atomic-boundary.csv");
  std::string line;
  if (!in.good() || !std::getline(in, line)) return -1;
  auto parse = [](const std::string& t) -> uint16_t {  // the table's values: +-0.0, +-65504.0, +-inf, nan
    return accelmath::to_float16(std::strtof(t.c_str(), nullptr)).bits;
  };
  auto split = [](const std::string& t, char sep) {
    std::vector<std::string> out(1);
    for (char c : t) {
      if (c == sep) out.emplace_back();
      else out.back() += c;
    }
    return out;
  };
  int checks = 0, differ = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto f = split(line, ',');
    if (f.size() != 6 || f[1] != "half") return -1;
    const AOp op = f[0] == "add" ? AOp::kAdd : f[0] == "max" ? AOp::kMax : AOp::kMin;
    for (const std::string& bt : split(f[3], '/')) {
      for (int mode : {0, 1}) {
        for (int order : {0, 1}) {
          const uint16_t a = parse(order ? bt : f[2]), b = parse(order ? f[2] : bt), want = parse(f[4 + mode]);
          const uint16_t got = apply(op, mode ? Mode::kSaturate : Mode::kIeee, a, b);
          ++checks;
          const bool nans = (got & 0x7FFF) > 0x7C00 && (want & 0x7FFF) > 0x7C00;
          if (got != want && !nans && differ++ < 3) {
            std::printf("  DIFFER table: %s mode %d, 0x%04x . 0x%04x: %s 0x%04x, table 0x%04x\n", f[0].c_str(), mode, a,
                        b, who, got, want);
          }
        }
      }
    }
  }
  std::printf("  float16   published boundary table by %s: %d checks (rows x alternatives x 2 orders x 2 modes), %d differ\n",
              who, checks, differ);
  return checks == 0 ? -1 : differ;
}

// One float16 update by a GPU atomic (one launch per check: the table has a few hundred).
uint16_t GpuHalfUpdate(AOp op, Mode mode, uint16_t a, uint16_t b) {
  DeviceBytes dd(&a, 2), ds(&b, 2), dold(2);
  PairKernel<accelmath::float16><<<1, 1>>>(static_cast<accelmath::float16*>(dd.p),
                                           static_cast<const accelmath::float16*>(ds.p),
                                           static_cast<accelmath::float16*>(dold.p), 1, op, mode);
  CUDA_OK(cudaGetLastError());
  uint16_t g;
  std::memcpy(&g, dd.get().data(), 2);
  return g;
}

// The same update by the CPU library: checks this harness (its reading of the table) without a GPU.
uint16_t CpuHalfUpdate(AOp op, Mode mode, uint16_t a, uint16_t b) {
  accelmath::float16 d{a};
  const accelmath::float16 s{b};
  CpuApply<accelmath::float16>(op, std::span(&d, 1), std::span(&s, 1), mode);
  return d.bits;
}

void CheckAtomics(const std::string& data) {
  std::printf("== atomics: accelmath/cuda_atomic.h on the GPU vs accelmath::atomic on the CPU\n");
  int bad = 0;
  const int table = CheckBoundaryTable(data, "gpu", GpuHalfUpdate);
  if (table < 0) std::printf("  MISSING or malformed %s/atomic/atomic-boundary.csv (--data DIR)\n", data.c_str());
  bad += table != 0;
  bad += CheckAtomicType<accelmath::float16>("float16");
  bad += CheckAtomicType<accelmath::bfloat16>("bfloat16");
  bad += CheckAtomicType<float>("float");
  bad += CheckAtomicType<int8_t>("int8");
  bad += CheckAtomicType<int16_t>("int16");
  bad += CheckAtomicType<int32_t>("int32");
  bad += CheckAtomicType<int64_t>("int64");
  std::printf("atomics: %d groups differ\n", bad);
  if (bad) ++g_failed;
}

// Without a usable GPU the API must still refuse cleanly: argument errors first, then kDeviceError
// (MX: an Error naming "cuda"), never a crash. Returns the number of wrong answers.
int CheckWithoutDevice(const std::string& data) {
  std::vector<float> x(64, 1.0f), y(64);
  int bad = 0;
  // The harness itself: the CPU as the device must match everywhere, a corrupted one nowhere.
  bad += CheckBoundaryTable(data, "cpu", CpuHalfUpdate) != 0;
  const size_t n_functions = accelmath::functions().size();
  bad += CheckMath(CpuDevice(Corrupt::kNone), 4096, false) != 0;
  bad += CheckMath(CpuDevice(Corrupt::kResults), 4096, false) != n_functions;
  const int mx_total = static_cast<int>(accelmath::mxcases::Cases().size()) + 808;  // + the golden quantize vectors
  bad += CheckMx(CpuDevice(Corrupt::kNone), data, false) != 0;
  bad += CheckMx(CpuDevice(Corrupt::kResults), data, false) != mx_total;
  bad += CheckMx(CpuDevice(Corrupt::kDequantize), data, false) != mx_total;
  std::printf("  harness: the CPU as the device matches everywhere, each corrupted stand-in nowhere: %s\n",
              bad ? "WRONG" : "ok");
  auto expect = [&](const char* what, Status got, Status want) {
    bad += got != want;
    std::printf("  %-40s %s (%s)\n", what, got == want ? "ok" : "WRONG", accelmath::status_message(got));
  };
  expect("null dst", accelmath::cuda::sin(nullptr, x.data(), 64), Status::kNullPointer);
  expect("partial overlap", accelmath::cuda::sin(x.data() + 1, x.data(), 63), Status::kPartialOverlap);
  expect("a valid call without a GPU", accelmath::cuda::sin(y.data(), x.data(), 64), Status::kDeviceError);
  const int64_t shape[] = {64}, sshape[] = {1, 2};
  uint8_t codes[32], scales[2];
  const amx::Error e = accelmath::cuda::mx::quantize({x.data(), DType::kFloat32, shape}, {codes, DType::kFloat4E2M1, shape},
                                                     {scales, DType::kFloat8E8M0, sshape});
  bad += e.param != "cuda";
  std::printf("  %-40s %s (%s)\n", "mx::quantize without a GPU", e.param == "cuda" ? "ok" : "WRONG", e.message.c_str());
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = "tests/data";
  int log2n = 24;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--data" && i + 1 < argc) data = argv[++i];
    else if (a == "--n" && i + 1 < argc) log2n = std::atoi(argv[++i]);
    else {
      std::printf("usage: accelmath_device_check [--data DIR] [--n LOG2]\n");
      return 2;
    }
  }
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (accelmath::cuda::device_count() == 0) {
    std::printf("no CUDA device here: checking this harness on the CPU, and that the API refuses cleanly\n");
    if (CheckWithoutDevice(data) != 0) return 1;
    std::printf("SKIP: the GPU check needs an NVIDIA GPU (cudaGetDeviceCount found none)\n");
    return 77;
  }
  cudaDeviceProp p;
  CUDA_OK(cudaGetDeviceProperties(&p, 0));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("device: %s, sm_%d%d, %d SMs, driver %d, runtime %d; host threads %u\n", p.name, p.major, p.minor,
              p.multiProcessorCount, driver, runtime, std::thread::hardware_concurrency());
  const Device gpu = GpuDevice();
  CheckApi();
  if (CheckMx(gpu, data, true) != 0) ++g_failed;
  CheckMxRefusals();
  CheckAtomics(data);
  if (CheckMath(gpu, size_t{1} << log2n, true) != 0) ++g_failed;
  std::printf("device check: %s\n", g_failed ? "FAILED" : "PASSED (every function, MX case and atomic bit-identical to the CPU)");
  return g_failed ? 1 : 0;
}
