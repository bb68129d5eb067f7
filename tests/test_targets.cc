// Bit-identity of every path, for every function of the registry: the scalar lane
// (accelmath::scalar) and every Highway target that is compiled in and supported by this machine,
// each forced in turn through the public array API (a function of two inputs on pairs that mix
// magnitudes, signs and special values of both inputs across the lanes).
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
#include "accuracy/sweep.h"
#include "test_util.h"

namespace {

using accelmath::test::Bits;

std::vector<float> Inputs() {
  // The random part interleaves four kinds of input (random bit patterns, [0, 1], (0, 1), [-150, 150]),
  // so every vector mixes magnitudes, signs and special values across its lanes: a range reduction or
  // region choice must not leak between lanes. The edge cases are shuffled for the same reason.
  std::vector<float> v = accelmath::sweep::sample(1 << 18, 7);
  std::shuffle(v.begin() + (1 << 18), v.end(), std::mt19937(11));
  // Every subnormal exponent and a dense run of the smallest subnormals: DESIGN.md requires a
  // subnormal input to give the same bits on every path.
  for (std::uint32_t b = 1; b < 4096; ++b) v.push_back(accelmath::test::FromBits(b));
  for (std::uint32_t b = 1; b < 0x00800000u; b = b * 3 + 1) v.push_back(accelmath::test::FromBits(b));
  return v;
}

// The pairs of a two-input row: its structured sample (every exponent pair and sign combination,
// the diagonals, the axes; consecutive pairs fall in distant cells, so each vector mixes them),
// its edge pairs shuffled, then the inputs above paired with a shuffled copy of themselves.
void Pairs(const accelmath::FunctionInfo& f, std::vector<float>& x1, std::vector<float>& x2) {
  const accelmath::sweep::PairSample sample(1 << 18, 7, &f);
  sample.materialise(x1, x2);
  std::vector<std::size_t> order(sample.edges());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = x1.size() - order.size() + i;
  std::vector<std::size_t> shuffled = order;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(11));
  const std::vector<float> e1 = x1, e2 = x2;
  for (std::size_t i = 0; i < order.size(); ++i) x1[order[i]] = e1[shuffled[i]], x2[order[i]] = e2[shuffled[i]];
  const std::vector<float> one = Inputs();
  std::vector<float> other = one;
  std::shuffle(other.begin(), other.end(), std::mt19937(13));
  x1.insert(x1.end(), one.begin(), one.end());
  x2.insert(x2.end(), other.begin(), other.end());
}

struct TargetReset {
  ~TargetReset() { hwy::SetSupportedTargetsForTest(0); }
};

// in2: the second inputs of a two-input row (ignored by the others).
void CheckAllTargets(const accelmath::FunctionInfo& f, const std::vector<float>& in, const std::vector<float>& in2) {
  // Each result of the function: one column per output, both in one vector for UnaryPair rows.
  const std::size_t n_in = in.size(), k = static_cast<std::size_t>(f.outputs());
  std::vector<float> want(k * n_in);
  for (std::size_t i = 0; i < n_in; ++i) f.run_scalar(in[i], in2[i], &want[i], &want[(k - 1) * n_in + i]);
  TargetReset reset;
  const auto targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  for (const auto target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = hwy::TargetName(target);
    SCOPED_TRACE(name);
    std::vector<float> got(k * n_in);
    ASSERT_EQ(f.run(std::span<float>(got.data(), n_in), std::span<float>(got.data() + (k - 1) * n_in, n_in), in, in2,
                    n_in),
              accelmath::Status::kOk);
    std::size_t mismatches = 0;
    for (std::size_t j = 0; j < k * n_in && mismatches < 10; ++j) {
      if (Bits(got[j]) != Bits(want[j])) {
        ++mismatches;
        const float x = in[j % n_in], x2 = in2[j % n_in];
        char what[128];  // the input, or the pair
        if (f.inputs() == 2) {
          std::snprintf(what, sizeof what, "(%.9g, %.9g) (0x%08x, 0x%08x)", x, x2, Bits(x), Bits(x2));
        } else {
          std::snprintf(what, sizeof what, "(%.9g) (0x%08x)", x, Bits(x));
        }
        ADD_FAILURE() << f.name << what << ", result " << j / n_in + 1 << ": target 0x" << std::hex << Bits(got[j])
                      << ", scalar 0x" << Bits(want[j]);
      }
    }
    // Every length 1..40 exercises the masked tail of each vector width.
    for (std::size_t n = 1; n <= 40; ++n) {
      std::vector<float> part1(n), part2(n);
      ASSERT_EQ(f.run(part1, part2, std::span<const float>(in.data() + 1000, n), std::span<const float>(in2.data() + 1000, n), n),
                accelmath::Status::kOk);
      EXPECT_EQ(0, std::memcmp(part1.data(), want.data() + 1000, 4 * n)) << "length " << n;
      if (k == 2) {
        EXPECT_EQ(0, std::memcmp(part2.data(), want.data() + n_in + 1000, 4 * n)) << "length " << n;
      }
    }
  }
}

TEST(Targets, EveryFunctionIsBitIdenticalOnEveryPath) {
  const std::vector<float> in = Inputs();
  for (const auto target : hwy::SupportedAndGeneratedTargets()) std::printf("  target %s\n", hwy::TargetName(target));
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    if (f.inputs() == 2) {
      std::vector<float> x1, x2;
      Pairs(f, x1, x2);
      CheckAllTargets(f, x1, x2);
    } else {
      CheckAllTargets(f, in, in);
    }
  }
}

}  // namespace
