// The array contract of include/accelmath/math.h, with canaries around every buffer, for every
// function of the registry (accelmath/ops.def) through its C++ array API.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "accelmath/accelmath.h"
#include "accelmath/registry.h"
#include "test_util.h"

namespace {

using accelmath::Status;
using accelmath::test::Bits;
using accelmath::test::Canary;

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

// Every function through one signature, f(dst, src, count). A row with two results writes its
// second into a guarded buffer of its own, which must be written exactly where the call succeeded
// and i < count, and nowhere else. A row with two inputs appears twice: `src` is its first input
// and then its second, the other input a guarded buffer of src's length (a copy of src, disjoint
// from everything), which must stay as it was.
class ArrayFn {
 public:
  ArrayFn(const accelmath::FunctionInfo& f, int src_input) : f_(f), src_input_(src_input) {}
  Status operator()(std::span<float> dst, std::span<const float> src, std::size_t count) const {
    if (f_.inputs() == 2) {
      Guarded other(src.size(), 0.0f);
      std::copy(src.begin(), src.end(), other.data());
      const std::vector<float> before = other.buf;
      const std::span<const float> o(other.data(), src.size());
      const Status s = src_input_ == 1 ? f_.array_binary(dst, src, o, count) : f_.array_binary(dst, o, src, count);
      EXPECT_EQ(0, std::memcmp(before.data(), other.buf.data(), 4 * before.size())) << name() << ": the other input";
      return s;
    }
    if (f_.outputs() == 1) return f_.array(dst, src, count);
    Guarded second(dst.size(), Canary());
    const Status s = f_.array2(dst, std::span<float>(second.data(), dst.size()), src, count);
    EXPECT_TRUE(second.GuardsIntact()) << f_.name;
    for (std::size_t i = 0; i < dst.size(); ++i) {
      EXPECT_EQ(Bits(second.data()[i]) != Bits(Canary()), s == Status::kOk && i < count) << f_.name << " result 2, i " << i;
    }
    return s;
  }
  std::string name() const { return std::string(f_.name) + (f_.inputs() == 2 ? " input " + std::to_string(src_input_) : ""); }

 private:
  const accelmath::FunctionInfo& f_;
  int src_input_;  // which input `src` is (1 or 2)
};

std::vector<ArrayFn> AllArrayFunctions() {
  std::vector<ArrayFn> v;
  for (const auto& f : accelmath::functions()) {
    for (int input = 1; input <= f.inputs(); ++input) v.emplace_back(f, input);
  }
  return v;
}
const std::vector<ArrayFn> kFns = AllArrayFunctions();

TEST(Contract, NothingPastCountIsTouched) {
  for (ArrayFn f : kFns) {
    for (std::size_t n : {1u, 2u, 3u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 63u, 64u, 65u, 100u}) {
      for (std::size_t count = 0; count <= n; count += (count < 20 ? 1 : 7)) {
        Guarded src(n, 0.2f), dst(n, Canary());
        ASSERT_EQ(f(std::span<float>(dst.data(), n), std::span<const float>(src.data(), n), count), Status::kOk);
        EXPECT_TRUE(dst.GuardsIntact() && src.GuardsIntact());
        for (std::size_t i = 0; i < n; ++i) {
          const bool written = Bits(dst.data()[i]) != Bits(Canary());
          EXPECT_EQ(written, i < count) << f.name() << " n " << n << " count " << count << " i " << i;
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
      EXPECT_EQ(f(dst, src, 100), Status::kPartialOverlap) << f.name() << " " << shift;
      EXPECT_EQ(0, std::memcmp(before.data(), g.buf.data(), 4 * before.size())) << f.name() << " " << shift;
      // Overlap only matters within the first `count` elements.
      const std::size_t disjoint_count = static_cast<std::size_t>(shift < 0 ? -shift : shift);
      EXPECT_EQ(f(dst, src, disjoint_count), Status::kOk) << f.name() << " " << shift;
    }
  }
}

TEST(Contract, AdjacentBuffersAreFine) {
  for (const auto& f : accelmath::functions()) {
    Guarded g(128, 0.4f);
    std::fill(g.data() + 96, g.data() + 128, 0.7f);
    const std::span<const float> src(g.data(), 32), src2(g.data() + 96, 32);  // src2: a two-input row's second input
    const std::span<float> dst(g.data() + 32, 32), dst2(g.data() + 64, 32);
    EXPECT_EQ(f.run(dst, dst2, src, src2, 32), Status::kOk) << f.name;
    float s1 = 0, s2 = 0;
    f.run_scalar(0.4f, 0.7f, &s1, &s2);
    EXPECT_EQ(Bits(dst[0]), Bits(s1)) << f.name;
    if (f.outputs() == 2) {
      EXPECT_EQ(Bits(dst2[0]), Bits(s2)) << f.name;
    }
    EXPECT_TRUE(g.GuardsIntact()) << f.name;
  }
}

TEST(Contract, InPlaceGivesTheSameBitsAsSeparateBuffers) {
  std::vector<float> x(1000), x2(1000);  // x2: the second input of a two-input row
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.001f * float(i) - 0.3f, x2[i] = 0.7f - 0.0013f * float(i);
  for (const auto& f : accelmath::functions()) {
    std::vector<float> separate(x.size()), separate2(x.size()), inplace = x, other(x.size());
    ASSERT_EQ(f.run(separate, separate2, x, x2, x.size()), Status::kOk);
    ASSERT_EQ(f.run(inplace, other, inplace, x2, inplace.size()), Status::kOk);
    EXPECT_EQ(0, std::memcmp(separate.data(), inplace.data(), 4 * x.size())) << f.name;
    if (f.inputs() == 2) {  // in place on the second input, and on both when they are one array
      inplace = x2;
      ASSERT_EQ(f.run(inplace, other, x, inplace, inplace.size()), Status::kOk);
      EXPECT_EQ(0, std::memcmp(separate.data(), inplace.data(), 4 * x.size())) << f.name << " in place on input 2";
      std::vector<float> both(x.size());
      ASSERT_EQ(f.run(both, other, x, x, x.size()), Status::kOk);
      inplace = x;
      ASSERT_EQ(f.run(inplace, other, inplace, inplace, inplace.size()), Status::kOk);
      EXPECT_EQ(0, std::memcmp(both.data(), inplace.data(), 4 * x.size())) << f.name << " in place on both inputs";
    }
    if (f.outputs() == 1) continue;
    EXPECT_EQ(0, std::memcmp(separate2.data(), other.data(), 4 * x.size())) << f.name;
    inplace = x;  // the second result in place
    ASSERT_EQ(f.run(other, inplace, inplace, x2, inplace.size()), Status::kOk);
    EXPECT_EQ(0, std::memcmp(separate.data(), other.data(), 4 * x.size())) << f.name;
    EXPECT_EQ(0, std::memcmp(separate2.data(), inplace.data(), 4 * x.size())) << f.name;
  }
}

// Two inputs: the sources are only read, so they may overlap each other in any way; the result is
// as if each were read whole. dst must be either source itself or disjoint from both.
TEST(Contract, TwoInputsMayOverlapEachOtherButNotTheResult) {
  int binary = 0;
  for (const auto& f : accelmath::functions()) {
    if (f.inputs() != 2) continue;
    ++binary;
    Guarded g(300, 0.0f);
    for (std::size_t i = 0; i < 300; ++i) g.data()[i] = 0.01f * float(i) - 1.3f;
    const std::vector<float> copy(g.data(), g.data() + 300);
    for (std::ptrdiff_t shift : {0, 1, -1, 17, 99}) {
      const std::span<const float> a(g.data() + 100, 100), b(g.data() + 100 + shift, 100);
      std::vector<float> got(100), want(100), unused(100);
      ASSERT_EQ(f.run(got, unused, a, b, 100), Status::kOk) << f.name << " " << shift;
      const std::vector<float> a_copy(a.begin(), a.end()), b_copy(b.begin(), b.end());
      ASSERT_EQ(f.run(want, unused, a_copy, b_copy, 100), Status::kOk);
      EXPECT_EQ(0, std::memcmp(got.data(), want.data(), 400)) << f.name << " " << shift;
      EXPECT_EQ(0, std::memcmp(copy.data(), g.data(), 4 * copy.size())) << f.name << " sources untouched";
    }
    // dst in place on one source and partly over the other: refused, nothing written.
    const std::vector<float> before = g.buf;
    const std::span<float> dst(g.data() + 100, 100);
    EXPECT_EQ(f.array_binary(dst, dst, std::span<const float>(g.data() + 150, 100), 100), Status::kPartialOverlap) << f.name;
    EXPECT_EQ(f.array_binary(dst, std::span<const float>(g.data() + 50, 100), dst, 100), Status::kPartialOverlap) << f.name;
    EXPECT_EQ(0, std::memcmp(before.data(), g.buf.data(), 4 * before.size())) << f.name;
    // The second source shorter than count: refused, like the first.
    std::vector<float> out(10, Canary());
    EXPECT_EQ(f.array_binary(out, std::span<const float>(g.data(), 10), std::span<const float>(g.data() + 20, 9), 10),
              Status::kBufferTooSmall) << f.name;
    EXPECT_EQ(Bits(out[0]), Bits(Canary())) << f.name;
  }
  EXPECT_GE(binary, 1) << "no Binary row: this test checks nothing";
}

TEST(Contract, TwoResultsMustNotOverlapEachOther) {
  int pairs = 0;
  for (const auto& f : accelmath::functions()) {
    if (f.outputs() != 2) continue;
    ++pairs;
    Guarded src(100, 0.3f), g(300, Canary());
    const std::vector<float> before = g.buf;
    for (std::ptrdiff_t shift : {0, 1, -1, 50, 99}) {
      const std::span<float> a(g.data() + 100, 100), b(g.data() + 100 + shift, 100);
      EXPECT_EQ(f.array2(a, b, std::span<const float>(src.data(), 100), 100), Status::kPartialOverlap) << f.name << shift;
      EXPECT_EQ(0, std::memcmp(before.data(), g.buf.data(), 4 * before.size())) << f.name << shift;
    }
    // Both results the source itself: they overlap each other.
    EXPECT_EQ(f.array2(std::span<float>(src.data(), 100), std::span<float>(src.data(), 100),
                       std::span<const float>(src.data(), 100), 100), Status::kPartialOverlap) << f.name;
  }
  EXPECT_GE(pairs, 1) << "no UnaryPair row: this test checks nothing";
}

TEST(Contract, TwoArgumentFormUsesTheSourceLength) {
  // Every function's overload without count is count = src.size() (src1.size() with two inputs):
  // dst (and src2) may be longer, not shorter.
  Guarded src(20, 0.25f), dst(25, Canary()), dst2(25, Canary());
  const std::span<const float> s(src.data(), 20);
#define ACCELMATH_TWO_ARG_Unary(name)                                                                 \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 25), s), Status::kOk);                      \
  EXPECT_EQ(Bits(dst.data()[20]), Bits(Canary())) << #name;                                           \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 19), s), Status::kBufferTooSmall) << #name;
#define ACCELMATH_TWO_ARG_UnaryPair(name)                                                                           \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 25), std::span<float>(dst2.data(), 25), s), Status::kOk); \
  EXPECT_EQ(Bits(dst.data()[20]), Bits(Canary())) << #name;                                                         \
  EXPECT_EQ(Bits(dst2.data()[20]), Bits(Canary())) << #name;                                                        \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 25), std::span<float>(dst2.data(), 19), s),               \
            Status::kBufferTooSmall) << #name;
#define ACCELMATH_TWO_ARG_Binary(name)                                                                               \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 25), s, std::span<const float>(src.data(), 20)), Status::kOk); \
  EXPECT_EQ(Bits(dst.data()[20]), Bits(Canary())) << #name;                                                         \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 25), s, std::span<const float>(src.data(), 19)),          \
            Status::kBufferTooSmall) << #name;                                                                      \
  EXPECT_EQ(accelmath::name(std::span<float>(dst.data(), 19), s, s), Status::kBufferTooSmall) << #name;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_TWO_ARG_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_TWO_ARG_Unary
#undef ACCELMATH_TWO_ARG_UnaryPair
#undef ACCELMATH_TWO_ARG_Binary
}

TEST(Contract, StatusMessagesAreDistinct) {
  const Status all[] = {Status::kOk, Status::kBufferTooSmall, Status::kPartialOverlap, Status::kSizeMismatch,
                        Status::kIndexOutOfRange, Status::kMisaligned, Status::kOverlap, Status::kInvalidArgument,
                        Status::kNullPointer};
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
