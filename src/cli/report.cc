#include "cli/report.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "accelmath/registry.h"
#include "accuracy/oracle.h"
#include "accuracy/sweep.h"

namespace accelmath::cli {

double median_seconds(const std::function<void()>& fn, int reps) {
  std::vector<double> t;
  fn();  // warm-up
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2];
}

// One row per registry function: the accuracy on a sample (2^20 random inputs plus the edge cases,
// against the function's oracle), its bit-exact special values, and its throughput at 64K
// elements, one thread, beside the C library's scalar float function (the row's libm column, looked
// up at run time) in the same run. Inputs for the speed: the sample itself (every class of input,
// specials included), a different window per repetition.
int report(std::FILE* out) {
  constexpr std::size_t kSample = 1 << 20;
  constexpr std::size_t kBench = 1 << 16;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::fprintf(out, "accelmath report: every math function (accuracy: %zu random inputs + edge cases vs the oracle;\n",
               kSample);
  std::fprintf(out, "speed: %zu mixed inputs, one thread, median of 15, vs the C library's float function)\n\n", kBench);
  std::fprintf(out, "%-15s %-6s %-10s %-10s %-9s %-26s %-10s %s\n", "function", "bound", "max ulp", "rounded", "specials",
               "CANN 1e-4 (error ratio)", "Melem/s", "vs libm");
  int rc = 0;
  for (const FunctionInfo& f : functions()) {
    const oracle::Oracle* o = oracle::find_oracle(f.name);
    if (!o) {
      std::fprintf(out, "%-15s FAIL: no oracle row\n", f.name);
      rc = 1;
      continue;
    }
    const std::vector<float> sample = sweep::sample(kSample, 20260715, &f);
    const sweep::Result r = sweep::run_inputs(f, *o, sample, threads, false);
    const auto same = [](float y, float want) {
      return std::isnan(want) ? std::isnan(y) : (y == want && std::signbit(y) == std::signbit(want));
    };
    std::size_t special_ok = 0;
    for (const Special& s : f.specials) {
      float y1 = 0, y2 = 0;
      f.run_scalar(s.in, &y1, &y2);
      special_ok += same(y1, s.out) && (f.outputs() == 1 || same(y2, s.out2));
    }
    std::vector<float> y(kBench), y2(kBench);
    std::size_t off = 0;
    const auto window = [&] { off = (off + kBench) % (sample.size() - kBench); return sample.data() + off; };
    const double t = median_seconds([&] { f.run(y, y2, std::span<const float>(window(), kBench), kBench); }, 15);
    std::string anchor = "-";
    using LibmFn = float (*)(float);
    if (auto* g = *f.libm && f.outputs() == 1 ? reinterpret_cast<LibmFn>(dlsym(RTLD_DEFAULT, f.libm)) : nullptr) {
      const double tg = median_seconds([&] {
        const float* x = window();
        for (std::size_t i = 0; i < kBench; ++i) y[i] = g(x[i]);
      }, 15);
      char b[64];
      std::snprintf(b, sizeof b, "%.1fx %s", tg / t, f.libm);
      anchor = b;
    }
    const bool cann = r.dual_error_ratio() <= 1e-4;
    const bool ok = r.max_ulp <= f.bound_ulp && special_ok == f.specials.size() && r.special_mismatches == 0 && cann &&
                    r.pair_mismatches == 0;
    if (!ok) rc = 1;
    char verdict[64], specials[32], rounded[32], max_ulp[32];
    std::snprintf(verdict, sizeof verdict, "%s (%.2e)", cann ? "PASS" : "FAIL", r.dual_error_ratio());
    std::snprintf(specials, sizeof specials, "%zu/%zu", special_ok, f.specials.size());
    if (f.outputs() == 1) {
      std::snprintf(rounded, sizeof rounded, "%.3f%%", 100.0 * double(r.correctly_rounded) / double(r.count));
      std::snprintf(max_ulp, sizeof max_ulp, "%.4f", r.max_ulp);
    } else {  // two results: bit-identical to its parts (their rows give the accuracy), or not
      std::snprintf(rounded, sizeof rounded, "%s", "(parts)");
      std::snprintf(max_ulp, sizeof max_ulp, "%s", r.pair_mismatches ? "DIFFERS" : "=parts");
      std::snprintf(verdict, sizeof verdict, "%s", "(parts)");
    }
    std::fprintf(out, "%-15s %-6g %-10s %-10s %-9s %-26s %-10.1f %s%s\n", f.name, f.bound_ulp, max_ulp, rounded,
                 specials, verdict, kBench / t / 1e6, anchor.c_str(), ok ? "" : "  FAIL");
  }
  return rc;
}

}  // namespace accelmath::cli
