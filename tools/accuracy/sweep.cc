#include "accuracy/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <system_error>
#include <thread>

#include "accelmath/verify.h"
#include "accuracy/oracle.h"
#include "cli/progress.h"
#include "cli/threads.h"

namespace accelmath::sweep {
namespace {

constexpr std::uint64_t kChunk = 1 << 16;

float FromBits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::uint32_t Bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// Whether error e at input (x, x2) replaces the worst so far (worst at (worst_x, worst_x2)):
// larger, or as large at a smaller bit pattern (x first, then x2; x2 is 0 for one-input rows), so
// that the worst input reported does not depend on how the inputs were split among threads (many
// inputs can share the maximum, e.g. a relative error of 1 where the result underflows to 0).
bool Worse(double e, float x, float x2, double worst, float worst_x, float worst_x2) {
  if (e != worst) return e > worst;
  return Bits(x) < Bits(worst_x) || (Bits(x) == Bits(worst_x) && Bits(x2) < Bits(worst_x2));
}

// One result y = f(x) (x2 = 0) or f(x, x2) against the oracle.
void Accumulate(Result& r, const FunctionInfo& f, const oracle::Oracle& o, float x, float x2, float y) {
  ++r.count;
  const double ref = o.fast_at(x, x2);
  double e = oracle::ulp_error_f32(y, ref);
  // The exact tier where the double one cannot decide: near 0.5 ulp (is it correctly rounded?),
  // near the bound, or a class mismatch (NaN, infinity) that the double could have caused.
  if (std::fabs(e - 0.5) < kExactMargin || e > f.bound_ulp - kExactMargin) {
    e = oracle::ulp_error_exact(o, x, x2, y);
    ++r.exact_checks;
  }
  std::size_t b = 0;
  while (b < kBucketEdges.size() && !(e <= kBucketEdges[b])) ++b;
  ++r.histogram[b];
  if (e <= 0.5) ++r.correctly_rounded;
  if (std::isinf(e)) ++r.special_mismatches;
  if (Worse(e, x, x2, r.max_ulp, r.worst_x, r.worst_x2)) {
    r.max_ulp = e, r.worst_x = x, r.worst_x2 = x2, r.worst_y = y, r.worst_ref = ref;
  }
  // The dual-threshold standard compares with a float32 golden (the reference rounded once), as
  // the modelled test data do: an overflow to inf is then a match, not an error.
  const float golden = static_cast<float>(ref);
  if (std::isfinite(golden)) {
    if (!std::isfinite(y) || verify::dual_threshold_error(golden, y, 1e-4, 1e-4)) ++r.dual_errors;
  } else if (!(std::isnan(golden) ? std::isnan(y) : y == golden)) {
    ++r.dual_errors;
  }
  if (std::isfinite(ref) && ref != 0 && std::isfinite(y)) {
    const double rel = std::fabs((double(y) - ref) / ref);
    if (Worse(rel, x, x2, r.max_rel, r.worst_rel_x, r.worst_rel_x2)) r.max_rel = rel, r.worst_rel_x = x, r.worst_rel_x2 = x2;
  }
}

// The work on one chunk of inputs (in2: the second inputs of a two-input row, zeros otherwise): a
// one-output row against its oracle, or a two-output row (UnaryPair) against the one-output rows it
// must equal bit for bit.
struct ChunkWork {
  const FunctionInfo& f;
  const oracle::Oracle* o;                        // one-output rows
  const FunctionInfo *part1 = nullptr, *part2 = nullptr;  // UnaryPair rows
  void operator()(std::span<const float> in, std::span<const float> in2, Result& r) const {
    const std::size_t n = in.size();
    thread_local std::vector<float> y1, y2, p1, p2;
    y1.resize(n), y2.resize(n);
    f.run(y1, y2, in, in2, n);
    if (!part1) {
      for (std::size_t i = 0; i < n; ++i) Accumulate(r, f, *o, in[i], in2[i], y1[i]);
      return;
    }
    p1.resize(n), p2.resize(n);
    part1->run(p1, p1, in, in, n);
    part2->run(p2, p2, in, in, n);
    for (std::size_t i = 0; i < n; ++i) {
      ++r.count;
      if (Bits(y1[i]) != Bits(p1[i]) || Bits(y2[i]) != Bits(p2[i])) {
        if (r.pair_mismatches++ == 0) r.worst_x = in[i], r.worst_y = Bits(y1[i]) != Bits(p1[i]) ? y1[i] : y2[i];
      }
    }
  }
};

ChunkWork WorkFor(const FunctionInfo& f, const oracle::Oracle& o) {
  if (f.shape != Shape::kUnaryPair) return {f, &o};
  return {f, nullptr, find_function(o.part1), find_function(o.part2)};
}

// Runs chunks [0, n_chunks) of an input set on `threads` threads. `fill(c, buf, buf2)` writes chunk
// c's inputs into buf (and a two-input row's second inputs into buf2, which is zeros otherwise) and
// returns their number.
template <class Fill>
Result RunChunks(const FunctionInfo& f, const oracle::Oracle& o, std::uint64_t n_chunks, unsigned threads,
                 cli::Progress* progress, Fill fill) {
  threads = std::max(1u, threads);
  std::atomic<std::uint64_t> next{0};
  std::vector<Result> partial(threads);
  const ChunkWork chunk_work = WorkFor(f, o);
  auto work = [&](unsigned t) {
    std::vector<float> in(kChunk), in2(kChunk);
    for (std::uint64_t c; (c = next.fetch_add(1)) < n_chunks;) {
      const std::size_t n = fill(c, in.data(), in2.data());
      chunk_work(std::span<const float>(in.data(), n), std::span<const float>(in2.data(), n), partial[t]);
      if (progress) progress->add(n);
    }
  };
  const auto t0 = std::chrono::steady_clock::now();
  cli::RunOnThreads(threads, work);  // work(t): chunks handed out one by one into partial[t]
  Result r;
  for (const auto& p : partial) r.merge(p);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

void Result::merge(const Result& o) {
  count += o.count;
  if (Worse(o.max_ulp, o.worst_x, o.worst_x2, max_ulp, worst_x, worst_x2)) {
    max_ulp = o.max_ulp, worst_x = o.worst_x, worst_x2 = o.worst_x2, worst_y = o.worst_y, worst_ref = o.worst_ref;
  }
  if (Worse(o.max_rel, o.worst_rel_x, o.worst_rel_x2, max_rel, worst_rel_x, worst_rel_x2)) {
    max_rel = o.max_rel, worst_rel_x = o.worst_rel_x, worst_rel_x2 = o.worst_rel_x2;
  }
  correctly_rounded += o.correctly_rounded;
  exact_checks += o.exact_checks;
  dual_errors += o.dual_errors;
  special_mismatches += o.special_mismatches;
  if (o.pair_mismatches && !pair_mismatches) worst_x = o.worst_x, worst_y = o.worst_y;
  pair_mismatches += o.pair_mismatches;
  for (std::size_t i = 0; i < kBuckets; ++i) histogram[i] += o.histogram[i];
}

Result run_all(const FunctionInfo& f, const oracle::Oracle& o, unsigned threads, bool progress) {
  cli::Progress p(std::string("sweep ") + f.name, std::uint64_t{1} << 32, "inputs", progress);
  Result r = run_all(f, o, threads, progress ? &p : nullptr);
  p.finish();
  return r;
}

Result run_inputs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> inputs, unsigned threads,
                  bool progress) {
  cli::Progress p(std::string("sweep ") + f.name, inputs.size(), "inputs", progress);
  Result r = run_inputs(f, o, inputs, threads, progress ? &p : nullptr);
  p.finish();
  return r;
}

Result run_all(const FunctionInfo& f, const oracle::Oracle& o, unsigned threads, cli::Progress* progress) {
  constexpr std::uint64_t kEnd = 1ull << 32;
  return RunChunks(f, o, kEnd / kChunk, threads, progress, [&](std::uint64_t c, float* buf, float*) {
    for (std::uint64_t b = 0; b < kChunk; ++b) buf[b] = FromBits(static_cast<std::uint32_t>(c * kChunk + b));
    return static_cast<std::size_t>(kChunk);
  });
}

Result run_inputs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> inputs, unsigned threads,
                  cli::Progress* progress) {
  const std::uint64_t n = inputs.size();
  return RunChunks(f, o, (n + kChunk - 1) / kChunk, threads, progress, [&](std::uint64_t c, float* buf, float*) {
    const std::uint64_t i0 = c * kChunk, i1 = std::min(n, i0 + kChunk);
    std::copy(inputs.begin() + i0, inputs.begin() + i1, buf);
    return static_cast<std::size_t>(i1 - i0);
  });
}

Result run_pairs(const FunctionInfo& f, const oracle::Oracle& o, const PairSample& sample, unsigned threads,
                 cli::Progress* progress) {
  const std::uint64_t n = sample.size();
  return RunChunks(f, o, (n + kChunk - 1) / kChunk, threads, progress, [&](std::uint64_t c, float* buf, float* buf2) {
    const std::uint64_t i0 = c * kChunk, i1 = std::min(n, i0 + kChunk);
    sample.fill(i0, static_cast<std::size_t>(i1 - i0), buf, buf2);
    return static_cast<std::size_t>(i1 - i0);
  });
}

Result run_pairs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> x1, std::span<const float> x2,
                 unsigned threads, cli::Progress* progress) {
  const std::uint64_t n = std::min(x1.size(), x2.size());
  return RunChunks(f, o, (n + kChunk - 1) / kChunk, threads, progress, [&](std::uint64_t c, float* buf, float* buf2) {
    const std::uint64_t i0 = c * kChunk, i1 = std::min(n, i0 + kChunk);
    std::copy(x1.begin() + i0, x1.begin() + i1, buf);
    std::copy(x2.begin() + i0, x2.begin() + i1, buf2);
    return static_cast<std::size_t>(i1 - i0);
  });
}

// ---- the structured sample of a two-input row ----------------------------------------------------

namespace {

// 64 random bits for pair i of the sample with this seed (SplitMix64's finaliser on a counter):
// every pair is generated on its own, in any order, on any thread.
std::uint64_t Mix(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + (i + 1) * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr std::uint32_t kCells = 1u << 18;    // (biased exponent, biased exponent, sign, sign)
constexpr std::uint32_t kCellStride = 162007;  // ~ kCells / golden ratio, odd: a bijection on each run of kCells

// A float of sign s, biased exponent e and mantissa bits m (23 bits used); `flags` picks the
// special members of exponents 0 and 255: a zero in 8 of exponent 0, half NaN / half inf of 255.
float Compose(std::uint32_t s, std::uint32_t e, std::uint32_t m, std::uint32_t flags) {
  m &= 0x7FFFFFu;
  if (e == 0 && (flags & 7) == 0) m = 0;
  if (e == 255) m = (flags & 8) ? 0 : (m | 1);
  return FromBits(s << 31 | e << 23 | m);
}

// Values whose every pair is in the sample: zeros, subnormals, the normal boundary, simple numbers
// and the neighbours of 1, the largest float, infinities and NaN; both signs where they differ.
std::vector<float> PairEdgeValues() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {std::numeric_limits<float>::quiet_NaN()};
  for (float a : {0.0f, 0x1p-149f, 0x1p-148f, 0x1.fffffcp-127f, 0x1p-126f, 0x1.000002p-126f, 1e-30f, 0.5f,
                  0x1.fffffep-1f, 1.0f, 0x1.000002p+0f, 2.0f, 3.0f, 1e30f, 0x1.fffffep+127f, inf}) {
    v.push_back(a), v.push_back(-a);
  }
  return v;
}

}  // namespace

PairSample::PairSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f)
    : grid_(n), near_(n / 16), seed_(seed) {
  const std::vector<float> v = PairEdgeValues();
  for (float a : v) {
    for (float b : v) edges_.emplace_back(a, b);
  }
  if (f) {
    for (const Special& s : f->specials) edges_.emplace_back(s.in, s.in2);
  }
}

void PairSample::at(std::uint64_t i, float* x1, float* x2) const {
  const std::uint64_t h = Mix(seed_, i);
  const auto lo = static_cast<std::uint32_t>(h), hi = static_cast<std::uint32_t>(h >> 32);
  if (i < grid_) {  // cell: sign of x1, sign of x2, biased exponent of x1, of x2 (high to low bits)
    const std::uint32_t cell = static_cast<std::uint32_t>(i * kCellStride) & (kCells - 1);
    const std::uint32_t flags = static_cast<std::uint32_t>(h >> 46);  // bits the mantissas do not use
    *x1 = Compose(cell >> 17, (cell >> 8) & 255, lo, flags);
    *x2 = Compose((cell >> 16) & 1, cell & 255, static_cast<std::uint32_t>(h >> 23), flags >> 4);
    return;
  }
  i -= grid_;
  if (i < near_) {  // a diagonal: |x1| within 8 ulp of |x2|, which is finite (subnormals included)
    const std::uint32_t a = lo % 0x7F800000u;
    const std::int64_t b = std::int64_t{a} + static_cast<std::int64_t>(hi & 15) - 8 + ((hi >> 4) & 1);
    const auto b_bits = static_cast<std::uint32_t>(std::clamp<std::int64_t>(b, 0, 0x7F7FFFFF));
    *x1 = FromBits((hi >> 5 & 1) << 31 | b_bits);
    *x2 = FromBits((hi >> 6 & 1) << 31 | a);
    return;
  }
  i -= near_;
  if (i < near_) {  // an axis: one input zero, subnormal or near the smallest normal; the other any bits
    const std::uint32_t kind = hi & 3, sign = (hi >> 2 & 1) << 31;
    std::uint32_t tiny = 0;                                                    // +-0
    if (kind == 1) tiny = (hi >> 3) & 0x7FFFFFu;                               // a subnormal (or 0)
    if (kind >= 2) tiny = 0x00800000u + ((hi >> 3) & 15) - 8 + ((hi >> 7) & 1);  // 8 ulp of 2^-126
    const bool first = (hi >> 8) & 1;  // which input is the small one
    *(first ? x1 : x2) = FromBits(sign | tiny);
    *(first ? x2 : x1) = FromBits(lo);
    return;
  }
  i -= near_;
  *x1 = edges_[i].first, *x2 = edges_[i].second;
}

void PairSample::fill(std::uint64_t first, std::size_t count, float* x1, float* x2) const {
  for (std::size_t k = 0; k < count; ++k) at(first + k, x1 + k, x2 + k);
}

void PairSample::materialise(std::vector<float>& x1, std::vector<float>& x2) const {
  x1.resize(size()), x2.resize(size());
  fill(0, x1.size(), x1.data(), x2.data());
}

std::string PairSample::describe() const {
  return "structured sample (seed " + std::to_string(seed_) + "): " + std::to_string(grid_) +
         " pairs over every (exponent, exponent, sign, sign) cell + " + std::to_string(near_) + " near the diagonals + " +
         std::to_string(near_) + " near the axes + " + std::to_string(edges_.size()) + " edge pairs";
}

std::vector<float> edge_cases(const FunctionInfo* f) {
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
  // Powers of two and their neighbours, both signs, and the mirrors 1 - 2^-k where exact.
  for (int k = -149; k <= 127; ++k) {
    const float t = std::ldexp(1.0f, k);
    for (float s : {t, std::nextafter(t, 0.0f), std::nextafter(t, inf)}) v.push_back(s), v.push_back(-s);
    if (k < 0 && k >= -24) v.push_back(1.0f - t);
  }
  v.push_back(std::numeric_limits<float>::max()), v.push_back(-std::numeric_limits<float>::max());
  // Integers and simple fractions (exact cases of exp2, exp10, log2, log10, ...).
  for (int i = -160; i <= 160; ++i) v.push_back(float(i)), v.push_back(float(i) / 2), v.push_back(float(i) / 10);
  if (f) {
    for (const Special& s : f->specials) v.push_back(s.in);
  }
  return v;
}

std::vector<float> sample(std::size_t n, std::uint64_t seed, const FunctionInfo* f) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> all_bits, unit_bits(0, 0x3F800000u);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), wide(-150.0f, 150.0f);
  std::vector<float> v;
  v.reserve(n + 4096);
  for (std::size_t i = 0; i < n; ++i) {
    switch (i % 4) {
      case 0: v.push_back(FromBits(all_bits(rng))); break;
      case 1: v.push_back(FromBits(unit_bits(rng))); break;
      case 2: v.push_back(unit(rng)); break;
      default: v.push_back(wide(rng)); break;
    }
  }
  const auto e = edge_cases(f);
  v.insert(v.end(), e.begin(), e.end());
  return v;
}

void print(const Result& r, const FunctionInfo& f, const std::string& input_set, std::FILE* out) {
  std::fprintf(out, "%s over %s: %llu %s (%.1f s)\n", f.name, input_set.c_str(), static_cast<unsigned long long>(r.count),
               f.inputs() == 2 ? "pairs" : "inputs", r.seconds);
  if (f.shape == Shape::kUnaryPair) {
    const oracle::Oracle* o = oracle::find_oracle(f.name);
    std::fprintf(out, "  both results bit-identical to %s and %s: %s (%llu inputs differ%s", o->part1, o->part2,
                 r.pair_mismatches ? "NO" : "yes", static_cast<unsigned long long>(r.pair_mismatches),
                 r.pair_mismatches ? ", the first at x = " : ")\n");
    if (r.pair_mismatches) std::fprintf(out, "%.9g (0x%08x))\n", r.worst_x, Bits(r.worst_x));
    return;
  }
  char at[128], rel_at[96];  // the input: x, or the pair (x1, x2) of a two-input row
  if (f.inputs() == 2) {
    std::snprintf(at, sizeof at, "(x1, x2) = (%.9g, %.9g) (0x%08x, 0x%08x)", r.worst_x, r.worst_x2, Bits(r.worst_x),
                  Bits(r.worst_x2));
    std::snprintf(rel_at, sizeof rel_at, "(x1, x2) = (%.9g, %.9g)", r.worst_rel_x, r.worst_rel_x2);
  } else {
    std::snprintf(at, sizeof at, "x = %.9g (0x%08x)", r.worst_x, Bits(r.worst_x));
    std::snprintf(rel_at, sizeof rel_at, "x = %.9g", r.worst_rel_x);
  }
  std::fprintf(out, "  max ulp error  %.6f  at %s: got %.9g, exact %.17g  (bound %g: %s)\n", r.max_ulp, at, r.worst_y,
               r.worst_ref, f.bound_ulp, r.max_ulp <= f.bound_ulp ? "ok" : "EXCEEDED");
  std::fprintf(out, "  correctly rounded  %.6f%%  (%llu results measured by the exact tier)\n",
               r.count ? 100.0 * double(r.correctly_rounded) / double(r.count) : 0.0,
               static_cast<unsigned long long>(r.exact_checks));
  std::fprintf(out, "  max rel error  %.3e  at %s\n", r.max_rel, rel_at);
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

std::string markdown_row(const Result& r, const FunctionInfo& f, const std::string& input_set) {
  char buf[1024];
  if (f.shape == Shape::kUnaryPair) {
    const oracle::Oracle* o = oracle::find_oracle(f.name);
    std::snprintf(buf, sizeof buf, "| %s | %g | as %s, %s | %s | bit-identical to them: %s | %llu | %.0f s |", f.name,
                  f.bound_ulp, o->part1, o->part2, r.pair_mismatches ? "differs" : "-",
                  r.pair_mismatches ? "NO" : "yes", static_cast<unsigned long long>(r.count), r.seconds);
    return buf;
  }
  const double rounded = r.count ? 100.0 * double(r.correctly_rounded) / double(r.count) : 0.0;
  if (f.inputs() == 2) {  // the worst pair, and the input set: a sample, not every input
    std::snprintf(buf, sizeof buf, "| %s | %g | %.6f | (%.9g, %.9g) (0x%08x, 0x%08x) | %.6f%% | %llu pairs, %s | %.0f s |",
                  f.name, f.bound_ulp, r.max_ulp, r.worst_x, r.worst_x2, Bits(r.worst_x), Bits(r.worst_x2), rounded,
                  static_cast<unsigned long long>(r.count), input_set.c_str(), r.seconds);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "| %s | %g | %.6f | %.9g (0x%08x) | %.6f%% | %llu | %.0f s |", f.name, f.bound_ulp,
                r.max_ulp, r.worst_x, Bits(r.worst_x), rounded, static_cast<unsigned long long>(r.count), r.seconds);
  return buf;
}

}  // namespace accelmath::sweep
