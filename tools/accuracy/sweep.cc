#include "accuracy/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <thread>

#include "accelmath/math.h"
#include "accelmath/verify.h"
#include "accuracy/oracle.h"

namespace accelmath::sweep {
namespace {

constexpr std::uint64_t kChunk = 1 << 16;

float FromBits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

void Accumulate(Result& r, float p, float y, double ref) {
  ++r.count;
  const double e = oracle::ulp_error_f32(y, ref);
  std::size_t b = 0;
  while (b < kBucketEdges.size() && !(e <= kBucketEdges[b])) ++b;
  ++r.histogram[b];
  if (std::isinf(e)) ++r.special_mismatches;
  if (e > r.max_ulp) r.max_ulp = e, r.worst_p = p, r.worst_y = y, r.worst_ref = ref;
  if (std::isfinite(ref)) {
    if (!std::isfinite(y) || verify::dual_threshold_error(ref, y, 1e-4, 1e-4)) ++r.dual_errors;
    if (ref != 0) {
      const double rel = std::fabs((double(y) - ref) / ref);
      if (rel > r.max_rel) r.max_rel = rel, r.worst_rel_p = p;
    }
  } else if (!(std::isnan(ref) ? std::isnan(y) : double(y) == ref)) {
    ++r.dual_errors;
  }
}

// Runs chunks [0, n_chunks) of an input set on `threads` threads. `fill(c, buf)` writes chunk c's
// inputs into buf and returns their number.
template <class Fill>
Result RunChunks(Variant v, std::uint64_t n_chunks, std::uint64_t total, unsigned threads, bool progress, Fill fill) {
  threads = std::max(1u, threads);
  std::atomic<std::uint64_t> next{0}, done{0};
  std::vector<Result> partial(threads);
  auto work = [&](unsigned t) {
    std::vector<float> in(kChunk), out(kChunk);
    for (std::uint64_t c; (c = next.fetch_add(1)) < n_chunks;) {
      const std::size_t n = fill(c, in.data());
      const std::span<const float> src(in.data(), n);
      if (v == Variant::kDefault) {
        accelmath::ndtri(out, src);
      } else {
        accelmath::ndtri_taskbook(out, src);
      }
      for (std::size_t i = 0; i < n; ++i) Accumulate(partial[t], in[i], out[i], oracle::ndtri(in[i]));
      done.fetch_add(n);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
  if (progress) {
    const auto t0 = std::chrono::steady_clock::now();
    while (done.load() < total) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double f = double(done.load()) / double(total);
      std::fprintf(stderr, "\r  %5.1f%%  %llu / %llu inputs  %.0f s elapsed, ~%.0f s left   ", 100 * f,
                   static_cast<unsigned long long>(done.load()), static_cast<unsigned long long>(total), s,
                   f > 0 ? s / f - s : 0.0);
    }
    std::fprintf(stderr, "\n");
  }
  for (auto& th : pool) th.join();
  Result r;
  for (const auto& p : partial) r.merge(p);
  return r;
}

}  // namespace

const char* variant_name(Variant v) { return v == Variant::kDefault ? "default" : "taskbook"; }

void Result::merge(const Result& o) {
  count += o.count;
  if (o.max_ulp > max_ulp) max_ulp = o.max_ulp, worst_p = o.worst_p, worst_y = o.worst_y, worst_ref = o.worst_ref;
  if (o.max_rel > max_rel) max_rel = o.max_rel, worst_rel_p = o.worst_rel_p;
  dual_errors += o.dual_errors;
  special_mismatches += o.special_mismatches;
  for (std::size_t i = 0; i < kBuckets; ++i) histogram[i] += o.histogram[i];
}

Result run_all(Variant v, unsigned threads, bool progress) {
  constexpr std::uint64_t kEnd = 0x3F800000ull + 1;  // bit patterns of [+0, 1]
  const std::uint64_t n_chunks = (kEnd + kChunk - 1) / kChunk;
  return RunChunks(v, n_chunks, kEnd, threads, progress, [&](std::uint64_t c, float* buf) {
    const std::uint64_t b0 = c * kChunk, b1 = std::min(kEnd, b0 + kChunk);
    for (std::uint64_t b = b0; b < b1; ++b) buf[b - b0] = FromBits(static_cast<std::uint32_t>(b));
    return static_cast<std::size_t>(b1 - b0);
  });
}

Result run_inputs(Variant v, std::span<const float> inputs, unsigned threads, bool progress) {
  const std::uint64_t n = inputs.size();
  return RunChunks(v, (n + kChunk - 1) / kChunk, n, threads, progress, [&](std::uint64_t c, float* buf) {
    const std::uint64_t i0 = c * kChunk, i1 = std::min(n, i0 + kChunk);
    std::copy(inputs.begin() + i0, inputs.begin() + i1, buf);
    return static_cast<std::size_t>(i1 - i0);
  });
}

std::vector<float> edge_cases() {
  std::vector<float> v;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (float s : {0.0f, -0.0f, 1.0f, 0.5f, -0.1f, 1.1f, -1.0f, 2.0f, inf, -inf, nan,
                  std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                  std::nextafter(std::numeric_limits<float>::min(), 0.0f), 1e-45f, 1e-30f, 1e-20f,
                  1e-10f, 1e-5f, 1e-2f, 1 - 1e-5f, 1 - 1e-2f, 0.1f, 0.9f}) {
    v.push_back(s);
  }
  // Neighbours (+-64 ulp) of region boundaries: |p - 1/2| = 0.425, r = 5 (t = e^-25), 1/2, 1/4, 3/4,
  // 1 - 2^-24 (largest float below 1), and of the normal/subnormal boundary.
  for (float c : {0.075f, 0.925f, std::exp(-25.0f), 1 - std::exp(-25.0f), 0.5f, 0.25f, 0.75f, 1.0f,
                  std::numeric_limits<float>::min()}) {
    float lo = c, hi = c;
    for (int k = 0; k < 64; ++k) {
      lo = std::nextafter(lo, 0.0f), hi = std::nextafter(hi, 2.0f);
      v.push_back(lo), v.push_back(hi);
    }
  }
  // Powers of two and their neighbours, and their mirrors 1 - 2^-k where exact.
  for (int k = 1; k <= 149; ++k) {
    const float t = std::ldexp(1.0f, -k);
    v.push_back(t), v.push_back(std::nextafter(t, 0.0f)), v.push_back(std::nextafter(t, 1.0f));
    if (k <= 24) v.push_back(1.0f - t);
  }
  return v;
}

std::vector<float> sample(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> bits(0, 0x3F800000u);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> v;
  v.reserve(n + 2048);
  for (std::size_t i = 0; i < n; ++i) v.push_back(i % 2 ? FromBits(bits(rng)) : unit(rng));
  const auto e = edge_cases();
  v.insert(v.end(), e.begin(), e.end());
  return v;
}

void print(const Result& r, Variant v, const std::string& input_set, std::FILE* out) {
  std::fprintf(out, "ndtri (%s) over %s: %llu inputs\n", variant_name(v), input_set.c_str(),
               static_cast<unsigned long long>(r.count));
  std::fprintf(out, "  max ulp error  %.6f  at p = %.9g (0x%08x): got %.9g, exact %.17g\n", r.max_ulp, r.worst_p,
               [&] { std::uint32_t b; std::memcpy(&b, &r.worst_p, 4); return b; }(), r.worst_y, r.worst_ref);
  std::fprintf(out, "  max rel error  %.3e  at p = %.9g\n", r.max_rel, r.worst_rel_p);
  std::fprintf(out, "  special-value mismatches  %llu\n", static_cast<unsigned long long>(r.special_mismatches));
  std::fprintf(out, "  dual threshold 1e-4 vs oracle: %llu errors, error ratio %.3e -> %s\n",
               static_cast<unsigned long long>(r.dual_errors), r.dual_error_ratio(),
               r.dual_error_ratio() <= 1e-4 ? "PASS" : "FAIL");
  std::fprintf(out, "  ulp histogram:\n");
  double lo = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    if (r.histogram[i] == 0) {
      if (i < kBucketEdges.size()) lo = kBucketEdges[i];
      continue;
    }
    char label[64];
    if (i < kBucketEdges.size()) {
      std::snprintf(label, sizeof label, "%s%g, %g]", i == 0 ? "[" : "(", lo, kBucketEdges[i]);
      lo = kBucketEdges[i];
    } else {
      std::snprintf(label, sizeof label, "> %g", kBucketEdges.back());
    }
    std::fprintf(out, "    %-18s %12llu  %9.5f%%\n", label, static_cast<unsigned long long>(r.histogram[i]),
                 100.0 * double(r.histogram[i]) / double(r.count));
  }
}

}  // namespace accelmath::sweep
