// The array contract of include/accelmath/math.h, for every function of the registry whatever its
// shape, through its typed C++ array API, with canaries around every buffer: sizes (each operand in
// turn too short), count 0, nothing past count touched, in place only on an input of the same
// element type (Rows: dst == src), every other overlap of a result with an input or of two results
// refused with nothing written, inputs free to overlap each other, and the form without count.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "accelmath/accelmath.h"
#include "accelmath/registry.h"
#include "shape_test_util.h"
#include "test_util.h"

namespace {

using accelmath::FunctionInfo;
using accelmath::Shape;
using accelmath::Status;
using accelmath::test::Buffer;
using accelmath::test::ET;
using accelmath::test::View;

bool IsRows(const FunctionInfo& f) { return f.shape == Shape::kRows; }
// Elements input k uses for `count` results (Rows: count rows of rl).
std::size_t InputElems(const FunctionInfo& f, std::size_t count, std::size_t rl) { return IsRows(f) ? count * rl : count; }

// Harmless input values: positive floats in (0.2, 0.3), ints in [-3, 3].
void FillInput(Buffer& b) {
  for (std::size_t i = 0; i < b.size(); ++i) {
    b.set(i, b.type() == ET::kI32 ? accelmath::Value{0.0f, std::int32_t(i % 7) - 3} : accelmath::Value{0.2f + 0.0001f * float(i % 997), 0});
  }
}

// One call's operands, each in its own guarded buffer: outputs of `n_out` elements, inputs of `n_in`
// (Rows: rows of rl), inputs filled.
struct Separate {
  std::vector<Buffer> out, in;
  Separate(const FunctionInfo& f, std::size_t n_out, std::size_t n_in) {
    for (int k = 0; k < f.outputs(); ++k) out.emplace_back(f.output_type(k), n_out);
    for (int k = 0; k < f.inputs(); ++k) in.emplace_back(f.input_type(k), n_in), FillInput(in.back());
  }
  std::vector<View> OutViews() {
    std::vector<View> v;
    for (auto& b : out) v.push_back({b.data(), b.size()});
    return v;
  }
  std::vector<View> InViews() {
    std::vector<View> v;
    for (auto& b : in) v.push_back({b.data(), b.size()});
    return v;
  }
  bool NothingWritten() const {
    for (const auto& b : out) {
      for (std::size_t i = 0; i < b.size(); ++i) {
        if (b.written(i)) return false;
      }
    }
    return true;
  }
};

// Raw bytes with guards, to place operands at chosen offsets (overlap tests).
struct Arena {
  std::vector<unsigned char> bytes;
  explicit Arena(std::size_t n) : bytes(n + 128, 0xA5) {}
  unsigned char* at(std::ptrdiff_t offset) { return bytes.data() + 64 + offset; }
};

TEST(Contract, NothingPastCountIsTouched) {
  for (const auto& f : accelmath::functions()) {
    const auto fn = accelmath::test::TypedArrayOf(f);
    ASSERT_NE(fn, nullptr) << f.name;
    for (std::size_t rl : IsRows(f) ? std::vector<std::size_t>{0, 1, 3, 17} : std::vector<std::size_t>{0}) {
      for (std::size_t n : {1u, 2u, 3u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 63u, 64u, 65u, 100u}) {
        for (std::size_t count = 0; count <= n; count += (count < 20 ? 1 : 7)) {
          Separate s(f, n, InputElems(f, n, rl));
          std::vector<Buffer> in_before = s.in;
          ASSERT_EQ(fn(s.OutViews(), s.InViews(), count, rl), Status::kOk) << f.name;
          for (std::size_t k = 0; k < s.out.size(); ++k) {
            EXPECT_TRUE(s.out[k].GuardsIntact()) << f.name;
            for (std::size_t i = 0; i < n; ++i) {
              EXPECT_EQ(s.out[k].written(i), i < count) << f.name << " result " << k + 1 << " n " << n << " count " << count
                                                         << " i " << i << " row length " << rl;
            }
          }
          for (std::size_t k = 0; k < s.in.size(); ++k) EXPECT_EQ(s.in[k].raw(), in_before[k].raw()) << f.name << " input " << k + 1;
        }
      }
    }
  }
}

TEST(Contract, CountLargerThanAnyBufferIsRejectedAndWritesNothing) {
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    const auto fn = accelmath::test::TypedArrayOf(f);
    const std::size_t rl = IsRows(f) ? 3 : 0;
    // Each operand in turn one element short of count (Rows: dst one row short, src one float).
    for (int which = 0; which < f.outputs() + f.inputs(); ++which) {
      Separate s(f, 10, InputElems(f, 10, rl));
      auto out = s.OutViews();
      auto in = s.InViews();
      View& shorter = which < f.outputs() ? out[which] : in[which - f.outputs()];
      shorter.size -= 1;
      EXPECT_EQ(fn(out, in, 10, rl), Status::kBufferTooSmall) << "operand " << which;
      EXPECT_TRUE(s.NothingWritten()) << "operand " << which;
    }
    Separate s(f, 10, InputElems(f, 10, rl));
    EXPECT_EQ(fn(s.OutViews(), s.InViews(), 11, rl), Status::kBufferTooSmall);
    EXPECT_TRUE(s.NothingWritten());
    for (const auto& b : s.out) EXPECT_TRUE(b.GuardsIntact());
  }
}

TEST(Contract, CountZeroReadsAndWritesNothing) {
  for (const auto& f : accelmath::functions()) {
    const auto fn = accelmath::test::TypedArrayOf(f);
    const std::vector<View> none_out(f.outputs(), View{nullptr, 0}), none_in(f.inputs(), View{nullptr, 0});
    EXPECT_EQ(fn(none_out, none_in, 0, 5), Status::kOk) << f.name;  // empty spans, null data
    Separate s(f, 8, InputElems(f, 8, 5));
    EXPECT_EQ(fn(s.OutViews(), s.InViews(), 0, 5), Status::kOk) << f.name;
    EXPECT_TRUE(s.NothingWritten()) << f.name;
  }
}

// Result k over input j at a shifted place: refused unless it is the very same place and element
// type (in place), or the used elements are disjoint. Nothing is written when refused.
TEST(Contract, PartialOverlapIsRejectedAndWritesNothing) {
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    const auto fn = accelmath::test::TypedArrayOf(f);
    const std::size_t count = 100, rl = IsRows(f) ? 3 : 0, n_in = InputElems(f, count, rl);
    for (int k = 0; k < f.outputs(); ++k) {
      for (int j = 0; j < f.inputs(); ++j) {
        const std::size_t eo = accelmath::detail::ElementSize(f.output_type(k)), ei = accelmath::detail::ElementSize(f.input_type(j));
        const bool same_type = f.output_type(k) == f.input_type(j);
        for (std::ptrdiff_t shift_elems : {-17, -8, -1, 0, 1, 3, 8, 31}) {
          if (shift_elems == 0 && same_type) continue;  // in place: allowed (InPlace... below)
          for (std::ptrdiff_t shift : {shift_elems * std::ptrdiff_t(eo), shift_elems * std::ptrdiff_t(eo) + 1}) {
            if (shift == 0 && same_type) continue;
            Separate s(f, count, n_in);
            Arena a(n_in * ei + count * eo + 256);
            const std::ptrdiff_t base = 128;
            auto out = s.OutViews();
            auto in = s.InViews();
            in[j] = View{a.at(base), n_in};
            out[k] = View{a.at(base + shift), count};
            const auto before = a.bytes;
            EXPECT_EQ(fn(out, in, count, rl), Status::kPartialOverlap) << "result " << k + 1 << " input " << j + 1 << " shift " << shift;
            EXPECT_EQ(a.bytes, before) << "result " << k + 1 << " input " << j + 1 << " shift " << shift;
            EXPECT_TRUE(s.NothingWritten());
            // Overlap matters only within the elements used: a count that keeps them apart is fine
            // (checked where the shifted result is aligned for its type).
            if (shift % std::ptrdiff_t(eo) != 0) continue;
            const std::size_t apart = shift > 0 ? std::size_t(shift) / (IsRows(f) ? rl * ei : ei) : std::size_t(-shift) / eo;
            EXPECT_EQ(fn(out, in, apart, rl), Status::kOk) << "result " << k + 1 << " input " << j + 1 << " shift " << shift;
          }
        }
      }
    }
  }
}

TEST(Contract, ResultsMustNotOverlapEachOther) {
  int rows = 0;
  for (const auto& f : accelmath::functions()) {
    if (f.outputs() != 2) continue;
    ++rows;
    SCOPED_TRACE(f.name);
    const auto fn = accelmath::test::TypedArrayOf(f);
    const std::size_t e0 = accelmath::detail::ElementSize(f.output_type(0));
    for (std::ptrdiff_t shift : {0, 1, -1, 50, 99}) {
      Separate s(f, 100, 100);
      Arena a(800);
      auto out = s.OutViews();
      out[0] = View{a.at(200), 100};
      out[1] = View{a.at(200 + shift * std::ptrdiff_t(e0)), 100};
      const auto before = a.bytes;
      EXPECT_EQ(fn(out, s.InViews(), 100, 0), Status::kPartialOverlap) << shift;
      EXPECT_EQ(a.bytes, before) << shift;
    }
    // Both results the source itself: each would be in place, but they overlap each other.
    Separate s(f, 100, 100);
    auto in = s.InViews();
    const std::vector<View> out(2, in[0]);
    const auto before = s.in[0].raw();
    EXPECT_EQ(fn(out, in, 100, 0), Status::kPartialOverlap);
    EXPECT_EQ(s.in[0].raw(), before);
  }
  EXPECT_GE(rows, 2) << "UnaryPair and SplitExponent rows: this test checks them";
}

TEST(Contract, AdjacentBuffersAreFine) {
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    const auto fn = accelmath::test::TypedArrayOf(f);
    const std::size_t count = 32, rl = IsRows(f) ? 2 : 0;
    Separate ref(f, count, InputElems(f, count, rl));
    ASSERT_EQ(fn(ref.OutViews(), ref.InViews(), count, rl), Status::kOk);
    // Every operand end to end in one buffer, results between the sources.
    Arena a(4096);
    std::ptrdiff_t at = 0;
    std::vector<View> out, in;
    for (const auto& b : ref.in) {
      std::memcpy(a.at(at), b.data(), b.size() * b.elem());
      in.push_back({a.at(at), b.size()});
      at += std::ptrdiff_t(b.size() * b.elem());
      if (out.size() < ref.out.size()) out.push_back({a.at(at), count}), at += std::ptrdiff_t(count * ref.out[out.size() - 1].elem());
    }
    while (out.size() < ref.out.size()) out.push_back({a.at(at), count}), at += std::ptrdiff_t(count * ref.out[out.size() - 1].elem());
    ASSERT_EQ(fn(out, in, count, rl), Status::kOk);
    for (std::size_t k = 0; k < out.size(); ++k) {
      EXPECT_EQ(0, std::memcmp(out[k].data, ref.out[k].data(), count * ref.out[k].elem())) << "result " << k + 1;
    }
    EXPECT_EQ(a.bytes[63], 0xA5);
    EXPECT_EQ(a.bytes[64 + std::size_t(at)], 0xA5);
  }
}

// Every result in place on every input of its element type (Rows: dst == src, for several row
// lengths: dst[r] overwrites row r's start after it was read), and on all such inputs at once when
// they are one array: the same bits as with separate buffers.
TEST(Contract, InPlaceGivesTheSameBitsAsSeparateBuffers) {
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    const auto fn = accelmath::test::TypedArrayOf(f);
    for (std::size_t rl : IsRows(f) ? std::vector<std::size_t>{1, 2, 3, 16, 17, 40} : std::vector<std::size_t>{0}) {
      const std::size_t count = 1000, n_in = InputElems(f, count, rl);
      accelmath::test::Operands random = accelmath::test::RandomOperands(f, count, 21, rl);
      Separate ref(f, count, n_in);
      ref.in = random.in;
      ASSERT_EQ(fn(ref.OutViews(), ref.InViews(), count, rl), Status::kOk);
      for (int k = 0; k < f.outputs(); ++k) {
        for (int j = 0; j < f.inputs(); ++j) {
          if (f.output_type(k) != f.input_type(j)) continue;
          Separate s(f, count, n_in);
          s.in = random.in;
          auto out = s.OutViews();
          auto in = s.InViews();
          out[k] = View{in[j].data, count};
          ASSERT_EQ(fn(out, in, count, rl), Status::kOk) << "result " << k + 1 << " on input " << j + 1;
          for (int q = 0; q < f.outputs(); ++q) {
            EXPECT_EQ(0, std::memcmp(out[q].data, ref.out[q].data(), count * ref.out[q].elem()))
                << "result " << q + 1 << " with result " << k + 1 << " in place on input " << j + 1 << ", row length " << rl;
          }
        }
      }
      // Every float input one array, and result 1 in place on it.
      if (f.inputs() > 1 && f.input_type(1) == ET::kF32) {
        Separate both(f, count, n_in);
        for (auto& b : both.in) b = random.in[0];
        ASSERT_EQ(fn(both.OutViews(), both.InViews(), count, rl), Status::kOk);
        Separate s(f, count, n_in);
        s.in[0] = random.in[0];
        auto out = s.OutViews();
        std::vector<View> in(f.inputs(), View{s.in[0].data(), count});
        out[0] = in[0];
        ASSERT_EQ(fn(out, in, count, rl), Status::kOk);
        EXPECT_EQ(0, std::memcmp(out[0].data, both.out[0].data(), 4 * count)) << "in place on every input at once";
      }
    }
  }
}

// The inputs are only read: they may overlap each other in any way (whatever their types), and the
// result is as if each were read whole.
TEST(Contract, InputsMayOverlapEachOther) {
  int rows = 0;
  for (const auto& f : accelmath::functions()) {
    if (f.inputs() < 2) continue;
    ++rows;
    SCOPED_TRACE(f.name);
    const auto fn = accelmath::test::TypedArrayOf(f);
    const std::size_t count = 100;
    for (std::ptrdiff_t shift : {0, 1, -1, 17, 99, 2}) {
      Arena a(4096);
      for (std::size_t i = 0; i < 300; ++i) {
        const float v = 0.01f * float(i) - 1.3f;
        std::memcpy(a.at(4 * std::ptrdiff_t(i)), &v, 4);
      }
      const auto before = a.bytes;
      std::vector<View> in;
      for (int j = 0; j < f.inputs(); ++j) in.push_back({a.at(400 + 4 * shift * j), count});
      Separate got(f, count, count), want(f, count, count);
      ASSERT_EQ(fn(got.OutViews(), in, count, 0), Status::kOk) << shift;
      for (int j = 0; j < f.inputs(); ++j) std::memcpy(want.in[j].data(), in[j].data, 4 * count);
      ASSERT_EQ(fn(want.OutViews(), want.InViews(), count, 0), Status::kOk);
      for (int k = 0; k < f.outputs(); ++k) {
        EXPECT_EQ(0, std::memcmp(got.out[k].data(), want.out[k].data(), count * got.out[k].elem())) << shift;
      }
      EXPECT_EQ(a.bytes, before) << "inputs untouched";
    }
  }
  EXPECT_GE(rows, 4) << "Binary, Ternary, Quaternary and ScaleExponent rows: this test checks them";
}

// The form without count: count = the first source's size (Rows: dst.size()); every other span
// may be longer, not shorter.
TEST(Contract, FormWithoutCountUsesTheFirstSourceLength) {
  using std::int32_t, std::uint8_t;
  Buffer src(ET::kF32, 20), src2(ET::kF32, 20), n(ET::kI32, 20), rows(ET::kF32, 15);
  FillInput(src), FillInput(src2), FillInput(n), FillInput(rows);
  const auto s = src.span<const float>();
  const auto s2 = src2.span<const float>();
  const auto short2 = s2.first(19);
  const auto ns = n.span<const int32_t>();
  int checked = 0;
  // Results of 25 elements; result k must be written at 19 and not at 20.
  const auto check = [&](const char* name, Status status, std::initializer_list<Buffer*> outs) {
    ++checked;
    EXPECT_EQ(status, Status::kOk) << name;
    for (Buffer* b : outs) {
      EXPECT_TRUE(b->written(19)) << name;
      EXPECT_FALSE(b->written(20)) << name;
      b->FillCanary();
    }
  };
  Buffer d(ET::kF32, 25), d2(ET::kF32, 25), di(ET::kI32, 25), du(ET::kU8, 25);
  const auto f = [](Buffer& b) { return b.span<float>(); };
#define ACCELMATH_NO_COUNT_Unary(name)                                                                 \
  check(#name, accelmath::name(f(d), s), {&d});                                                       \
  EXPECT_EQ(accelmath::name(f(d).first(19), s), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_UnaryPair(name)                                                             \
  check(#name, accelmath::name(f(d), f(d2), s), {&d, &d2});                                           \
  EXPECT_EQ(accelmath::name(f(d), f(d2).first(19), s), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_Binary(name)                                                                \
  check(#name, accelmath::name(f(d), s, s2), {&d});                                                   \
  EXPECT_EQ(accelmath::name(f(d), s, short2), Status::kBufferTooSmall) << #name;                     \
  EXPECT_EQ(accelmath::name(f(d).first(19), s, s2), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_Ternary(name)                                                               \
  check(#name, accelmath::name(f(d), s, s2, s2), {&d});                                               \
  EXPECT_EQ(accelmath::name(f(d), s, s2, short2), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_Quaternary(name)                                                            \
  check(#name, accelmath::name(f(d), s, s2, s2, s), {&d});                                            \
  EXPECT_EQ(accelmath::name(f(d), s, s2, s2, short2), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_ToInt32(name)                                                               \
  check(#name, accelmath::name(di.span<int32_t>(), s), {&di});                                        \
  EXPECT_EQ(accelmath::name(di.span<int32_t>().first(19), s), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_Predicate(name)                                                             \
  check(#name, accelmath::name(du.span<uint8_t>(), s), {&du});                                        \
  EXPECT_EQ(accelmath::name(du.span<uint8_t>().first(19), s), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_SplitExponent(name)                                                         \
  check(#name, accelmath::name(f(d), di.span<int32_t>(), s), {&d, &di});                              \
  EXPECT_EQ(accelmath::name(f(d), di.span<int32_t>().first(19), s), Status::kBufferTooSmall) << #name;
#define ACCELMATH_NO_COUNT_ScaleExponent(name)                                                         \
  check(#name, accelmath::name(f(d), s, ns), {&d});                                                   \
  EXPECT_EQ(accelmath::name(f(d), s, ns.first(19)), Status::kBufferTooSmall) << #name;
  // Rows: count = dst.size() = 5 rows of 3 (src holds exactly 15 floats).
#define ACCELMATH_NO_COUNT_Rows(name)                                                                  \
  ++checked;                                                                                           \
  EXPECT_EQ(accelmath::name(f(d).first(5), rows.span<const float>(), 3), Status::kOk) << #name;      \
  EXPECT_TRUE(d.written(4) && !d.written(5)) << #name;                                                \
  d.FillCanary();                                                                                      \
  EXPECT_EQ(accelmath::name(f(d).first(5), rows.span<const float>().first(14), 3), Status::kBufferTooSmall) << #name; \
  EXPECT_EQ(accelmath::name(f(d).first(6), rows.span<const float>(), 3), Status::kBufferTooSmall) << #name;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_NO_COUNT_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
  EXPECT_FALSE(d.written(0) || d2.written(0) || di.written(0) || du.written(0)) << "a refused call wrote";
  EXPECT_EQ(checked, int(accelmath::functions().size()));
}

TEST(Contract, StatusMessagesAreDistinct) {
  const Status all[] = {Status::kOk, Status::kBufferTooSmall, Status::kPartialOverlap, Status::kSizeMismatch,
                        Status::kIndexOutOfRange, Status::kMisaligned, Status::kOverlap, Status::kInvalidArgument,
                        Status::kNullPointer, Status::kNotDeviceMemory, Status::kDeviceError};
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
