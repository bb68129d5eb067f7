// The exhaustive (or sampled) accuracy sweeper of `accelmath sweep`, for any registry function.
//
// A function with two results (shape UnaryPair) is instead checked bit for bit against the two
// one-output functions its oracle row names (sincos against sin and cos), which the sweeper
// measures on their own: its `pair_mismatches` count the inputs where either result differs.
//
// A function of two inputs (shape Binary) cannot be swept exhaustively (2^64 pairs): it runs a
// structured sample (PairSample below, at least 2^32 pairs by default), with the same oracle tiers,
// histogram and worst-case report (the worst pair, both inputs as bits).
//
// For every input it runs the library's array API (the dispatched SIMD path), compares with the
// function's oracle row (tools/accuracy/oracles.def, two tiers: the double reference for every
// input, the exact MPFR/Arb one where the double one cannot decide) and accumulates: max ulp error
// and where, the share of correctly rounded results, an ulp histogram, the max relative error, and
// the dual-threshold (1e-4) error count against the oracle rounded to float32 as golden ("CANN error ratio").
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "accelmath/registry.h"
#include "accuracy/oracle.h"

namespace accelmath::cli {
class Progress;  // cli/progress.h
}

namespace accelmath::sweep {

// Upper edges of the ulp histogram buckets; the last bucket takes everything above (and +inf,
// i.e. special-value mismatches).
inline constexpr std::array<double, 11> kBucketEdges = {0.5, 0.5001, 0.501, 0.51, 0.6, 0.75, 1.0, 2.0, 16.0, 256.0, 65536.0};
inline constexpr std::size_t kBuckets = kBucketEdges.size() + 1;

// A result whose double-tier error lies within this distance of 0.5 ulp or of the bound is
// measured again by the exact tier. The double tier is validated to be far closer than this
// (`accelmath oracle-check`, tests/test_oracle.cc: < 1e-6 ulp).
inline constexpr double kExactMargin = 1e-5;

struct Result {
  std::uint64_t count = 0;
  double max_ulp = 0;
  float worst_x = 0, worst_y = 0;
  float worst_x2 = 0;  // two-input rows: the worst pair is (worst_x, worst_x2)
  double worst_ref = 0;
  double max_rel = 0;  // |y - r| / |r| over finite nonzero r
  float worst_rel_x = 0, worst_rel_x2 = 0;
  std::uint64_t correctly_rounded = 0;  // error <= 0.5 ulp
  std::uint64_t exact_checks = 0;       // results the exact tier measured
  std::uint64_t dual_errors = 0;        // dual threshold 1e-4 vs the float32-rounded oracle
  std::uint64_t special_mismatches = 0;
  std::uint64_t pair_mismatches = 0;  // UnaryPair rows: inputs whose results differ from the parts'
  std::array<std::uint64_t, kBuckets> histogram{};
  double seconds = 0;

  double dual_error_ratio() const { return count ? double(dual_errors) / double(count) : 0.0; }
  void merge(const Result& o);
};

// The structured sample of a two-input function f(x1, x2) (docs/engine.md), of size n and a seed:
//  - grid: n pairs over every cell (biased exponent of x1, biased exponent of x2, sign of x1, sign of
//    x2): 256 x 256 x 4 = 2^18 cells, exponent 0 holding zero and the subnormals and 255 the
//    infinities and NaN. Pair i falls in cell (i * 162007) mod 2^18 (162007 ~ 2^18 / golden ratio,
//    odd): every run of 2^18 pairs visits each cell once, so n = 2^32 puts exactly 2^14 pairs in every
//    cell, and a smaller n spreads over the cells evenly. Mantissas random; exponent 0: one in 8 a
//    zero; exponent 255: half infinities, half NaN;
//  - diagonals: n / 16 pairs with |x1| within 8 ulp of |x2| (x2 a random finite bit pattern,
//    subnormals included), every sign combination (results near +-pi/4, +-3pi/4 for atan2);
//  - axes: n / 16 pairs where one input (either, in turn) is +-0, a random subnormal or within 8 ulp
//    of the smallest normal, the other a random bit pattern of any class;
//  - edge pairs: every pair of kPairEdgeValues (zeros, subnormals, the normal boundary, 1 and its
//    neighbours, the largest float, infinities, NaN, ...) and the row's special pairs.
// Pair i is a function of (seed, i) alone: nothing is stored, any part of the sample is generated
// where it is needed, and the result does not depend on the number of threads.
inline constexpr std::uint64_t kDefaultPairSample = std::uint64_t{1} << 32;
class PairSample {
 public:
  PairSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);
  std::uint64_t size() const { return grid_ + 2 * near_ + edges_.size(); }
  std::uint64_t grid() const { return grid_; }        // pairs of each part, in this order
  std::uint64_t diagonal() const { return near_; }
  std::uint64_t axes() const { return near_; }
  std::uint64_t edges() const { return edges_.size(); }
  // Pair i, i < size().
  void at(std::uint64_t i, float* x1, float* x2) const;
  // Pairs [first, first + count) into x1[] and x2[].
  void fill(std::uint64_t first, std::size_t count, float* x1, float* x2) const;
  // The whole sample as two arrays (for tests and the report: 8 bytes a pair).
  void materialise(std::vector<float>& x1, std::vector<float>& x2) const;
  // For the output and the accuracy table: "structured sample: 2^32 grid + ... (seed 1)".
  std::string describe() const;

 private:
  std::uint64_t grid_, near_, seed_;
  std::vector<std::pair<float, float>> edges_;
};

// Every float32 bit pattern, 2^32 inputs. `progress`: a progress line on stderr (cli/progress.h),
// labelled with the function's name.
Result run_all(const FunctionInfo& f, const oracle::Oracle& o, unsigned threads, bool progress);
// The given inputs.
Result run_inputs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> inputs, unsigned threads,
                  bool progress);
// The same, counting the inputs done into the caller's `progress` (none if null), which they
// neither start nor finish.
Result run_all(const FunctionInfo& f, const oracle::Oracle& o, unsigned threads, cli::Progress* progress);
Result run_inputs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> inputs, unsigned threads,
                  cli::Progress* progress);
// A two-input row on its structured sample, or on given pairs (x1[i], x2[i]).
Result run_pairs(const FunctionInfo& f, const oracle::Oracle& o, const PairSample& sample, unsigned threads,
                 cli::Progress* progress);
Result run_pairs(const FunctionInfo& f, const oracle::Oracle& o, std::span<const float> x1, std::span<const float> x2,
                 unsigned threads, cli::Progress* progress);

// Edge cases for any function: zeros, infinities, NaN, every power of two of float32 and its
// neighbours (both signs), integers and simple fractions, the ndtri region boundaries and their
// neighbours, and the row's special inputs.
std::vector<float> edge_cases(const FunctionInfo* f = nullptr);
// n random inputs (a quarter each: random bit patterns, random bit patterns in [0, 1], uniform in
// (0, 1), uniform in [-150, 150]) followed by edge_cases(f). Deterministic for a seed.
std::vector<float> sample(std::size_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);

void print(const Result& r, const FunctionInfo& f, const std::string& input_set, std::FILE* out);
// One markdown table row: | function | bound | max ulp | at x | correctly rounded | inputs | time |
// (two-input rows: at (x1, x2), and the inputs cell names `input_set`).
std::string markdown_row(const Result& r, const FunctionInfo& f, const std::string& input_set = "");

}  // namespace accelmath::sweep
