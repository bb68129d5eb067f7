// The exhaustive (or sampled) accuracy sweeper of `accelmath sweep`.
//
// For every input it runs the library's array API (the dispatched SIMD path), compares with the
// reference oracle (tools/accuracy/oracle.h) and accumulates: max ulp error and where, an ulp
// histogram, the max relative error, and the dual-threshold (1e-4) error count against the oracle
// as golden ("CANN error ratio").
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace accelmath::sweep {

enum class Variant { kDefault, kTaskbook };
const char* variant_name(Variant v);

// Upper edges of the ulp histogram buckets; the last bucket takes everything above (and +inf,
// i.e. special-value mismatches).
inline constexpr std::array<double, 11> kBucketEdges = {0.5, 0.5001, 0.501, 0.51, 0.6, 0.75, 1.0, 2.0, 16.0, 256.0, 65536.0};
inline constexpr std::size_t kBuckets = kBucketEdges.size() + 1;

struct Result {
  std::uint64_t count = 0;
  double max_ulp = 0;
  float worst_p = 0, worst_y = 0;
  double worst_ref = 0;
  double max_rel = 0;  // |y - r| / |r| over finite nonzero r
  float worst_rel_p = 0;
  std::uint64_t dual_errors = 0;  // dual threshold 1e-4 vs the oracle
  std::uint64_t special_mismatches = 0;
  std::array<std::uint64_t, kBuckets> histogram{};

  double dual_error_ratio() const { return count ? double(dual_errors) / double(count) : 0.0; }
  void merge(const Result& o);
};

// Every float32 p in [0, 1]: bit patterns 0 (= +0) .. 0x3F800000 (= 1), 1,065,353,217 inputs.
Result run_all(Variant v, unsigned threads, bool progress);
// The given inputs.
Result run_inputs(Variant v, std::span<const float> inputs, unsigned threads, bool progress);

// Edge cases of ndtri: specials, region boundaries and their neighbours, powers of two, the
// normal/subnormal boundary, tails and their mirrors.
std::vector<float> edge_cases();
// n random inputs (half uniform over the bit patterns of [0, 1], half uniform in value) followed by
// edge_cases(). Deterministic for a seed.
std::vector<float> sample(std::size_t n, std::uint64_t seed);

void print(const Result& r, Variant v, const std::string& input_set, std::FILE* out);

}  // namespace accelmath::sweep
