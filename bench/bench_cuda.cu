// GPU throughput and accuracy (docs/cuda.md): accelmath::cuda::f against CUDA's own float function and
// its -use_fast_math form (bench/cuda_functions.h), same inputs, same run.
//  - speed: Gelem/s at 16M and 256M elements (the median of 10 timed launches after 2 warm-ups, CUDA
//    events), beside a device-to-device copy of the same bytes (the memory bound);
//  - accuracy: max error in float32 ulp of each on the 16M sample, against CUDA's binary64 function
//    rounded to nothing (the error of those is far below 2^-20 float ulp on these domains), and the
//    input where it occurs.
// Usage: bench_cuda [--sizes 16,256] (millions of elements). Exit 77 without a GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "accelmath/cuda.h"
#include "cuda_functions.h"

namespace accelmath_bench {
namespace fast {
ACCELMATH_CUDA_BENCH_FUNCTIONS(ACCELMATH_CUDA_BENCH_DECLARE)
}  // namespace fast
namespace cuda_default {
ACCELMATH_CUDA_BENCH_FUNCTIONS(ACCELMATH_CUDA_BENCH_DEFINE)
}  // namespace cuda_default

namespace {

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    const cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("FATAL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));    \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

// The binary64 references, rounded to nothing: r[i] = fn((double)x[i]).
#define ACCELMATH_REF_KERNEL(row, ffn, dfn)                                                          \
  __global__ void row##_ref(double* r, const float* x, std::size_t n) {                              \
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;                                  \
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {   \
      r[i] = dfn(double(x[i]));                                                                      \
    }                                                                                                \
  }
ACCELMATH_CUDA_BENCH_FUNCTIONS(ACCELMATH_REF_KERNEL)

// Inputs: x = lo + (hi - lo) u with u uniform on the 2^24-point grid of [0, 1), or (log) every
// positive normal float32 bit pattern equally likely.
__global__ void Fill(float* x, std::size_t n, float lo, float hi, bool bits) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    uint64_t h = i + 0x9E3779B97F4A7C15ull;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    if (bits) {
      x[i] = __uint_as_float(0x00800000u + uint32_t(h % (0x7F7FFFFFull - 0x00800000ull + 1)));
    } else {
      x[i] = lo + (hi - lo) * (float(h >> 40) * 0x1p-24f);
    }
  }
}

using Launch = void (*)(float*, const float*, std::size_t);
using RefLaunch = void (*)(double*, const float*, std::size_t);

struct Row {
  const char* name;
  const char* cuda_name;
  float lo, hi;
  bool bits;
  Launch accelmath, cuda, fast;
  RefLaunch ref;
};

template <accelmath::Status (*F)(float*, const float*, std::size_t, cudaStream_t) noexcept>
void AccelmathLaunch(float* y, const float* x, std::size_t n) {
  if (F(y, x, n, 0) != accelmath::Status::kOk) {
    std::printf("FATAL accelmath::cuda call refused\n");
    std::exit(2);
  }
}

#define ACCELMATH_REF_LAUNCH(row, ffn, dfn)                                                        \
  void row##_ref_launch(double* r, const float* x, std::size_t n) {                                \
    const std::size_t blocks = (n + 255) / 256;                                                    \
    row##_ref<<<unsigned(blocks < (1u << 20) ? blocks : (1u << 20)), 256>>>(r, x, n);              \
  }
ACCELMATH_CUDA_BENCH_FUNCTIONS(ACCELMATH_REF_LAUNCH)

// Domains: where each function has finite, non-trivial float32 results (tgamma and lgamma on the
// positive axis, where CUDA's binary64 functions are accurate; lgamma's negative zeros are the
// sweep's business, docs/accuracy.md).
const Row kRows[] = {
#define ACCELMATH_ROW(row, ffn, lo, hi, bits) \
  {#row, #ffn, lo, hi, bits, &AccelmathLaunch<&accelmath::cuda::row>, &cuda_default::row, &fast::row, &row##_ref_launch},
    ACCELMATH_ROW(sin, sinf, -100.0f, 100.0f, false)
    ACCELMATH_ROW(exp, expf, -87.0f, 88.0f, false)
    ACCELMATH_ROW(log, logf, 0.0f, 0.0f, true)
    ACCELMATH_ROW(erf, erff, -4.0f, 4.0f, false)
    ACCELMATH_ROW(erfc, erfcf, -2.0f, 10.0f, false)
    ACCELMATH_ROW(erfinv, erfinvf, -1.0f, 1.0f, false)
    ACCELMATH_ROW(ndtri, normcdfinvf, 0.0f, 1.0f, false)
    ACCELMATH_ROW(tgamma, tgammaf, 0.0f, 35.0f, false)
    ACCELMATH_ROW(lgamma, lgammaf, 0.0f, 100.0f, false)
    ACCELMATH_ROW(cyl_bessel_i0, cyl_bessel_i0f, -90.0f, 90.0f, false)
#undef ACCELMATH_ROW
};

// Error of float y in float32 ulps of the binary64 reference r: |y - r| / ulp(r), ulp(r) the spacing
// of float32 at |r| (2^-149 below 2^-126; MAX's above MAX). A NaN must meet a NaN, an infinity the
// infinity r rounds to; otherwise the error is infinite.
double UlpError(float y, double r) {
  if (std::isnan(r) || std::isnan(y)) return std::isnan(r) && std::isnan(y) ? 0.0 : INFINITY;
  if (std::isinf(y)) return static_cast<float>(r) == y ? 0.0 : INFINITY;
  const double a = std::min(std::fabs(r), double(FLT_MAX));
  int e = 0;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1)
  const double ulp = a < 0x1p-126 ? 0x1p-149 : std::ldexp(1.0, e - 24);
  return std::fabs(double(y) - r) / ulp;
}

struct Worst {
  double ulp = 0;
  float x = 0;
};

Worst MaxUlp(const std::vector<float>& x, const std::vector<float>& y, const std::vector<double>& r) {
  const size_t n = x.size();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Worst> part(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (size_t i = t; i < n; i += threads) {
        const double e = UlpError(y[i], r[i]);
        if (e > part[t].ulp) part[t] = {e, x[i]};
      }
    });
  }
  for (auto& th : pool) th.join();
  Worst w;
  for (const Worst& p : part) {
    if (p.ulp > w.ulp) w = p;
  }
  return w;
}

// Median time of one launch, in seconds.
double TimeLaunch(const std::function<void()>& launch) {
  for (int i = 0; i < 2; ++i) launch();
  CUDA_OK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CUDA_OK(cudaEventCreate(&a));
  CUDA_OK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int i = 0; i < 10; ++i) {
    CUDA_OK(cudaEventRecord(a));
    launch();
    CUDA_OK(cudaEventRecord(b));
    CUDA_OK(cudaEventSynchronize(b));
    float t = 0;
    CUDA_OK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CUDA_OK(cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1e-3;
}

// MX on device tensors: quantize float32 [n/1024, 1024] (blocksize 32, last axis) to E4M3 and E2M1,
// and dequantize the codes back to float32, in GB/s of float32 data (4n bytes; the codes and scales
// are extra traffic), beside a device-to-device copy of the same 4n bytes.
void MxSpeed(size_t m) {
  namespace amx = accelmath::mx;
  const size_t n = m << 20;
  const int64_t shape[] = {int64_t(n / 1024), 1024};
  int64_t storage[8];
  const auto sshape = amx::scale_shape(shape, -1, 32, storage);
  size_t scale_bytes = 1;
  for (const int64_t d : sshape) scale_bytes *= size_t(d);
  float *dx, *dz;
  uint8_t *dy, *ds;
  CUDA_OK(cudaMalloc(&dx, n * 4));
  CUDA_OK(cudaMalloc(&dz, n * 4));
  CUDA_OK(cudaMalloc(&dy, n));  // FP8 codes; FP4 uses half
  CUDA_OK(cudaMalloc(&ds, scale_bytes));
  Fill<<<4096, 256>>>(dx, n, -1000.0f, 1000.0f, false);
  const double gb = n * 4e-9;
  const double copy = gb / TimeLaunch([&] { CUDA_OK(cudaMemcpyAsync(dz, dx, n * 4, cudaMemcpyDeviceToDevice)); });
  std::printf("\n| MX, float32 [%zuM/1024, 1024], blocksize 32 | GB/s of float32 | vs copy (%.0f GB/s) |\n|---|---:|---:|\n",
              m, copy);
  using amx::DType;
  for (const DType t : {DType::kFloat8E4M3FN, DType::kFloat4E2M1}) {
    amx::QuantizeOptions q;
    q.dst_type = t;
    const amx::TensorView x{dx, DType::kFloat32, shape};
    const amx::MutableTensorView y{dy, t, shape}, sc{ds, DType::kFloat8E8M0, sshape};
    const auto quantize = [&] {
      if (const amx::Error e = accelmath::cuda::mx::quantize(x, y, sc, q); !e.ok()) {
        std::printf("FATAL mx quantize: %s\n", e.message.c_str());
        std::exit(1);
      }
    };
    const double gq = gb / TimeLaunch(quantize);
    const amx::MutableTensorView z{dz, DType::kFloat32, shape};
    const auto dequantize = [&] {
      if (const amx::Error e = accelmath::cuda::mx::dequantize({dy, t, shape}, {ds, DType::kFloat8E8M0, sshape}, z);
          !e.ok()) {
        std::printf("FATAL mx dequantize: %s\n", e.message.c_str());
        std::exit(1);
      }
    };
    const double gd = gb / TimeLaunch(dequantize);
    std::printf("| quantize float32 -> %s | %.0f | %.2f |\n| dequantize %s -> float32 | %.0f | %.2f |\n",
                amx::dtype_name(t), gq, gq / copy, amx::dtype_name(t), gd, gd / copy);
  }
  cudaFree(dx);
  cudaFree(dz);
  cudaFree(dy);
  cudaFree(ds);
}

}  // namespace
}  // namespace accelmath_bench

int main(int argc, char** argv) {
  using namespace accelmath_bench;
  std::vector<size_t> sizes = {16, 256};
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--sizes" && i + 1 < argc) {
      sizes.clear();
      for (const char* p = argv[++i]; *p;) {
        sizes.push_back(std::strtoul(p, const_cast<char**>(&p), 10));
        if (*p == ',') ++p;
      }
    } else {
      std::printf("usage: bench_cuda [--sizes 16,256]   (millions of elements)\n");
      return 2;
    }
  }
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (accelmath::cuda::device_count() == 0) {
    std::printf("SKIP: no CUDA device here\n");
    return 77;
  }
  cudaDeviceProp p;
  CUDA_OK(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s, sm_%d%d, %d SMs; 1M = 2^20 elements; Gelem/s = 1e9 elements per second\n\n", p.name,
              p.major, p.minor, p.multiProcessorCount);
  // Accuracy on 16M inputs.
  const size_t na = size_t{16} << 20;
  float *dx, *dy;
  double* dr;
  CUDA_OK(cudaMalloc(&dx, na * 4));
  CUDA_OK(cudaMalloc(&dy, na * 4));
  CUDA_OK(cudaMalloc(&dr, na * 8));
  std::printf("| function (domain) | accelmath max ulp | CUDA | at x | -use_fast_math | at x |\n|---|---:|---:|---:|---:|---:|\n");
  std::vector<float> x(na), y(na);
  std::vector<double> r(na);
  for (const Row& row : kRows) {
    Fill<<<4096, 256>>>(dx, na, row.lo, row.hi, row.bits);
    row.ref(dr, dx, na);
    CUDA_OK(cudaMemcpy(x.data(), dx, na * 4, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(r.data(), dr, na * 8, cudaMemcpyDeviceToHost));
    Worst w[3];
    const Launch l[3] = {row.accelmath, row.cuda, row.fast};
    for (int k = 0; k < 3; ++k) {
      l[k](dy, dx, na);
      CUDA_OK(cudaMemcpy(y.data(), dy, na * 4, cudaMemcpyDeviceToHost));
      w[k] = MaxUlp(x, y, r);
    }
    char domain[64];
    if (row.bits) std::snprintf(domain, sizeof domain, "positive normal floats");
    else std::snprintf(domain, sizeof domain, "[%g, %g]", row.lo, row.hi);
    std::printf("| %s / %s (%s) | %.3f | %.3f | %a | %.3g | %a |\n", row.name, row.cuda_name, domain, w[0].ulp, w[1].ulp,
                w[1].x, w[2].ulp, w[2].x);
  }
  cudaFree(dy);
  cudaFree(dr);
  cudaFree(dx);
  // Speed.
  std::printf("\n| function | elements | accelmath Gelem/s | CUDA Gelem/s | fast-math Gelem/s | accelmath / CUDA | copy Gelem/s |\n"
              "|---|---:|---:|---:|---:|---:|---:|\n");
  for (size_t m : sizes) {
    const size_t n = m << 20;
    CUDA_OK(cudaMalloc(&dx, n * 4));
    CUDA_OK(cudaMalloc(&dy, n * 4));
    const double copy = n / TimeLaunch([&] { CUDA_OK(cudaMemcpyAsync(dy, dx, n * 4, cudaMemcpyDeviceToDevice)); }) * 1e-9;
    for (const Row& row : kRows) {
      Fill<<<4096, 256>>>(dx, n, row.lo, row.hi, row.bits);
      double g[3];
      const Launch l[3] = {row.accelmath, row.cuda, row.fast};
      for (int k = 0; k < 3; ++k) g[k] = n / TimeLaunch([&] { l[k](dy, dx, n); }) * 1e-9;
      std::printf("| %s | %zuM | %.1f | %.1f | %.1f | %.2f | %.1f |\n", row.name, m, g[0], g[1], g[2], g[0] / g[1], copy);
    }
    cudaFree(dx);
    cudaFree(dy);
  }
  MxSpeed(sizes.back());
  return 0;
}
