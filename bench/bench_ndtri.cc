// ndtri throughput, single thread, side by side with Boost.Math in the same run.
//   build/bench_ndtri --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Inputs: uniform random p in (0, 1), random order (about 15% of them in the tails).
// bench/ndtri_ratios.py turns the JSON output into the ratio table of docs/performance.md.
#include <benchmark/benchmark.h>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/erf.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "accelmath/accelmath.h"

namespace {

// Uniform p in (0, 1), or (tails_only) uniform in (0, 0.075) mirrored to (0.925, 1) for odd i.
std::vector<float> Inputs(std::size_t n, bool tails_only = false) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(0.0f, tails_only ? 0.075f : 1.0f);
  std::vector<float> p(n);
  for (std::size_t i = 0; i < n; ++i) {
    do p[i] = u(rng);
    while (p[i] == 0.0f);
    if (tails_only && i % 2) p[i] = 1.0f - p[i];
  }
  return p;
}

// Each iteration processes n elements from a pool of max(n, 64K) inputs, a different window each
// time: with the same few inputs on every call, the branch predictor learns the per-element branches
// of the scalar anchors (Boost runs about 30% faster on a repeated 1K input than on fresh ones),
// which real callers do not get. Branch-free accelmath is unaffected.
template <class Fn>
void Run(benchmark::State& state, Fn fn, bool tails_only = false) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::size_t pool = std::max<std::size_t>(n, 1 << 16);
  const std::vector<float> p = Inputs(pool, tails_only);
  std::vector<float> x(pool);
  std::size_t off = 0;
  for (auto _ : state) {
    fn(std::span<float>(x).subspan(off, n), std::span<const float>(p).subspan(off, n));
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
    off = (off + n) % pool;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n));
}

void BM_accelmath_ndtri(benchmark::State& s) {
  Run(s, [](std::span<float> x, std::span<const float> p) { accelmath::ndtri(x, p); });
}
void BM_accelmath_ndtri_taskbook(benchmark::State& s) {
  Run(s, [](std::span<float> x, std::span<const float> p) { accelmath::ndtri_taskbook(x, p); });
}
void BM_accelmath_scalar_ndtri(benchmark::State& s) {
  Run(s, [](std::span<float> x, std::span<const float> p) {
    for (std::size_t i = 0; i < p.size(); ++i) x[i] = accelmath::scalar::ndtri(p[i]);
  });
}
void BM_boost_quantile_normal_float(benchmark::State& s) {
  const boost::math::normal_distribution<float> nd;
  Run(s, [&](std::span<float> x, std::span<const float> p) {
    for (std::size_t i = 0; i < p.size(); ++i) x[i] = boost::math::quantile(nd, p[i]);
  });
}
void BM_boost_erf_inv_float(benchmark::State& s) {
  Run(s, [](std::span<float> x, std::span<const float> p) {
    for (std::size_t i = 0; i < p.size(); ++i) x[i] = float(M_SQRT2) * boost::math::erf_inv(2.0f * p[i] - 1.0f);
  });
}

// Tail-only inputs: the expensive region (log, sqrt, rational) for every element.
void BM_accelmath_ndtri_tails(benchmark::State& s) {
  Run(s, [](std::span<float> x, std::span<const float> p) { accelmath::ndtri(x, p); }, true);
}
void BM_boost_quantile_normal_float_tails(benchmark::State& s) {
  const boost::math::normal_distribution<float> nd;
  Run(s, [&](std::span<float> x, std::span<const float> p) {
    for (std::size_t i = 0; i < p.size(); ++i) x[i] = boost::math::quantile(nd, p[i]);
  }, true);
}

void Sizes(benchmark::internal::Benchmark* b) {
  for (int64_t n : {1 << 10, 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 24}) b->Arg(n);
}

BENCHMARK(BM_accelmath_ndtri)->Apply(Sizes);
BENCHMARK(BM_accelmath_ndtri_taskbook)->Apply(Sizes);
BENCHMARK(BM_accelmath_scalar_ndtri)->Apply(Sizes);
BENCHMARK(BM_boost_quantile_normal_float)->Apply(Sizes);
BENCHMARK(BM_boost_erf_inv_float)->Apply(Sizes);
BENCHMARK(BM_accelmath_ndtri_tails)->Arg(1 << 16);
BENCHMARK(BM_boost_quantile_normal_float_tails)->Arg(1 << 16);

}  // namespace

BENCHMARK_MAIN();
