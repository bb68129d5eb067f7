// The exhaustive (or sampled) accuracy sweeper of `accelmath sweep`, for any registry function.
//
// For every case (an input, a pair, a tuple, a row of floats) it runs the library's array API (the
// dispatched SIMD path, FunctionInfo::run), compares with the function's oracle row
// (tools/accuracy/oracles.def, two tiers: the double reference for every case, the exact MPFR/Arb one
// where the double one cannot decide) and accumulates: max ulp error and where, the share of
// correctly rounded results, an ulp histogram, the max relative error, and the dual-threshold (1e-4)
// error count against the oracle rounded to float32 as golden ("CANN error ratio").
//
// The case sets, by shape (Sample below; each is a function of (size, seed) alone: nothing is
// stored, chunks are generated on the worker threads, the result does not depend on their number):
//  - one float input (Unary, UnaryPair, ToInt32, Predicate, SplitExponent): every float32 bit
//    pattern, 2^32 inputs (AllFloats), or --sample N random ones plus edge cases (Inputs);
//  - Binary: PairSample (exponent-pair grid, diagonals, axes, edge pairs);
//  - Ternary: TripleSample (exponent-triple grid, near-cancellation x3 ~ -x1 x2, edge triples);
//  - Quaternary: QuadSample (one tuple in each of the 2^32 exponent-quadruple cells, edge tuples);
//  - ScaleExponent: ScaleSample (every exponent and sign of x against every n in [-300, 300], the
//    int32 extremes and random int32, edge pairs);
//  - Rows: RowSample (rows of random length 0..64, one chunk in 128 of length 65..4096, structured
//    exponents, specials; edge rows).
//
// A function with two results (shape UnaryPair) is instead checked bit for bit against the two
// one-output functions its oracle row names (sincos against sin and cos), which the sweeper
// measures on their own: its `pair_mismatches` count the inputs where either result differs.
//
// A function of bound 0 must give the exact result bit for bit: against its reference
// (ACCELMATH_ORACLE_EXACT: every result compared, ints and 0/1 included), or, with tiers (fma), the
// correctly rounded value (decided by the exact tier at 1100 bits where the double tier is within
// kExactMargin of a tie). Its `mismatches` count the results that differ (a NaN matches any NaN; the
// sign of a zero counts).
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
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

// One case of a sample: its index in the sample and its inputs (4-byte words: float bits or int32);
// a row: its length and its first four elements.
struct Case {
  std::uint64_t index = ~std::uint64_t{0};
  std::uint32_t in[4] = {0, 0, 0, 0};
  std::uint32_t row_length = 0;
};

struct Result {
  std::uint64_t count = 0;  // cases: inputs, pairs, tuples or rows
  double max_ulp = 0;
  Case worst;  // where max_ulp is (the first such case of the sample)
  float worst_y = 0;
  double worst_ref = 0;
  double max_rel = 0;  // |y - r| / |r| over finite nonzero r
  Case worst_rel;
  std::uint64_t correctly_rounded = 0;  // error <= 0.5 ulp (bound 0: bit for bit right)
  std::uint64_t exact_checks = 0;       // results the exact tier measured
  std::uint64_t dual_errors = 0;        // dual threshold 1e-4 vs the float32-rounded oracle
  std::uint64_t special_mismatches = 0;
  std::uint64_t pair_mismatches = 0;  // UnaryPair rows: inputs whose results differ from the parts'
  std::uint64_t mismatches = 0;       // bound-0 rows: results not bit for bit the exact one
  Case first_mismatch;                // the first of them in the sample, what came out, what should have
  Value mismatch_got[2], mismatch_want[2];
  int status = 0;  // the first error the array function returned (Status), 0 if none
  std::array<std::uint64_t, kBuckets> histogram{};
  double seconds = 0;

  double dual_error_ratio() const { return count ? double(dual_errors) / double(count) : 0.0; }
  // Whether the row kept its promise: no error of the array function, its parts' bits (UnaryPair),
  // bit for bit right (bound 0), max ulp within `limit`.
  bool passed(double limit) const;
  void merge(const Result& o);
};

// One call's worth of cases: `count` results of inputs in[k][i] (Rows: count rows of row_length
// floats in in[0], row r at in[0][r * row_length]).
struct Chunk {
  std::uint64_t first = 0;  // the index of its first case in the sample
  std::size_t count = 0;
  std::size_t row_length = 0;
  std::vector<std::uint32_t> in[4];
};

// A set of cases for a row, generated a chunk at a time (on any thread, in any order).
class Sample {
 public:
  virtual ~Sample() = default;
  virtual std::uint64_t size() const = 0;    // cases
  virtual std::uint64_t chunks() const = 0;
  virtual void fill(std::uint64_t chunk, Chunk& out) const = 0;
  // For the output: what the cases are, part by part ("every float32 input", "structured sample ...").
  virtual std::string describe() const = 0;
  // For the accuracy table's inputs cell (after the count).
  virtual std::string table_note() const { return ""; }
  virtual const char* unit() const { return "inputs"; }  // "pairs", "triples", "quadruples", "rows"
  // Every case as words, input by input (tests and the report; 4 bytes an input). Rows: not here.
  void materialise(std::vector<std::uint32_t> (&in)[4]) const;
};

// 64 random bits for case i of the sample with this seed (SplitMix64's finaliser on a counter):
// every case is generated on its own, in any order, on any thread.
std::uint64_t Mix(std::uint64_t seed, std::uint64_t i);

// Every float32 bit pattern, 2^32 inputs.
class AllFloats : public Sample {
 public:
  std::uint64_t size() const override { return std::uint64_t{1} << 32; }
  std::uint64_t chunks() const override;
  void fill(std::uint64_t chunk, Chunk& out) const override;
  std::string describe() const override { return "every float32 input"; }
};

// Given cases (one float input: sample() below; or the words of each input).
class Given : public Sample {
 public:
  explicit Given(std::vector<float> x, std::string what = "given inputs");
  Given(std::vector<std::uint32_t> (&&in)[4], int inputs, std::string what, const char* unit);
  std::uint64_t size() const override { return n_; }
  std::uint64_t chunks() const override;
  void fill(std::uint64_t chunk, Chunk& out) const override;
  std::string describe() const override { return what_; }
  const char* unit() const override { return unit_; }

 private:
  std::vector<std::uint32_t> in_[4];
  int inputs_ = 1;
  std::uint64_t n_ = 0;
  std::string what_;
  const char* unit_ = "inputs";
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
inline constexpr std::uint64_t kDefaultPairSample = std::uint64_t{1} << 32;
class PairSample : public Sample {
 public:
  PairSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);
  std::uint64_t size() const override { return grid_ + 2 * near_ + edges_.size(); }
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
  // For the output: "structured sample (seed 1): ... pairs over every ... cell + ...".
  std::string describe() const override;
  std::string table_note() const override;
  std::uint64_t chunks() const override;
  void fill(std::uint64_t chunk, Chunk& out) const override;
  const char* unit() const override { return "pairs"; }

 private:
  std::uint64_t grid_, near_, seed_;
  std::vector<std::pair<float, float>> edges_;
};

// The structured sample of a three-input function f(x1, x2, x3) (fma, norm3d), of size n and a seed:
//  - grid: n triples over every cell (biased exponent of x1, of x2, of x3): 2^24 cells; triple i
//    falls in cell (i * 10368889) mod 2^24, so n = 2^32 puts exactly 256 triples in every cell;
//    signs and mantissas random, exponents 0 and 255 as in PairSample;
//  - cancellation: n / 16 triples with x3 within 8 ulp of -(x1 x2 rounded to float32) (x1, x2 finite,
//    their product within the float32 range, random signs): fma's hardest cases;
//  - edge triples: every triple of 15 values (+-0, +-2^-149, +-2^-126, +-1, +-(1 + 2^-23), +-max,
//    +-inf, NaN) and the row's special triples.
inline constexpr std::uint64_t kDefaultTupleSample = std::uint64_t{1} << 32;
class TripleSample : public Sample {
 public:
  TripleSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);
  std::uint64_t size() const override { return grid_ + near_ + edges_.size(); }
  std::uint64_t grid() const { return grid_; }
  std::uint64_t cancellation() const { return near_; }
  std::uint64_t edges() const { return edges_.size(); }
  void at(std::uint64_t i, float* x) const;  // x[0..3)
  std::string describe() const override;
  std::string table_note() const override;
  std::uint64_t chunks() const override;
  void fill(std::uint64_t chunk, Chunk& out) const override;
  const char* unit() const override { return "triples"; }

 private:
  std::uint64_t grid_, near_, seed_;
  std::vector<std::array<float, 3>> edges_;
};

// The structured sample of a four-input function (norm4d), of size n and a seed:
//  - grid: n quadruples; quadruple i falls in cell (i * 2654435769) mod 2^32 of the 2^32 cells
//    (biased exponent of x1, x2, x3, x4): n = 2^32 puts one random quadruple (signs, mantissas) in
//    every cell; exponents 0 and 255 as in PairSample;
//  - edge quadruples: every quadruple of 9 values (+-0, 2^-149, 1, -1.5, max, +-inf, NaN) and the
//    row's special quadruples.
class QuadSample : public Sample {
 public:
  QuadSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);
  std::uint64_t size() const override { return grid_ + edges_.size(); }
  std::uint64_t grid() const { return grid_; }
  std::uint64_t edges() const { return edges_.size(); }
  void at(std::uint64_t i, float* x) const;  // x[0..4)
  std::string describe() const override;
  std::string table_note() const override;
  std::uint64_t chunks() const override;
  void fill(std::uint64_t chunk, Chunk& out) const override;
  const char* unit() const override { return "quadruples"; }

 private:
  std::uint64_t grid_, seed_;
  std::vector<std::array<float, 4>> edges_;
};

// The structured sample of f(float x, int32 n) (ldexp), of size n and a seed:
//  - grid: n pairs over every cell (biased exponent of x, sign of x, slot of n): 512 x 640 cells,
//    slots 0..600 the exponents n = -300..300, 601..604 INT_MIN, INT_MIN + 1, INT_MAX - 1, INT_MAX,
//    605..639 a random int32; pair i falls in cell (i * 202519) mod 327680, so every run of 327680
//    pairs visits each cell once (n = 2^32: 13107 or 13108 pairs a cell); mantissas random,
//    exponents 0 and 255 as in PairSample;
//  - edge pairs: every x of PairSample's 33 edge values against 35 exponents (0, +-1, +-23, +-24,
//    +-126 .. +-128, +-149 .. +-151, +-252 .. +-254, +-276 .. +-278, INT_MIN, INT_MIN + 1,
//    INT_MAX - 1, INT_MAX), and the row's special pairs.
class ScaleSample : public Sample {
 public:
  ScaleSample(std::uint64_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);
  std::uint64_t size() const override { return grid_ + edges_.size(); }
  std::uint64_t grid() const { return grid_; }
  std::uint64_t edges() const { return edges_.size(); }
  void at(std::uint64_t i, float* x, std::int32_t* n) const;
  std::string describe() const override;
  std::string table_note() const override;
  std::uint64_t chunks() const override;
  void fill(std::uint64_t chunk, Chunk& out) const override;
  const char* unit() const override { return "pairs"; }

 private:
  std::uint64_t grid_, seed_;
  std::vector<std::pair<float, std::int32_t>> edges_;
};

// The sample of a function of rows (norm, rnorm): `rows` random rows and the edge rows, seed.
//  - random rows, in chunks of 256 rows of one length (the array API takes one length a call): the
//    chunk's length uniform in 0..64, or for one chunk in 128 uniform in 65..4096. Each row: a top
//    exponent uniform over the normal range, its elements' exponents that minus a spread (0, 1, 3,
//    8, 24, 64 or 254, the row's own) uniform below it (0: subnormals and zeros), random signs and
//    mantissas, so sums run from one dominant element to many alike, subnormal to overflowing;
//    one row in 16 has one element replaced by a special (+-0, +-inf, NaN, +-2^-149, +-max);
//  - edge rows: the row's specials (rows of 4), 16 empty rows, every edge value alone, every pair
//    of 33 edge values, every triple of 9.
inline constexpr std::uint64_t kDefaultRowSample = std::uint64_t{1} << 28;
class RowSample : public Sample {
 public:
  RowSample(std::uint64_t rows, std::uint64_t seed, const FunctionInfo* f = nullptr);
  std::uint64_t size() const override;
  std::uint64_t random_rows() const { return rows_; }
  std::uint64_t elements() const;  // over every row, random and edge
  std::string describe() const override;
  std::string table_note() const override;
  std::uint64_t chunks() const override;
  void fill(std::uint64_t chunk, Chunk& out) const override;
  const char* unit() const override { return "rows"; }
  static constexpr std::uint64_t kRowsPerChunk = 256;
  // The length of chunk c's rows (random chunks).
  std::size_t length_of(std::uint64_t chunk) const;

 private:
  std::uint64_t rows_, seed_;
  struct Edge {
    std::size_t length;
    std::vector<float> elements;  // rows of `length`, one after the other
  };
  std::vector<Edge> edges_;  // one chunk each (rows of one length)
};

// The default case set of a row (`accelmath sweep F`): n = 0 the full one (every float32, or the
// structured sample at its default size), else a sample of size n (one float input: n random inputs
// plus edge cases; others: the structured sample at size n).
std::unique_ptr<Sample> sample_for(const FunctionInfo& f, std::uint64_t n, std::uint64_t seed);
// Whether a row's case set is every input (one float input) or a sample.
bool exhaustive_possible(const FunctionInfo& f);

// The sweep of a row over a case set. `progress`: counts the cases done (none if null), which it
// neither starts nor finishes.
Result run(const FunctionInfo& f, const oracle::Oracle& o, const Sample& s, unsigned threads, cli::Progress* progress);

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
// neighbours, and the row's special inputs (the first input of each).
std::vector<float> edge_cases(const FunctionInfo* f = nullptr);
// n random inputs (a quarter each: random bit patterns, random bit patterns in [0, 1], uniform in
// (0, 1), uniform in [-150, 150]) followed by edge_cases(f). Deterministic for a seed.
std::vector<float> sample(std::size_t n, std::uint64_t seed, const FunctionInfo* f = nullptr);

// A case as people read it: "x = 1.5 (0x3fc00000)", "(x1, x2) = (...) (0x..., 0x...)",
// "(x, n) = (1.5 (0x3fc00000), -3)", "a row of 17: (1.5, -2, 3e-40, 0, ...)".
std::string describe_case(const FunctionInfo& f, const Case& c);
// A result (Value) of output k as people read it.
std::string describe_value(const FunctionInfo& f, int output, const Value& v);

void print(const Result& r, const FunctionInfo& f, const std::string& input_set, std::FILE* out);
// One markdown table row: | function | bound | max ulp | at x | correctly rounded | inputs | time |
// (sampled rows: the inputs cell says which sample, `input_set`).
std::string markdown_row(const Result& r, const FunctionInfo& f, const std::string& input_set = "");

}  // namespace accelmath::sweep
