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

#include "accelmath/status.h"
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

// Bit for bit, but any NaN matches any NaN (payloads are not specified).
bool SameFloat(float a, float b) { return std::isnan(a) ? std::isnan(b) : Bits(a) == Bits(b); }

bool IsFloat(ElementType t) { return t == ElementType::kF32; }

// Whether error e at case index i replaces the worst so far: larger, or as large at an earlier case,
// so that the case reported does not depend on how the cases were split among threads (many can
// share the maximum, e.g. a relative error of 1 where the result underflows to 0).
bool Worse(double e, std::uint64_t i, double worst, std::uint64_t worst_i) {
  if (e != worst) return e > worst;
  return i < worst_i;
}

// Case i of a chunk, as the result reports it.
Case CaseOf(const FunctionInfo& f, const Chunk& ch, std::size_t i) {
  Case c;
  c.index = ch.first + i;
  if (f.shape == Shape::kRows) {
    c.row_length = static_cast<std::uint32_t>(ch.row_length);
    for (std::size_t k = 0; k < 4 && k < ch.row_length; ++k) c.in[k] = ch.in[0][i * ch.row_length + k];
    return c;
  }
  for (int k = 0; k < f.inputs(); ++k) c.in[k] = ch.in[k][i];
  return c;
}

// The work on one chunk: a one-output row against its oracle (tiers or reference), or a two-output
// row (UnaryPair) against the one-output rows it must equal bit for bit.
struct ChunkWork {
  const FunctionInfo& f;
  const oracle::Oracle& o;
  const FunctionInfo *part1 = nullptr, *part2 = nullptr;  // UnaryPair rows

  void operator()(const Chunk& ch, Result& r) const {
    const std::size_t n = ch.count;
    thread_local std::vector<std::uint32_t> out[2], parts[2];
    for (auto& v : out) v.assign(std::max<std::size_t>(n, 1), 0);
    const void* in[4] = {ch.in[0].data(), ch.in[1].data(), ch.in[2].data(), ch.in[3].data()};
    void* outs[2] = {out[0].data(), out[1].data()};
    const Status s = f.run(outs, in, n, ch.row_length);
    if (s != Status::kOk) {  // nothing was computed: every case of the chunk fails
      if (r.status == 0) r.status = static_cast<int>(s);
      r.count += n;
      return;
    }
    if (part1) {
      for (auto& v : parts) v.assign(std::max<std::size_t>(n, 1), 0);
      void* o1[2] = {parts[0].data(), nullptr};
      void* o2[2] = {parts[1].data(), nullptr};
      if (part1->run(o1, in, n) != Status::kOk || part2->run(o2, in, n) != Status::kOk) {
        if (r.status == 0) r.status = static_cast<int>(Status::kInvalidArgument);
      }
      for (std::size_t i = 0; i < n; ++i) {
        ++r.count;
        if (out[0][i] != parts[0][i] || out[1][i] != parts[1][i]) {
          if (r.pair_mismatches++ == 0 || ch.first + i < r.first_mismatch.index) {
            r.first_mismatch = CaseOf(f, ch, i);
            r.mismatch_got[0].f = FromBits(out[0][i]), r.mismatch_got[1].f = FromBits(out[1][i]);
            r.mismatch_want[0].f = FromBits(parts[0][i]), r.mismatch_want[1].f = FromBits(parts[1][i]);
          }
        }
      }
      return;
    }
    for (std::size_t i = 0; i < n; ++i) Check(ch, i, out, r);
  }

  // Result i of the chunk against the oracle.
  void Check(const Chunk& ch, std::size_t i, const std::vector<std::uint32_t> (&out)[2], Result& r) const {
    ++r.count;
    const std::uint64_t index = ch.first + i;
    oracle::Args a;
    Value in[4];
    if (f.shape == Shape::kRows) {  // the row as floats (a copy: the chunk holds words)
      thread_local std::vector<float> row;
      row.resize(ch.row_length);
      if (ch.row_length) std::memcpy(row.data(), ch.in[0].data() + i * ch.row_length, 4 * ch.row_length);
      a.row = row.data();
      a.n = ch.row_length;
    } else {
      for (int k = 0; k < f.inputs(); ++k) {
        const std::uint32_t w = ch.in[k][i];
        if (IsFloat(f.input_type(k))) {
          in[k].f = FromBits(w);
          a.x[k] = in[k].f;
        } else {
          in[k].i = static_cast<std::int32_t>(w);
          a.x[k] = in[k].i;
        }
      }
    }
    Value y[2];
    for (int k = 0; k < f.outputs(); ++k) {
      switch (f.output_type(k)) {
        case ElementType::kF32: y[k].f = FromBits(out[k][i]); break;
        case ElementType::kI32: y[k].i = static_cast<std::int32_t>(out[k][i]); break;
        case ElementType::kU8: y[k].i = reinterpret_cast<const std::uint8_t*>(out[k].data())[i]; break;
      }
    }
    const bool float_result = IsFloat(f.output_type(0));
    double e = 0, ref = 0;
    bool same = true;  // bit for bit right (bound-0 rows)
    Value want[2];
    if (o.has_reference()) {
      o.reference_at(in, want);
      for (int k = 0; k < f.outputs(); ++k) {
        same = same && (IsFloat(f.output_type(k)) ? SameFloat(y[k].f, want[k].f) : y[k].i == want[k].i);
      }
      if (float_result) {
        ref = want[0].f;
        e = oracle::ulp_error_f32(y[0].f, ref);
        if (f.outputs() == 2 && y[1].i != want[1].i) e = INFINITY;  // frexp's exponent: a wrong power of 2
      } else {
        ref = want[0].i;
        e = same ? 0.0 : INFINITY;
      }
    } else {
      ref = o.fast_at(a);
      e = oracle::ulp_error_f32(y[0].f, ref);
      if (f.bound_ulp == 0) {
        // Bit for bit the correctly rounded value: certain when the double tier puts y clearly
        // nearer than half an ulp (and a zero's sign agrees); otherwise the exact tier decides.
        if (!(e < 0.5 - kExactMargin) || (y[0].f == 0 && std::signbit(y[0].f) != std::signbit(ref))) {
          want[0].f = oracle::correctly_rounded_f32(o, a);
          same = SameFloat(y[0].f, want[0].f);
          e = oracle::ulp_error_exact(o, a, y[0].f);
          ++r.exact_checks;
        }
      } else if (std::fabs(e - 0.5) < kExactMargin || e > f.bound_ulp - kExactMargin) {
        // The exact tier where the double one cannot decide: near 0.5 ulp (is it correctly
        // rounded?), near the bound, or a class mismatch (NaN, infinity) that the double could have caused.
        e = oracle::ulp_error_exact(o, a, y[0].f);
        ++r.exact_checks;
      }
    }
    std::size_t b = 0;
    while (b < kBucketEdges.size() && !(e <= kBucketEdges[b])) ++b;
    ++r.histogram[b];
    if (f.bound_ulp == 0 ? same : e <= 0.5) ++r.correctly_rounded;
    if (!same) {
      if (r.mismatches++ == 0 || index < r.first_mismatch.index) {
        r.first_mismatch = CaseOf(f, ch, i);
        r.mismatch_got[0] = y[0], r.mismatch_got[1] = y[1];
        r.mismatch_want[0] = want[0], r.mismatch_want[1] = want[1];
      }
    }
    if (std::isinf(e)) ++r.special_mismatches;
    if (Worse(e, index, r.max_ulp, r.worst.index)) {
      r.max_ulp = e, r.worst = CaseOf(f, ch, i), r.worst_y = float_result ? y[0].f : static_cast<float>(y[0].i);
      r.worst_ref = ref;
    }
    if (!float_result) return;
    // The dual-threshold standard compares with a float32 golden (the reference rounded once), as
    // the modelled test data do: an overflow to inf is then a match, not an error.
    const float golden = static_cast<float>(ref);
    const float yf = y[0].f;
    if (std::isfinite(golden)) {
      if (!std::isfinite(yf) || verify::dual_threshold_error(golden, yf, 1e-4, 1e-4)) ++r.dual_errors;
    } else if (!(std::isnan(golden) ? std::isnan(yf) : yf == golden)) {
      ++r.dual_errors;
    }
    if (std::isfinite(ref) && ref != 0 && std::isfinite(yf)) {
      const double rel = std::fabs((double(yf) - ref) / ref);
      if (Worse(rel, index, r.max_rel, r.worst_rel.index)) r.max_rel = rel, r.worst_rel = CaseOf(f, ch, i);
    }
  }
};

}  // namespace

bool Result::passed(double limit) const {
  return status == 0 && pair_mismatches == 0 && mismatches == 0 && max_ulp <= limit;
}

void Result::merge(const Result& o) {
  count += o.count;
  if (Worse(o.max_ulp, o.worst.index, max_ulp, worst.index)) {
    max_ulp = o.max_ulp, worst = o.worst, worst_y = o.worst_y, worst_ref = o.worst_ref;
  }
  if (Worse(o.max_rel, o.worst_rel.index, max_rel, worst_rel.index)) max_rel = o.max_rel, worst_rel = o.worst_rel;
  correctly_rounded += o.correctly_rounded;
  exact_checks += o.exact_checks;
  dual_errors += o.dual_errors;
  special_mismatches += o.special_mismatches;
  if ((o.mismatches || o.pair_mismatches) && o.first_mismatch.index < first_mismatch.index) {
    first_mismatch = o.first_mismatch;
    mismatch_got[0] = o.mismatch_got[0], mismatch_got[1] = o.mismatch_got[1];
    mismatch_want[0] = o.mismatch_want[0], mismatch_want[1] = o.mismatch_want[1];
  }
  pair_mismatches += o.pair_mismatches;
  mismatches += o.mismatches;
  if (status == 0) status = o.status;
  for (std::size_t i = 0; i < kBuckets; ++i) histogram[i] += o.histogram[i];
}

Result run(const FunctionInfo& f, const oracle::Oracle& o, const Sample& s, unsigned threads, cli::Progress* progress) {
  threads = std::max(1u, threads);
  std::atomic<std::uint64_t> next{0};
  std::vector<Result> partial(threads);
  ChunkWork work_on{f, o};
  if (f.shape == Shape::kUnaryPair) work_on.part1 = find_function(o.part1), work_on.part2 = find_function(o.part2);
  const std::uint64_t n_chunks = s.chunks();
  auto work = [&](unsigned t) {
    Chunk ch;
    for (std::uint64_t c; (c = next.fetch_add(1)) < n_chunks;) {
      s.fill(c, ch);
      work_on(ch, partial[t]);
      if (progress) progress->add(ch.count);
    }
  };
  const auto t0 = std::chrono::steady_clock::now();
  cli::RunOnThreads(threads, work);  // work(t): chunks handed out one by one into partial[t]
  Result r;
  for (const auto& p : partial) r.merge(p);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
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
  return run(f, o, AllFloats(), threads, progress);
}

Result run_inputs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> inputs, unsigned threads,
                  cli::Progress* progress) {
  return run(f, o, Given(std::vector<float>(inputs.begin(), inputs.end())), threads, progress);
}

Result run_pairs(const FunctionInfo& f, const oracle::Oracle& o, const PairSample& sample, unsigned threads,
                 cli::Progress* progress) {
  return run(f, o, static_cast<const Sample&>(sample), threads, progress);
}

Result run_pairs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> x1, std::span<const float> x2,
                 unsigned threads, cli::Progress* progress) {
  const std::size_t n = std::min(x1.size(), x2.size());
  std::vector<std::uint32_t> in[4];
  in[0].resize(n), in[1].resize(n);
  for (std::size_t i = 0; i < n; ++i) in[0][i] = Bits(x1[i]), in[1][i] = Bits(x2[i]);
  return run(f, o, Given(std::move(in), 2, "given pairs", "pairs"), threads, progress);
}

// ---- case sets -----------------------------------------------------------------------------------

void Sample::materialise(std::vector<std::uint32_t> (&in)[4]) const {
  for (auto& v : in) v.clear();
  Chunk ch;
  for (std::uint64_t c = 0; c < chunks(); ++c) {
    fill(c, ch);
    for (int k = 0; k < 4; ++k) in[k].insert(in[k].end(), ch.in[k].begin(), ch.in[k].begin() + std::min(ch.in[k].size(), ch.count));
  }
}

std::uint64_t Mix(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + (i + 1) * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t AllFloats::chunks() const { return size() / kChunk; }

void AllFloats::fill(std::uint64_t c, Chunk& out) const {
  out.first = c * kChunk, out.count = kChunk, out.row_length = 0;
  out.in[0].resize(kChunk);
  for (std::uint64_t b = 0; b < kChunk; ++b) out.in[0][b] = static_cast<std::uint32_t>(c * kChunk + b);
}

Given::Given(std::vector<float> x, std::string what) : n_(x.size()), what_(std::move(what)) {
  in_[0].resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) in_[0][i] = Bits(x[i]);
}

Given::Given(std::vector<std::uint32_t> (&&in)[4], int inputs, std::string what, const char* unit)
    : inputs_(inputs), n_(in[0].size()), what_(std::move(what)), unit_(unit) {
  for (int k = 0; k < 4; ++k) in_[k] = std::move(in[k]);
}

std::uint64_t Given::chunks() const { return (n_ + kChunk - 1) / kChunk; }

void Given::fill(std::uint64_t c, Chunk& out) const {
  const std::uint64_t i0 = c * kChunk, i1 = std::min(n_, i0 + kChunk);
  out.first = i0, out.count = static_cast<std::size_t>(i1 - i0), out.row_length = 0;
  for (int k = 0; k < 4; ++k) {
    if (k < inputs_) {
      out.in[k].assign(in_[k].begin() + static_cast<std::ptrdiff_t>(i0), in_[k].begin() + static_cast<std::ptrdiff_t>(i1));
    } else {
      out.in[k].clear();
    }
  }
}

namespace {

// A float of sign s, biased exponent e and mantissa bits m (23 bits used); `flags` picks the
// special members of exponents 0 and 255: a zero in 8 of exponent 0, half NaN / half inf of 255.
float Compose(std::uint32_t s, std::uint32_t e, std::uint32_t m, std::uint32_t flags) {
  m &= 0x7FFFFFu;
  if (e == 0 && (flags & 7) == 0) m = 0;
  if (e == 255) m = (flags & 8) ? 0 : (m | 1);
  return FromBits((s & 1) << 31 | (e & 255) << 23 | m);
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

// A smaller set, for triples: 15 values.
std::vector<float> TripleEdgeValues() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {std::numeric_limits<float>::quiet_NaN()};
  for (float a : {0.0f, 0x1p-149f, 0x1p-126f, 1.0f, 0x1.000002p+0f, 0x1.fffffep+127f, inf}) v.push_back(a), v.push_back(-a);
  return v;
}

// Chunks of kChunk cases over [0, size), case i generated by at(i, chunk, k).
template <class At>
void FillChunk(std::uint64_t c, std::uint64_t size, int inputs, Chunk& out, At at) {
  const std::uint64_t i0 = c * kChunk, i1 = std::min(size, i0 + kChunk);
  out.first = i0, out.count = static_cast<std::size_t>(i1 - i0), out.row_length = 0;
  for (int k = 0; k < 4; ++k) out.in[k].resize(k < inputs ? out.count : 0);
  for (std::uint64_t i = i0; i < i1; ++i) at(i, static_cast<std::size_t>(i - i0));
}

std::string Pow2(std::uint64_t n) {  // "2^32" for powers of two, else the number
  if (n && (n & (n - 1)) == 0) return "2^" + std::to_string(std::countr_zero(n));
  return std::to_string(n);
}

constexpr std::uint32_t kCells = 1u << 18;    // (biased exponent, biased exponent, sign, sign)
constexpr std::uint32_t kCellStride = 162007;  // ~ kCells / golden ratio, odd: a bijection on each run of kCells
constexpr std::uint64_t kSecondStream = 0x5851F42D4C957F2Dull;  // a second 64 random bits of case i

}  // namespace

// ---- PairSample ----------------------------------------------------------------------------------

PairSample::PairSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f)
    : grid_(n), near_(n / 16), seed_(seed) {
  const std::vector<float> v = PairEdgeValues();
  for (float a : v) {
    for (float b : v) edges_.emplace_back(a, b);
  }
  if (f) {
    for (const Special& s : f->specials) edges_.emplace_back(s.in[0].f, s.in[1].f);
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

std::uint64_t PairSample::chunks() const { return (size() + kChunk - 1) / kChunk; }

void PairSample::fill(std::uint64_t c, Chunk& out) const {
  FillChunk(c, size(), 2, out, [&](std::uint64_t i, std::size_t k) {
    float a, b;
    at(i, &a, &b);
    out.in[0][k] = Bits(a), out.in[1][k] = Bits(b);
  });
}

std::string PairSample::describe() const {
  return "structured sample (seed " + std::to_string(seed_) + "): " + std::to_string(grid_) +
         " pairs over every (exponent, exponent, sign, sign) cell + " + std::to_string(near_) + " near the diagonals + " +
         std::to_string(near_) + " near the axes + " + std::to_string(edges_.size()) + " edge pairs";
}

std::string PairSample::table_note() const {
  return "structured sample of " + std::to_string(grid_) + ", seed " + std::to_string(seed_) + " (docs/engine.md)";
}

// ---- TripleSample --------------------------------------------------------------------------------

namespace {
constexpr std::uint32_t kTripleCells = 1u << 24;     // (biased exponent of x1, x2, x3)
constexpr std::uint32_t kTripleStride = 10368889;    // ~ 2^24 / golden ratio, odd
}  // namespace

TripleSample::TripleSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f)
    : grid_(n), near_(n / 16), seed_(seed) {
  const std::vector<float> v = TripleEdgeValues();
  for (float a : v) {
    for (float b : v) {
      for (float c : v) edges_.push_back({a, b, c});
    }
  }
  if (f) {
    for (const Special& s : f->specials) edges_.push_back({s.in[0].f, s.in[1].f, s.in[2].f});
  }
}

void TripleSample::at(std::uint64_t i, float* x) const {
  const std::uint64_t h = Mix(seed_, i), g = Mix(seed_ ^ kSecondStream, i);
  if (i < grid_) {
    const std::uint32_t cell = static_cast<std::uint32_t>(i * kTripleStride) & (kTripleCells - 1);
    const auto flags = static_cast<std::uint32_t>(g >> 32);  // 3 signs, then 4 flag bits per input
    x[0] = Compose(flags, cell >> 16, static_cast<std::uint32_t>(h), flags >> 3);
    x[1] = Compose(flags >> 1, (cell >> 8) & 255, static_cast<std::uint32_t>(h >> 23), flags >> 7);
    x[2] = Compose(flags >> 2, cell & 255, static_cast<std::uint32_t>(g), flags >> 11);
    return;
  }
  i -= grid_;
  if (i < near_) {  // x3 within 8 ulp of -(x1 x2 rounded to float32): cancellation in x1 x2 + x3
    const auto b1 = static_cast<std::uint32_t>(1 + ((h & 0xFFFF) * 254 >> 16));               // 1..254
    const auto bp = static_cast<std::int32_t>(((h >> 16) & 0xFFFF) * 278 >> 16) - 23;          // -23..254
    const auto b2 = static_cast<std::uint32_t>(std::clamp<std::int32_t>(bp - static_cast<std::int32_t>(b1) + 127, 1, 254));
    const auto s = static_cast<std::uint32_t>(g >> 40);
    x[0] = Compose(s, b1, static_cast<std::uint32_t>(h >> 32), 1);
    x[1] = Compose(s >> 1, b2, static_cast<std::uint32_t>(g), 1);
    float p = static_cast<float>(double(x[0]) * double(x[1]));
    if (std::isinf(p)) p = std::copysign(std::numeric_limits<float>::max(), p);
    const std::int64_t mag = std::int64_t{Bits(p) & 0x7FFFFFFFu} + static_cast<std::int64_t>((g >> 32) & 15) - 8 +
                             static_cast<std::int64_t>((g >> 36) & 1);
    x[2] = FromBits(((Bits(p) >> 31) ^ 1) << 31 | static_cast<std::uint32_t>(std::clamp<std::int64_t>(mag, 0, 0x7F7FFFFF)));
    return;
  }
  i -= near_;
  for (int k = 0; k < 3; ++k) x[k] = edges_[i][k];
}

std::uint64_t TripleSample::chunks() const { return (size() + kChunk - 1) / kChunk; }

void TripleSample::fill(std::uint64_t c, Chunk& out) const {
  FillChunk(c, size(), 3, out, [&](std::uint64_t i, std::size_t k) {
    float x[3];
    at(i, x);
    for (int j = 0; j < 3; ++j) out.in[j][k] = Bits(x[j]);
  });
}

std::string TripleSample::describe() const {
  return "structured sample (seed " + std::to_string(seed_) + "): " + std::to_string(grid_) +
         " triples over every (exponent, exponent, exponent) cell, random signs + " + std::to_string(near_) +
         " with x3 near -x1 x2 + " + std::to_string(edges_.size()) + " edge triples";
}

std::string TripleSample::table_note() const {
  return "structured sample of " + Pow2(grid_) + " (" + std::to_string(grid_ >> 24) +
         " per exponent triple) + " + Pow2(near_) + " near cancellation, seed " + std::to_string(seed_) +
         " (docs/engine.md)";
}

// ---- QuadSample ----------------------------------------------------------------------------------

QuadSample::QuadSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f) : grid_(n), seed_(seed) {
  const float inf = std::numeric_limits<float>::infinity();
  const float v[] = {0.0f, -0.0f, 0x1p-149f, 1.0f, -1.5f, 0x1.fffffep+127f, inf, -inf,
                     std::numeric_limits<float>::quiet_NaN()};
  for (float a : v) {
    for (float b : v) {
      for (float c : v) {
        for (float d : v) edges_.push_back({a, b, c, d});
      }
    }
  }
  if (f) {
    for (const Special& s : f->specials) edges_.push_back({s.in[0].f, s.in[1].f, s.in[2].f, s.in[3].f});
  }
}

void QuadSample::at(std::uint64_t i, float* x) const {
  if (i < grid_) {
    const std::uint64_t h = Mix(seed_, i), g = Mix(seed_ ^ kSecondStream, i);
    const auto cell = static_cast<std::uint32_t>(i * 2654435769u);  // a bijection on each run of 2^32
    for (int k = 0; k < 4; ++k) {
      const auto m = static_cast<std::uint32_t>((k < 2 ? h : g) >> (k % 2 == 0 ? 0 : 23));
      const auto sign = static_cast<std::uint32_t>(g >> (46 + k));
      const auto flags = static_cast<std::uint32_t>(h >> (48 + 4 * k));
      x[k] = Compose(sign, (cell >> (24 - 8 * k)) & 255, m, flags);
    }
    return;
  }
  i -= grid_;
  for (int k = 0; k < 4; ++k) x[k] = edges_[i][k];
}

std::uint64_t QuadSample::chunks() const { return (size() + kChunk - 1) / kChunk; }

void QuadSample::fill(std::uint64_t c, Chunk& out) const {
  FillChunk(c, size(), 4, out, [&](std::uint64_t i, std::size_t k) {
    float x[4];
    at(i, x);
    for (int j = 0; j < 4; ++j) out.in[j][k] = Bits(x[j]);
  });
}

std::string QuadSample::describe() const {
  return "structured sample (seed " + std::to_string(seed_) + "): " + std::to_string(grid_) +
         " quadruples over every (exponent, exponent, exponent, exponent) cell, random signs + " +
         std::to_string(edges_.size()) + " edge quadruples";
}

std::string QuadSample::table_note() const {
  return "structured sample of " + Pow2(grid_) + " (one per exponent quadruple at 2^32), seed " +
         std::to_string(seed_) + " (docs/engine.md)";
}

// ---- ScaleSample ---------------------------------------------------------------------------------

namespace {
constexpr std::uint32_t kScaleSlots = 640;                 // n: -300..300, 4 extremes, 35 random
constexpr std::uint32_t kScaleCells = 512 * kScaleSlots;   // (sign, biased exponent of x) x slot
constexpr std::uint64_t kScaleStride = 202519;             // ~ cells / golden ratio, coprime to 2^16 * 5
constexpr std::int32_t kIntMin = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t kIntMax = std::numeric_limits<std::int32_t>::max();
}  // namespace

ScaleSample::ScaleSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f) : grid_(n), seed_(seed) {
  std::vector<std::int32_t> ns = {0, kIntMin, kIntMin + 1, kIntMax - 1, kIntMax};
  for (std::int32_t k : {1, 23, 24, 126, 127, 128, 149, 150, 151, 252, 253, 254, 276, 277, 278}) ns.push_back(k), ns.push_back(-k);
  for (float x : PairEdgeValues()) {
    for (std::int32_t k : ns) edges_.emplace_back(x, k);
  }
  if (f) {
    for (const Special& s : f->specials) edges_.emplace_back(s.in[0].f, s.in[1].i);
  }
}

void ScaleSample::at(std::uint64_t i, float* x, std::int32_t* n) const {
  if (i < grid_) {
    const std::uint64_t h = Mix(seed_, i);
    const auto cell = static_cast<std::uint32_t>(i * kScaleStride % kScaleCells);
    const std::uint32_t se = cell / kScaleSlots, slot = cell % kScaleSlots;
    *x = Compose(se >> 8, se & 255, static_cast<std::uint32_t>(h), static_cast<std::uint32_t>(h >> 24));
    if (slot <= 600) {
      *n = static_cast<std::int32_t>(slot) - 300;
    } else if (slot <= 604) {
      const std::int32_t extremes[] = {kIntMin, kIntMin + 1, kIntMax - 1, kIntMax};
      *n = extremes[slot - 601];
    } else {
      *n = static_cast<std::int32_t>(static_cast<std::uint32_t>(h >> 32));
    }
    return;
  }
  i -= grid_;
  *x = edges_[i].first, *n = edges_[i].second;
}

std::uint64_t ScaleSample::chunks() const { return (size() + kChunk - 1) / kChunk; }

void ScaleSample::fill(std::uint64_t c, Chunk& out) const {
  FillChunk(c, size(), 2, out, [&](std::uint64_t i, std::size_t k) {
    float x;
    std::int32_t n;
    at(i, &x, &n);
    out.in[0][k] = Bits(x), out.in[1][k] = static_cast<std::uint32_t>(n);
  });
}

std::string ScaleSample::describe() const {
  return "structured sample (seed " + std::to_string(seed_) + "): " + std::to_string(grid_) +
         " pairs over every (sign, exponent of x) x (n = -300..300, INT_MIN, INT_MIN + 1, INT_MAX - 1, INT_MAX, "
         "random int32) cell + " + std::to_string(edges_.size()) + " edge pairs";
}

std::string ScaleSample::table_note() const {
  return "structured sample of " + Pow2(grid_) + ": every exponent and sign of x against n in [-300, 300], "
         "the int32 extremes and random int32, seed " + std::to_string(seed_) + " (docs/engine.md)";
}

// ---- RowSample -----------------------------------------------------------------------------------

namespace {
constexpr std::uint64_t kLengthStream = 0x2545F4914F6CDD1Dull, kRowStream = 0x9FB21C651E98DF25ull,
                        kElementStream = 0xC13FA9A902A6328Full;
constexpr std::uint32_t kSpreads[] = {0, 1, 3, 8, 24, 64, 254};
}  // namespace

RowSample::RowSample(std::uint64_t rows, std::uint64_t seed, const FunctionInfo* f) : rows_(rows), seed_(seed) {
  if (f && !f->specials.empty()) {
    Edge e{4, {}};
    for (const Special& s : f->specials) {
      for (int k = 0; k < 4; ++k) e.elements.push_back(s.in[k].f);
    }
    edges_.push_back(std::move(e));
  }
  edges_.push_back({0, std::vector<float>(16)});  // 16 empty rows (the elements are not read)
  const std::vector<float> v = PairEdgeValues();
  edges_.push_back({1, v});
  Edge pairs{2, {}};
  for (float a : v) {
    for (float b : v) pairs.elements.push_back(a), pairs.elements.push_back(b);
  }
  edges_.push_back(std::move(pairs));
  const float inf = std::numeric_limits<float>::infinity();
  const float w[] = {0.0f, -0.0f, 0x1p-149f, 1.0f, -3.0f, 0x1.fffffep+127f, inf, -inf, std::numeric_limits<float>::quiet_NaN()};
  Edge triples{3, {}};
  for (float a : w) {
    for (float b : w) {
      for (float c : w) triples.elements.insert(triples.elements.end(), {a, b, c});
    }
  }
  edges_.push_back(std::move(triples));
}

std::size_t RowSample::length_of(std::uint64_t chunk) const {
  const std::uint64_t h = Mix(seed_ ^ kLengthStream, chunk);
  if ((h & 127) == 0) return 65 + static_cast<std::size_t>((h >> 8) % 4032);
  return static_cast<std::size_t>((h >> 8) % 65);
}

namespace {
std::size_t EdgeRows(std::size_t length, const std::vector<float>& elements) {
  return length == 0 ? elements.size() : elements.size() / length;
}
}  // namespace

std::uint64_t RowSample::size() const {
  std::uint64_t n = rows_;
  for (const Edge& e : edges_) n += EdgeRows(e.length, e.elements);
  return n;
}

std::uint64_t RowSample::chunks() const { return (rows_ + kRowsPerChunk - 1) / kRowsPerChunk + edges_.size(); }

std::uint64_t RowSample::elements() const {
  std::uint64_t n = 0;
  const std::uint64_t random_chunks = (rows_ + kRowsPerChunk - 1) / kRowsPerChunk;
  for (std::uint64_t c = 0; c < random_chunks; ++c) {
    n += length_of(c) * std::min<std::uint64_t>(kRowsPerChunk, rows_ - c * kRowsPerChunk);
  }
  for (const Edge& e : edges_) n += e.length == 0 ? 0 : e.elements.size();
  return n;
}

void RowSample::fill(std::uint64_t c, Chunk& out) const {
  for (int k = 1; k < 4; ++k) out.in[k].clear();
  const std::uint64_t random_chunks = (rows_ + kRowsPerChunk - 1) / kRowsPerChunk;
  if (c >= random_chunks) {
    std::uint64_t first = rows_;
    for (std::uint64_t k = 0; k < c - random_chunks; ++k) first += EdgeRows(edges_[k].length, edges_[k].elements);
    const Edge& e = edges_[c - random_chunks];
    out.first = first, out.row_length = e.length, out.count = EdgeRows(e.length, e.elements);
    out.in[0].resize(e.length == 0 ? 0 : e.elements.size());
    for (std::size_t i = 0; i < out.in[0].size(); ++i) out.in[0][i] = Bits(e.elements[i]);
    return;
  }
  const std::size_t length = length_of(c);
  out.first = c * kRowsPerChunk, out.row_length = length;
  out.count = static_cast<std::size_t>(std::min<std::uint64_t>(kRowsPerChunk, rows_ - out.first));
  out.in[0].resize(out.count * length);
  for (std::size_t r = 0; r < out.count; ++r) {
    const std::uint64_t row = out.first + r;
    const std::uint64_t h = Mix(seed_ ^ kRowStream, row);
    const auto top = static_cast<std::uint32_t>(1 + ((h & 0xFFFF) * 254 >> 16));  // 1..254
    const std::uint32_t spread = kSpreads[(h >> 16) % 7];
    std::uint32_t* a = out.in[0].data() + r * length;
    for (std::size_t j = 0; j < length; ++j) {
      const std::uint64_t g = Mix(seed_ ^ kElementStream, row << 12 | j);
      const auto d = static_cast<std::uint32_t>(spread ? (g >> 32) % (spread + 1) : 0);
      const std::uint32_t e = top > d ? top - d : 0;
      a[j] = Bits(Compose(static_cast<std::uint32_t>(g >> 31), e, static_cast<std::uint32_t>(g),
                          static_cast<std::uint32_t>(g >> 24) | 8));
    }
    if (length && ((h >> 24) & 15) == 0) {  // one row in 16: one element special
      const float inf = std::numeric_limits<float>::infinity();
      const float specials[] = {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 0x1p-149f,
                                -0x1p-149f, 0x1.fffffep+127f, -0x1.fffffep+127f};
      a[(h >> 28) % length] = Bits(specials[(h >> 40) % 9]);
    }
  }
}

std::string RowSample::describe() const {
  return std::to_string(rows_) + " random rows (seed " + std::to_string(seed_) + "; in chunks of " +
         std::to_string(kRowsPerChunk) + " rows of one length: 0..64, or 65..4096 for one chunk in 128; " +
         "structured exponents, one row in 16 with a special) + " + std::to_string(size() - rows_) + " edge rows; " +
         std::to_string(elements()) + " elements";
}

std::string RowSample::table_note() const {
  return Pow2(rows_) + " random rows of length 0..64 (one chunk in 128: 65..4096), structured exponents, seed " +
         std::to_string(seed_) + " (docs/engine.md)";
}

// ---- the case set of a row -----------------------------------------------------------------------

bool exhaustive_possible(const FunctionInfo& f) {
  return f.inputs() == 1 && f.shape != Shape::kRows;
}

std::unique_ptr<Sample> sample_for(const FunctionInfo& f, std::uint64_t n, std::uint64_t seed) {
  switch (f.shape) {
    case Shape::kBinary: return std::make_unique<PairSample>(n ? n : kDefaultPairSample, seed, &f);
    case Shape::kTernary: return std::make_unique<TripleSample>(n ? n : kDefaultTupleSample, seed, &f);
    case Shape::kQuaternary: return std::make_unique<QuadSample>(n ? n : kDefaultTupleSample, seed, &f);
    case Shape::kScaleExponent: return std::make_unique<ScaleSample>(n ? n : kDefaultTupleSample, seed, &f);
    case Shape::kRows: return std::make_unique<RowSample>(n ? n : kDefaultRowSample, seed, &f);
    default: break;
  }
  if (n == 0) return std::make_unique<AllFloats>();
  std::vector<float> in = sample(static_cast<std::size_t>(n), seed, &f);
  const std::string what = std::to_string(n) + " random inputs (seed " + std::to_string(seed) + ") + " +
                           std::to_string(in.size() - n) + " edge cases";
  return std::make_unique<Given>(std::move(in), what);
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
  // Neighbours (+-64 ulp) of region boundaries: the default's centre 9/256 <= p <= 247/256, the
  // taskbook's |p - 1/2| = 0.425, r = 5 (t = e^-25), 1/2, 1/4, 3/4, 1 - 2^-24 (largest float below
  // 1), and of the normal/subnormal boundary.
  for (float c : {0.03515625f, 0.96484375f, 0.075f, 0.925f, std::exp(-25.0f), 1 - std::exp(-25.0f), 0.5f,
                  0.25f, 0.75f, 1.0f, std::numeric_limits<float>::min()}) {
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
  // Integers and simple fractions (exact cases of exp2, exp10, log2, log10, ...), and the
  // half-integers around 2^23 (rounding).
  for (int i = -160; i <= 160; ++i) v.push_back(float(i)), v.push_back(float(i) / 2), v.push_back(float(i) / 10);
  for (float c : {0x1p22f, 0x1p23f, 0x1p24f}) {
    float lo = c, hi = c;
    for (int k = 0; k < 8; ++k) {
      lo = std::nextafter(lo, 0.0f), hi = std::nextafter(hi, inf);
      v.push_back(lo), v.push_back(hi), v.push_back(-lo), v.push_back(-hi);
    }
  }
  if (f) {
    for (const Special& s : f->specials) v.push_back(s.in[0].f);
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

// ---- output --------------------------------------------------------------------------------------

namespace {

std::string Float(float x) {
  char b[64];
  std::snprintf(b, sizeof b, "%.9g", x);
  return b;
}
std::string Hex(std::uint32_t w) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", w);
  return b;
}
const char* const kNames[4] = {"x1", "x2", "x3", "x4"};

}  // namespace

std::string describe_case(const FunctionInfo& f, const Case& c) {
  if (f.shape == Shape::kRows) {
    std::string s = "a row of " + std::to_string(c.row_length) + ": (";
    for (std::uint32_t k = 0; k < std::min<std::uint32_t>(4, c.row_length); ++k) {
      if (k) s += ", ";
      s += Float(FromBits(c.in[k])) + " (" + Hex(c.in[k]) + ")";
    }
    return s + (c.row_length > 4 ? ", ...)" : ")") + " (row " + std::to_string(c.index) + " of the sample)";
  }
  const int k = f.inputs();
  if (k == 1) return "x = " + Float(FromBits(c.in[0])) + " (" + Hex(c.in[0]) + ")";
  std::string names = "(", values = "(", bits = "(";
  for (int j = 0; j < k; ++j) {
    const bool fl = IsFloat(f.input_type(j));
    if (j) names += ", ", values += ", ";
    names += f.shape == Shape::kScaleExponent ? (j ? "n" : "x") : kNames[j];
    values += fl ? Float(FromBits(c.in[j])) : std::to_string(static_cast<std::int32_t>(c.in[j]));
    if (fl && bits.size() > 1) bits += ", ";
    if (fl) bits += Hex(c.in[j]);
  }
  return names + ") = " + values + ") " + bits + ")";
}

std::string describe_value(const FunctionInfo& f, int output, const Value& v) {
  switch (f.output_type(output)) {
    case ElementType::kF32: return Float(v.f) + " (" + Hex(Bits(v.f)) + ")";
    case ElementType::kI32: return std::to_string(v.i);
    case ElementType::kU8: return std::to_string(v.i);
  }
  return "?";
}

namespace {

// "x = 1.5: got 2 (0x40000000), expected 1 (0x3f800000)" for a row's first mismatch.
std::string MismatchText(const Result& r, const FunctionInfo& f) {
  std::string got, want;
  for (int k = 0; k < f.outputs(); ++k) {
    if (k) got += ", ", want += ", ";
    got += describe_value(f, k, r.mismatch_got[k]);
    want += describe_value(f, k, r.mismatch_want[k]);
  }
  return describe_case(f, r.first_mismatch) + ": got " + got + ", expected " + want;
}

}  // namespace

void print(const Result& r, const FunctionInfo& f, const std::string& input_set, std::FILE* out) {
  const char* unit = f.inputs() == 1 ? (f.shape == Shape::kRows ? "rows" : "inputs")
                     : f.inputs() == 2 ? "pairs" : f.inputs() == 3 ? "triples" : "quadruples";
  std::fprintf(out, "%s over %s: %llu %s (%.1f s)\n", f.name, input_set.c_str(), static_cast<unsigned long long>(r.count),
               unit, r.seconds);
  if (r.status != 0) {
    std::fprintf(out, "  the array function returned an error: %s\n", status_message(static_cast<Status>(r.status)));
  }
  const oracle::Oracle* o = oracle::find_oracle(f.name);
  if (f.shape == Shape::kUnaryPair) {
    std::fprintf(out, "  both results bit-identical to %s and %s: %s (%llu inputs differ%s)\n", o->part1, o->part2,
                 r.pair_mismatches ? "NO" : "yes", static_cast<unsigned long long>(r.pair_mismatches),
                 r.pair_mismatches ? (", the first at " + MismatchText(r, f)).c_str() : "");
    return;
  }
  if (f.bound_ulp == 0) {
    std::fprintf(out, "  bit for bit the exact result (%s): %s", o ? o->source : "?", r.mismatches ? "NO, " : "yes");
    if (r.mismatches) {
      std::fprintf(out, "%llu results differ, the first at %s\n", static_cast<unsigned long long>(r.mismatches),
                   MismatchText(r, f).c_str());
    } else {
      std::fprintf(out, " (every one of %llu)\n", static_cast<unsigned long long>(r.count));
    }
  }
  if (!IsFloat(f.output_type(0))) return;  // int32 and 0/1 results: right or not, no ulp
  const double limit = f.bound_ulp == 0 ? 0.5 : f.bound_ulp;
  std::fprintf(out, "  max ulp error  %.6f  at %s: got %.9g, exact %.17g  (bound %g: %s)\n", r.max_ulp,
               describe_case(f, r.worst).c_str(), r.worst_y, r.worst_ref, f.bound_ulp,
               r.max_ulp <= limit && r.mismatches == 0 ? "ok" : "EXCEEDED");
  std::fprintf(out, "  correctly rounded  %.6f%%  (%llu results measured by the exact tier)\n",
               r.count ? 100.0 * double(r.correctly_rounded) / double(r.count) : 0.0,
               static_cast<unsigned long long>(r.exact_checks));
  std::fprintf(out, "  max rel error  %.3e  at %s\n", r.max_rel, describe_case(f, r.worst_rel).c_str());
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

namespace {
// A case for the table: its values without the names ("-87.3887558 (0xc2aec70b)", "(a, b) (0x.., 0x..)").
std::string CaseCell(const FunctionInfo& f, const Case& c) {
  std::string s = describe_case(f, c);
  const auto eq = s.find(" = ");
  return f.shape == Shape::kRows || eq == std::string::npos ? s : s.substr(eq + 3);
}
}  // namespace

std::string markdown_row(const Result& r, const FunctionInfo& f, const std::string& input_set) {
  char buf[1024];
  if (f.shape == Shape::kUnaryPair) {
    const oracle::Oracle* o = oracle::find_oracle(f.name);
    std::snprintf(buf, sizeof buf, "| %s | %g | as %s, %s | %s | bit-identical to them: %s | %llu | %.0f s |", f.name,
                  f.bound_ulp, o->part1, o->part2,
                  r.pair_mismatches ? CaseCell(f, r.first_mismatch).c_str() : "-",
                  r.pair_mismatches ? "NO" : "yes", static_cast<unsigned long long>(r.count), r.seconds);
    return buf;
  }
  const bool sampled = !input_set.empty();
  const char* unit = f.inputs() == 2 ? " pairs" : f.inputs() == 3 ? " triples" : f.inputs() == 4 ? " quadruples"
                     : f.shape == Shape::kRows ? " rows" : "";
  const std::string inputs = std::to_string(r.count) + (sampled ? unit + std::string(", ") + input_set : std::string(unit));
  const double rounded = r.count ? 100.0 * double(r.correctly_rounded) / double(r.count) : 0.0;
  std::string error, at, cr;
  char num[64];
  if (!IsFloat(f.output_type(0))) {  // int32 or 0/1 results: right or wrong
    error = r.mismatches ? "wrong" : "exact";
    at = r.mismatches ? CaseCell(f, r.first_mismatch) : "-";
  } else {
    std::snprintf(num, sizeof num, "%.6f", r.max_ulp);
    error = num;
    at = r.max_ulp == 0 ? "-" : CaseCell(f, r.worst);  // an exact function without an error: no worst case
  }
  std::snprintf(num, sizeof num, "%.6f%%", rounded);
  cr = num;
  if (f.bound_ulp == 0) {
    cr += r.mismatches ? " (" + std::to_string(r.mismatches) + " not bit for bit, the first at " +
                             CaseCell(f, r.first_mismatch) + ")"
                       : " (bit for bit)";
  }
  std::snprintf(buf, sizeof buf, "| %s | %g | %s | %s | %s | %s | %.0f s |", f.name, f.bound_ulp, error.c_str(), at.c_str(),
                cr.c_str(), inputs.c_str(), r.seconds);
  return buf;
}

}  // namespace accelmath::sweep
