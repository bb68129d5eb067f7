// The exhaustive (or sampled) accuracy sweeper of `accelmath sweep`, for any registry function.
//
// A function with two results (shape UnaryPair) is instead checked bit for bit against the two
// one-output functions its oracle row names (sincos against sin and cos), which the sweeper
// measures on their own: its `pair_mismatches` count the inputs where either result differs.
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
  double worst_ref = 0;
  double max_rel = 0;  // |y - r| / |r| over finite nonzero r
  float worst_rel_x = 0;
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

// Edge cases for any function: zeros, infinities, NaN, every power of two of float32 and its
// neighbours (both signs), integers and simple fractions, the ndtri region boundaries and their
// neighbours, and the row's special inputs.
std::vector<float> edge_cases(const FunctionInfo* f = nullptr);
// n random inputs (a quarter each: random bit patterns, random bit patterns in [0, 1], uniform in
// (0, 1), uniform in [-150, 150]) followed by edge_cases(f). Deterministic for a seed.
std::vector<float> sample(std::size_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);

void print(const Result& r, const FunctionInfo& f, const std::string& input_set, std::FILE* out);
// One markdown table row: | function | bound | max ulp | at x | correctly rounded | inputs | time |
std::string markdown_row(const Result& r, const FunctionInfo& f);

}  // namespace accelmath::sweep
