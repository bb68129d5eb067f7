// Bit-identity of every path, for every function of the registry whatever its shape: the scalar
// lane (accelmath::scalar, one element at a time) and every Highway target that is compiled in and
// supported by this machine, each forced in turn through the public array API, on inputs that mix
// magnitudes, signs and special values (subnormals, infinities, NaNs with payloads) of every input
// across the lanes of each vector; every output compared bit for bit, NaN bits included.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "accelmath/accelmath.h"
#include "accelmath/registry.h"
#include "shape_test_util.h"
#include "test_util.h"

namespace {

using accelmath::Shape;
using accelmath::test::Operands;

struct TargetReset {
  ~TargetReset() { hwy::SetSupportedTargetsForTest(0); }
};

// The inputs of a row (not Rows): random inputs of every class (RandomOperands), the row's special
// values in every lane position, every pair of edge values for the first two float inputs (shuffled
// so that each vector mixes them), and, as first input, every subnormal exponent and a dense run of
// the smallest subnormals (DESIGN.md: a subnormal input gives the same bits on every path).
Operands Inputs(const accelmath::FunctionInfo& f) {
  using accelmath::test::ET;
  Operands o = accelmath::test::Concat(accelmath::test::RandomOperands(f, 1 << 18, 7),
                                       accelmath::test::SpecialArrays(f).in);
  const std::vector<float> edges = accelmath::test::EdgeFloats();
  std::vector<std::pair<float, float>> pairs;
  for (float a : edges) {
    for (float b : edges) pairs.emplace_back(a, b);
  }
  std::shuffle(pairs.begin(), pairs.end(), std::mt19937(11));
  std::vector<std::uint32_t> subnormals;
  for (std::uint32_t b = 1; b < 4096; ++b) subnormals.push_back(b);
  for (std::uint32_t b = 1; b < 0x00800000u; b = b * 3 + 1) subnormals.push_back(b), subnormals.push_back(b | 0x80000000u);
  Operands extra = accelmath::test::RandomOperands(f, pairs.size() + subnormals.size(), 13);
  for (std::size_t j = 0; j < pairs.size(); ++j) {
    extra.in[0].set(j, {pairs[j].first, 0});
    if (extra.in.size() > 1 && extra.in[1].type() == ET::kF32) extra.in[1].set(j, {pairs[j].second, 0});
  }
  for (std::size_t j = 0; j < subnormals.size(); ++j) extra.in[0].set_bits(pairs.size() + j, subnormals[j]);
  return accelmath::test::Concat(o, extra);
}

void CheckAllTargets(Operands in) {
  Operands want = in.Fresh();
  want.RunScalar();
  TargetReset reset;
  const auto targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  for (const auto target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    Operands got = in.Fresh();
    ASSERT_EQ(got.Run(), accelmath::Status::kOk);
    accelmath::test::CompareOutputs(got, want, "target");
    // Every length 1..40 exercises the partial last vector of each width.
    const std::size_t first = std::min<std::size_t>(1000, in.count / 2);
    for (std::size_t n = 1; n <= 40 && first + n <= in.count; ++n) {
      Operands part = accelmath::test::Slice(in, first, n).Fresh();
      ASSERT_EQ(part.Run(), accelmath::Status::kOk);
      EXPECT_EQ(accelmath::test::CompareOutputs(part, accelmath::test::Slice(want, first, n), "length " + std::to_string(n), 2),
                0u);
    }
  }
}

TEST(Targets, EveryFunctionIsBitIdenticalOnEveryPath) {
  for (const auto target : hwy::SupportedAndGeneratedTargets()) std::printf("  target %s\n", hwy::TargetName(target));
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    if (f.shape != Shape::kRows) {
      CheckAllTargets(Inputs(f));
      continue;
    }
    // Rows: every length around the 16 partials and the vector widths, rows of mixed scales with
    // zeros, subnormals, infinities and NaNs (RandomRow).
    for (std::size_t n : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 32u, 33u, 64u, 100u, 1000u}) {
      SCOPED_TRACE("row length " + std::to_string(n));
      CheckAllTargets(accelmath::test::RandomOperands(f, std::max<std::size_t>(64, 20000 / (n + 1)), 17 + n, n));
    }
  }
}

}  // namespace
