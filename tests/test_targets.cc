// Bit-identity of every path: the scalar lane (accelmath::scalar) and every Highway target that is
// compiled in and supported by this machine, each forced in turn through the public array API.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "accelmath/accelmath.h"
#include "accuracy/sweep.h"
#include "test_util.h"

namespace {

using accelmath::test::Bits;

std::vector<float> Inputs() {
  std::vector<float> v = accelmath::sweep::sample(1 << 18, 7);
  // Every subnormal exponent and a dense run of the smallest subnormals: DESIGN.md requires a
  // subnormal input to give the same bits on every path.
  for (std::uint32_t b = 1; b < 4096; ++b) v.push_back(accelmath::test::FromBits(b));
  for (std::uint32_t b = 1; b < 0x00800000u; b = b * 3 + 1) v.push_back(accelmath::test::FromBits(b));
  return v;
}

struct TargetReset {
  ~TargetReset() { hwy::SetSupportedTargetsForTest(0); }
};

void CheckAllTargets(accelmath::Status (*array)(std::span<float>, std::span<const float>) noexcept,
                     float (*scalar)(float) noexcept) {
  const std::vector<float> in = Inputs();
  std::vector<float> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = scalar(in[i]);
  TargetReset reset;
  const auto targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  for (const auto target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = hwy::TargetName(target);
    SCOPED_TRACE(name);
    std::printf("  target %s\n", name.c_str());
    std::vector<float> got(in.size());
    ASSERT_EQ(array(got, in), accelmath::Status::kOk);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < in.size() && mismatches < 10; ++i) {
      if (Bits(got[i]) != Bits(want[i])) {
        ++mismatches;
        ADD_FAILURE() << "p = " << in[i] << " (0x" << std::hex << Bits(in[i]) << "): target 0x" << Bits(got[i])
                      << ", scalar 0x" << Bits(want[i]);
      }
    }
    // Every length 1..40 exercises the masked tail of each vector width.
    for (std::size_t n = 1; n <= 40; ++n) {
      std::vector<float> part(n);
      ASSERT_EQ(array(part, std::span<const float>(in.data() + 1000, n)), accelmath::Status::kOk);
      EXPECT_EQ(0, std::memcmp(part.data(), want.data() + 1000, 4 * n)) << "length " << n;
    }
  }
}

TEST(Targets, DefaultIsBitIdenticalOnEveryPath) {
  CheckAllTargets(accelmath::ndtri, accelmath::scalar::ndtri);
}

TEST(Targets, TaskbookIsBitIdenticalOnEveryPath) {
  CheckAllTargets(accelmath::ndtri_taskbook, accelmath::scalar::ndtri_taskbook);
}

}  // namespace
