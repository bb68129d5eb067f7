// Is bench_math's MKL anchor faithful? bench_math --mkl=direct calls MKL VM's HA kernels
// _vmls<mkl>_HA of libmkl_vml_avx2/avx512 directly, instead of vms<mkl>(..., VML_HA) through MKL's
// CPU dispatch. This program compares the two ways on the one library both reach on this CPU:
// MKL's dispatch picks LIB (libmkl_vml_def on a CPU that is not Intel's; say which with --lib), and
// the same library's kernels are called directly. For every registry row with an MKL name (one
// input, two inputs, or sincos), on 64K inputs (x in (0.01, 0.99), a second input in (0.04, 3.96):
// inside every row's domain): the lanes whose bits differ, and the time of each way (best of 30
// calls, 3 alternating rounds). Exit status 1 if any lane differs.
//
//   build/mkl_check [--dir=build/mkl] [--lib=libmkl_vml_def.so.3]
// MKL is loaded at run time only (bench/fetch_mkl.sh), as in bench_math.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "accelmath/registry.h"

namespace {

double BestUs(const std::function<void()>& f) {
  double best = 1e300;
  for (int r = 0; r < 30; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "build/mkl", lib = "libmkl_vml_def.so.3";
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.rfind("--dir=", 0) == 0) {
      dir = a.substr(6);
    } else if (a.rfind("--lib=", 0) == 0) {
      lib = a.substr(6);
    } else {
      std::fprintf(stderr, "mkl_check: %s: expected --dir=DIR or --lib=LIBRARY\n", argv[i]);
      return 2;
    }
  }
  setenv("MKL_THREADING_LAYER", "SEQUENTIAL", 1);
  void* rt = dlopen((dir + "/libmkl_rt.so.3").c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!rt) {
    std::fprintf(stderr, "mkl_check: %s (bench/fetch_mkl.sh puts MKL in build/mkl)\n", dlerror());
    return 2;
  }
  using Unary = void (*)(int, const float*, float*, long long);
  const float one = 1.0f;
  float r0 = 0.0f;
  reinterpret_cast<Unary>(dlsym(rt, "vmsAbs"))(1, &one, &r0, 0x2);  // loads libmkl_core, as bench_math does
  // The library MKL's dispatch picked (it loads one libmkl_vml_* at its first call).
  std::ifstream maps("/proc/self/maps");
  std::string line, picked;
  while (std::getline(maps, line)) {
    if (const auto pos = line.find("libmkl_vml_"); pos != std::string::npos) picked = line.substr(pos);
  }
  if (picked != lib) {
    std::fprintf(stderr, "mkl_check: MKL's dispatch picked %s here, not %s: run with --lib=%s\n",
                 picked.empty() ? "no VM library" : picked.c_str(), lib.c_str(), picked.c_str());
    return 2;
  }
  void* kernels = dlopen((dir + "/" + lib).c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (!kernels) {
    std::fprintf(stderr, "mkl_check: %s\n", dlerror());
    return 2;
  }
  constexpr int n = 1 << 16;
  std::vector<float> a(n), b(n), r1(n), r2(n), s1(n), s2(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0.01f, 0.99f);
  int rows = 0, differ_total = 0;
  double lo = 1e300, hi = 0;
  for (const accelmath::FunctionInfo& f : accelmath::functions()) {
    using accelmath::Shape;
    if (!*f.mkl || (f.shape != Shape::kUnary && f.shape != Shape::kUnaryPair && f.shape != Shape::kBinary)) continue;
    for (auto& x : a) x = u(rng);
    for (auto& x : b) x = 4 * u(rng);
    void* vp = dlsym(rt, (std::string("vms") + f.mkl).c_str());
    void* kp = dlsym(kernels, (std::string("_vmls") + f.mkl + "_HA").c_str());
    if (!vp || !kp) {
      std::printf("%-14s %-10s missing (%s)\n", f.name, f.mkl, vp ? "kernel" : "vms");
      continue;
    }
    std::function<void()> dispatch, direct;
    if (f.shape == Shape::kUnary) {
      dispatch = [&, v = reinterpret_cast<Unary>(vp)] { v(n, a.data(), r1.data(), 0x2); };
      direct = [&, k = reinterpret_cast<void (*)(int, const float*, float*)>(kp)] { k(n, a.data(), r2.data()); };
    } else if (f.shape == Shape::kBinary) {
      dispatch = [&, v = reinterpret_cast<void (*)(int, const float*, const float*, float*, long long)>(vp)] {
        v(n, a.data(), b.data(), r1.data(), 0x2);
      };
      direct = [&, k = reinterpret_cast<void (*)(int, const float*, const float*, float*)>(kp)] {
        k(n, a.data(), b.data(), r2.data());
      };
    } else {
      dispatch = [&, v = reinterpret_cast<void (*)(int, const float*, float*, float*, long long)>(vp)] {
        v(n, a.data(), r1.data(), s1.data(), 0x2);
      };
      direct = [&, k = reinterpret_cast<void (*)(int, const float*, float*, float*)>(kp)] {
        k(n, a.data(), r2.data(), s2.data());
      };
    }
    dispatch();
    direct();
    int differ = 0;
    for (int i = 0; i < n; ++i) {
      differ += std::memcmp(&r1[i], &r2[i], 4) != 0 || (f.shape == Shape::kUnaryPair && std::memcmp(&s1[i], &s2[i], 4) != 0);
    }
    double tv = 1e300, tk = 1e300;
    for (int round = 0; round < 3; ++round) {
      tv = std::min(tv, BestUs(dispatch));
      tk = std::min(tk, BestUs(direct));
    }
    ++rows;
    differ_total += differ;
    lo = std::min(lo, tv / tk);
    hi = std::max(hi, tv / tk);
    std::printf("%-14s %-10s lanes differing %5d   dispatch %9.1f us   direct %9.1f us   dispatch/direct %.3f\n", f.name,
                f.mkl, differ, tv, tk, tv / tk);
  }
  std::printf("%d functions, %s called directly against MKL's dispatch: %d lanes differing; dispatch/direct time "
              "%.3f..%.3f\n",
              rows, lib.c_str(), differ_total, lo, hi);
  return differ_total == 0 && rows > 0 ? 0 : 1;
}
