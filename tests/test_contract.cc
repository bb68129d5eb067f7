// The array contract of include/accelmath/math.h, with canaries around every buffer, for every
// function of the registry (accelmath/ops.def) through its C++ array API.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "accelmath/accelmath.h"
#include "accelmath/registry.h"
#include "test_util.h"

namespace {

using accelmath::Status;
using accelmath::test::Bits;
using accelmath::test::Canary;

using ArrayFn = Status (*)(std::span<float>, std::span<const float>, std::size_t) noexcept;

std::vector<ArrayFn> AllArrayFunctions() {
  std::vector<ArrayFn> v;
  for (const auto& f : accelmath::functions()) v.push_back(f.array);
  return v;
}
const std::vector<ArrayFn> kFns = AllArrayFunctions();

// A buffer of `n` payload floats with `kGuard` canaries on each side.
struct Guarded {
  static constexpr std::size_t kGuard = 64;
  std::vector<float> buf;
  explicit Guarded(std::size_t n, float fill) : buf(n + 2 * kGuard, Canary()) {
    std::fill(buf.begin() + kGuard, buf.end() - kGuard, fill);
  }
  float* data() { return buf.data() + kGuard; }
  std::size_t size() const { return buf.size() - 2 * kGuard; }
  bool GuardsIntact() const {
    for (std::size_t i = 0; i < kGuard; ++i) {
      if (Bits(buf[i]) != Bits(Canary()) || Bits(buf[buf.size() - 1 - i]) != Bits(Canary())) return false;
    }
    return true;
  }
};

TEST(Contract, NothingPastCountIsTouched) {
  for (ArrayFn f : kFns) {
    for (std::size_t n : {1u, 2u, 3u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 63u, 64u, 65u, 100u}) {
      for (std::size_t count = 0; count <= n; count += (count < 20 ? 1 : 7)) {
        Guarded src(n, 0.2f), dst(n, Canary());
        ASSERT_EQ(f(std::span<float>(dst.data(), n), std::span<const float>(src.data(), n), count), Status::kOk);
        EXPECT_TRUE(dst.GuardsIntact() && src.GuardsIntact());
        for (std::size_t i = 0; i < n; ++i) {
          const bool written = Bits(dst.data()[i]) != Bits(Canary());
          EXPECT_EQ(written, i < count) << "n " << n << " count " << count << " i " << i;
        }
      }
    }
  }
}

TEST(Contract, CountLargerThanBuffersIsRejectedAndWritesNothing) {
  for (ArrayFn f : kFns) {
    Guarded src(10, 0.2f), dst(10, Canary());
    EXPECT_EQ(f(std::span<float>(dst.data(), 10), std::span<const float>(src.data(), 9), 10), Status::kBufferTooSmall);
    EXPECT_EQ(f(std::span<float>(dst.data(), 9), std::span<const float>(src.data(), 10), 10), Status::kBufferTooSmall);
    EXPECT_EQ(f(std::span<float>(dst.data(), 10), std::span<const float>(src.data(), 10), 11), Status::kBufferTooSmall);
    for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(Bits(dst.data()[i]), Bits(Canary()));
    EXPECT_TRUE(dst.GuardsIntact());
  }
}

TEST(Contract, PartialOverlapIsRejectedAndWritesNothing) {
  for (ArrayFn f : kFns) {
    for (std::ptrdiff_t shift : {-17, -8, -1, 1, 3, 8, 31}) {
      Guarded g(200, 0.3f);
      const std::vector<float> before = g.buf;
      float* base = g.data() + 50;
      const std::span<const float> src(base, 100);
      const std::span<float> dst(base + shift, 100);
      EXPECT_EQ(f(dst, src, 100), Status::kPartialOverlap) << shift;
      EXPECT_EQ(0, std::memcmp(before.data(), g.buf.data(), 4 * before.size())) << shift;
      // Overlap only matters within the first `count` elements.
      const std::size_t disjoint_count = static_cast<std::size_t>(shift < 0 ? -shift : shift);
      EXPECT_EQ(f(dst, src, disjoint_count), Status::kOk) << shift;
    }
  }
}

TEST(Contract, AdjacentBuffersAreFine) {
  for (const auto& f : accelmath::functions()) {
    Guarded g(64, 0.4f);
    const std::span<const float> src(g.data(), 32);
    const std::span<float> dst(g.data() + 32, 32);
    EXPECT_EQ(f.array(dst, src, 32), Status::kOk) << f.name;
    EXPECT_EQ(Bits(dst[0]), Bits(f.scalar(0.4f))) << f.name;
    EXPECT_TRUE(g.GuardsIntact()) << f.name;
  }
}

TEST(Contract, InPlaceGivesTheSameBitsAsSeparateBuffers) {
  std::vector<float> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.001f * float(i) - 0.3f;
  for (const auto& f : accelmath::functions()) {
    std::vector<float> separate(x.size()), inplace = x;
    ASSERT_EQ(f.array(separate, x, x.size()), Status::kOk);
    ASSERT_EQ(f.array(inplace, inplace, inplace.size()), Status::kOk);
    EXPECT_EQ(0, std::memcmp(separate.data(), inplace.data(), 4 * x.size())) << f.name;
  }
}

TEST(Contract, TwoArgumentFormUsesTheSourceLength) {
  // Every function's two-argument overload is count = src.size(): dst may be longer, not shorter.
  Guarded src(20, 0.25f), dst(25, Canary());
#define ACCELMATH_OP(name, ...)                                                                                 \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 25), std::span<const float>(src.data(), 20)), Status::kOk); \
  EXPECT_EQ(Bits(dst.data()[20]), Bits(Canary())) << #name;                                                     \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 19), std::span<const float>(src.data(), 20)),          \
            Status::kBufferTooSmall) << #name;
#include "accelmath/ops.def"
#undef ACCELMATH_OP
}

TEST(Contract, StatusMessagesAreDistinct) {
  const Status all[] = {Status::kOk, Status::kBufferTooSmall, Status::kPartialOverlap, Status::kSizeMismatch,
                        Status::kIndexOutOfRange, Status::kMisaligned, Status::kOverlap, Status::kInvalidArgument};
  for (const Status a : all) {
    EXPECT_STRNE(accelmath::status_message(a), "unknown status");
    for (const Status b : all) {
      if (a != b) {
        EXPECT_STRNE(accelmath::status_message(a), accelmath::status_message(b));
      }
    }
  }
  EXPECT_STREQ(accelmath::status_message(Status::kOk), "ok");
}

}  // namespace
