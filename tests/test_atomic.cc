// Atomic accumulate, single-threaded semantics: the published float16 boundary table
// (tests/data/atomic/atomic-boundary.csv, a copy of ../shared/spec/atomic-boundary.csv) row by row,
// its extension to bfloat16, float32 and the integers, random operands against the independent
// model (tools/accuracy/atomic_reference.cc, MPFR), the scatter form, and the error contract.
// Concurrency is tested in atomic_stress.cc.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "accelmath/atomic.h"
#include "accuracy/atomic_reference.h"
#include "atomic_test_util.h"
#include "test_util.h"

namespace {

using accelmath::bfloat16;
using accelmath::float16;
using accelmath::Status;
using accelmath::atomic::Mode;
namespace ref = accelmath::atomic::reference;
using RefType = ref::Type;
using RefOp = ref::Op;

using accelmath::atomic::test::FromBits;
using accelmath::atomic::test::kRefType;
using accelmath::atomic::test::ToBits;

template <typename T>
Status Call(RefOp op, std::span<T> dst, std::span<const T> src, Mode mode) {
  switch (op) {
    case RefOp::kAdd: return accelmath::atomic::add(dst, src, mode);
    case RefOp::kMax: return accelmath::atomic::max(dst, src, mode);
    default: return accelmath::atomic::min(dst, src, mode);
  }
}

template <typename T>
Status Call(RefOp op, std::span<T> dst, std::span<const std::int64_t> index, std::span<const T> src, Mode mode) {
  switch (op) {
    case RefOp::kAdd: return accelmath::atomic::add(dst, index, src, mode);
    case RefOp::kMax: return accelmath::atomic::max(dst, index, src, mode);
    default: return accelmath::atomic::min(dst, index, src, mode);
  }
}

// dst = {a}; op(dst, {b}) through the element-wise form (scatter = false) or the scatter form.
template <typename T>
std::uint64_t Library(RefOp op, bool saturate, std::uint64_t a, std::uint64_t b, bool scatter) {
  std::vector<T> dst{FromBits<T>(a)};
  const std::vector<T> src{FromBits<T>(b)};
  const std::vector<std::int64_t> index{0};
  const Mode mode = saturate ? Mode::kSaturate : Mode::kIeee;
  const Status s = scatter ? Call<T>(op, dst, index, src, mode) : Call<T>(op, dst, src, mode);
  EXPECT_EQ(s, Status::kOk);
  return ToBits(dst[0]);
}

RefOp ParseOp(const std::string& s) {
  if (s == "add") return RefOp::kAdd;
  if (s == "max") return RefOp::kMax;
  EXPECT_EQ(s, "min");
  return RefOp::kMin;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string f; std::getline(in, f, sep);) out.push_back(f);
  return out;
}

struct CsvRow {
  RefOp op;
  std::string a;
  std::vector<std::string> b;  // the '/'-separated alternatives
  std::string ieee, saturated;
};

// The published table; 58 rows, each an op, one operand, the alternatives for the other, and the
// result in INF/NaN mode and in saturation mode.
std::vector<CsvRow> ReadCsv() {
  std::ifstream in(std::string(ACCELMATH_TEST_DATA) + "/atomic/atomic-boundary.csv");
  EXPECT_TRUE(in.good());
  std::vector<CsvRow> rows;
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode");
  while (std::getline(in, line)) {
    const auto f = Split(line, ',');
    EXPECT_EQ(f.size(), 6u) << line;
    EXPECT_EQ(f[1], "half") << line;
    rows.push_back({ParseOp(f[0]), f[2], Split(f[3], '/'), f[4], f[5]});
  }
  EXPECT_EQ(rows.size(), 58u);
  return rows;
}

// A table value for `type`; "65504.0" stands for the type's MAX (the table is for float16).
std::uint64_t TableValue(RefType type, const std::string& s) {
  double v = std::strtod(s.c_str(), nullptr);
  if (std::fabs(v) == 65504.0) {
    const double max = type == RefType::kFloat16 ? 65504.0 : type == RefType::kBFloat16 ? 0x1.FEp127 : 0x1.FFFFFEp127;
    v = std::copysign(max, v);
  }
  return ref::Encode(type, v);
}

// Every row, every alternative, both operand orders, both modes, element-wise and scatter forms;
// the library and the reference model must both give the published bits. For float32 the
// saturation column is replaced by the IEEE one (the switch does not cover float32).
template <typename T>
void CheckTable() {
  const RefType type = kRefType<T>;
  int checked = 0;
  for (const CsvRow& row : ReadCsv()) {
    for (const std::string& b_text : row.b) {
      const std::uint64_t a = TableValue(type, row.a), b = TableValue(type, b_text);
      for (const bool saturate : {false, true}) {
        const std::string& want_text = saturate && type != RefType::kFloat32 ? row.saturated : row.ieee;
        const std::uint64_t want = TableValue(type, want_text);
        for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
          const std::string what = row.a + " op " + b_text + (saturate ? " (saturation)" : " (IEEE)");
          EXPECT_EQ(ref::Apply(type, row.op, saturate, x, y), want) << "reference: " << what;
          EXPECT_EQ(Library<T>(row.op, saturate, x, y, false), want) << what;
          EXPECT_EQ(Library<T>(row.op, saturate, x, y, true), want) << "scatter: " << what;
          ++checked;
        }
      }
    }
  }
  // 58 rows with 84 operand pairs in all, x 2 orders x 2 modes.
  EXPECT_EQ(checked, 84 * 2 * 2);
}

TEST(AtomicTable, Float16ReproducesThePublishedTable) { CheckTable<float16>(); }
TEST(AtomicTable, BFloat16FollowsTheSameRulesWithItsMax) { CheckTable<bfloat16>(); }
TEST(AtomicTable, Float32IsIeeeInBothModes) { CheckTable<float>(); }

// The same boundary rules for integers: wrap-around in IEEE mode, clamping in saturation mode;
// max/min exact. The first rows are the vector-add table of ../shared/reference/ascend-api-survey.md.
template <typename T>
void CheckIntegerTable() {
  constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  struct Row {
    RefOp op;
    T a, b, wrapped, saturated;
  };
  const Row rows[] = {
      {RefOp::kAdd, lo, lo, 0, lo},         {RefOp::kAdd, lo, hi, -1, -1},    {RefOp::kAdd, hi, hi, -2, hi},
      {RefOp::kAdd, hi, 1, lo, hi},         {RefOp::kAdd, lo, -1, hi, lo},    {RefOp::kAdd, lo, 0, lo, lo},
      {RefOp::kAdd, hi, 0, hi, hi},         {RefOp::kAdd, 0, 0, 0, 0},        {RefOp::kAdd, hi, lo, -1, -1},
      {RefOp::kAdd, -1, -1, -2, -2},        {RefOp::kMax, lo, hi, hi, hi},    {RefOp::kMax, lo, 0, 0, 0},
      {RefOp::kMax, hi, 0, hi, hi},         {RefOp::kMax, lo, lo, lo, lo},    {RefOp::kMax, -1, 0, 0, 0},
      {RefOp::kMin, lo, hi, lo, lo},        {RefOp::kMin, lo, 0, lo, lo},     {RefOp::kMin, hi, 0, 0, 0},
      {RefOp::kMin, hi, hi, hi, hi},        {RefOp::kMin, -1, 0, -1, -1},
  };
  for (const Row& r : rows) {
    for (const bool saturate : {false, true}) {
      const T want = saturate ? r.saturated : r.wrapped;
      for (const auto& [x, y] : {std::pair{r.a, r.b}, std::pair{r.b, r.a}}) {
        const std::string what = std::to_string(x) + " op " + std::to_string(y) + (saturate ? " sat" : " wrap");
        EXPECT_EQ(FromBits<T>(ref::Apply(kRefType<T>, r.op, saturate, ToBits(x), ToBits(y))), want) << what;
        EXPECT_EQ(FromBits<T>(Library<T>(r.op, saturate, ToBits(x), ToBits(y), false)), want) << what;
        EXPECT_EQ(FromBits<T>(Library<T>(r.op, saturate, ToBits(x), ToBits(y), true)), want) << what;
      }
    }
  }
}

TEST(AtomicTable, Int8) { CheckIntegerTable<std::int8_t>(); }
TEST(AtomicTable, Int16) { CheckIntegerTable<std::int16_t>(); }
TEST(AtomicTable, Int32) { CheckIntegerTable<std::int32_t>(); }
TEST(AtomicTable, Int64) { CheckIntegerTable<std::int64_t>(); }

// Operands that matter for each type: zeros, the extremes, subnormals, NaNs with payloads, values
// whose sums round to a tie or overflow; the rest of the operands are random bit patterns.
template <typename T>
std::vector<std::uint64_t> Specials() {
  if constexpr (std::is_same_v<T, float16>) {
    return {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3C01, 0x7BFF, 0xFBFF,
            0x7BFE, 0x7800, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE01, 0x7FFF, 0x1400, 0x6800};
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return {0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x3F81, 0x7F7F, 0xFF7F,
            0x7F7E, 0x7F00, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFC1, 0x7FFF, 0x3B80, 0x4380};
  } else if constexpr (std::is_same_v<T, float>) {
    return {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0xBF800000,
            0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F7FFFFE, 0x7F000000, 0x7F800000, 0xFF800000, 0x7FC00000,
            0x7F800001, 0xFFC00001, 0x33800000, 0x4B800000};
  } else {
    using U = std::make_unsigned_t<T>;
    const U lo = U(std::numeric_limits<T>::min()), hi = U(std::numeric_limits<T>::max());
    return {0, 1, U(-1), lo, hi, U(lo + 1), U(hi - 1), U(hi / 2), U(hi / 2 + 1)};
  }
}

// 2^16 operand pairs per op and mode, through one element-wise call on arrays, against the model.
template <typename T>
void CheckRandom() {
  std::mt19937_64 rng(0xA70D1C + sizeof(T));
  const auto specials = Specials<T>();
  constexpr std::size_t kN = 1 << 16;
  std::vector<std::uint64_t> a(kN), b(kN);
  // Random patterns cut to the type's width once, so a[i], b[i] are exactly what the library sees.
  auto draw = [&] { return ToBits(FromBits<T>(rng() % 4 == 0 ? specials[rng() % specials.size()] : rng())); };
  for (std::size_t i = 0; i < kN; ++i) a[i] = draw(), b[i] = draw();
  for (const RefOp op : {RefOp::kAdd, RefOp::kMax, RefOp::kMin}) {
    for (const bool saturate : {false, true}) {
      std::vector<T> dst(kN), src(kN);
      for (std::size_t i = 0; i < kN; ++i) dst[i] = FromBits<T>(a[i]), src[i] = FromBits<T>(b[i]);
      ASSERT_EQ(Call<T>(op, std::span<T>(dst), std::span<const T>(src), saturate ? Mode::kSaturate : Mode::kIeee),
                Status::kOk);
      int failures = 0;
      for (std::size_t i = 0; i < kN && failures < 10; ++i) {
        const std::uint64_t want = ref::Apply(kRefType<T>, op, saturate, a[i], b[i]);
        if (ToBits(dst[i]) != want) {
          ++failures;
          ADD_FAILURE() << "op " << int(op) << (saturate ? " sat" : " ieee") << std::hex << ": a=0x" << a[i]
                        << " b=0x" << b[i] << " got 0x" << ToBits(dst[i]) << " want 0x" << want;
        }
      }
    }
  }
}

TEST(AtomicRandom, Float16) { CheckRandom<float16>(); }
TEST(AtomicRandom, BFloat16) { CheckRandom<bfloat16>(); }
TEST(AtomicRandom, Float32) { CheckRandom<float>(); }
TEST(AtomicRandom, Int8) { CheckRandom<std::int8_t>(); }
TEST(AtomicRandom, Int16) { CheckRandom<std::int16_t>(); }
TEST(AtomicRandom, Int32) { CheckRandom<std::int32_t>(); }
TEST(AtomicRandom, Int64) { CheckRandom<std::int64_t>(); }

// The scatter form applies the updates in index order, duplicates included: the same as folding
// the model over the updates one by one.
template <typename T>
void CheckScatter() {
  std::mt19937_64 rng(77);
  constexpr std::size_t kDst = 37, kN = 4000;
  const auto specials = Specials<T>();
  for (const RefOp op : {RefOp::kAdd, RefOp::kMax, RefOp::kMin}) {
    for (const bool saturate : {false, true}) {
      std::vector<T> dst(kDst), src(kN);
      std::vector<std::int64_t> index(kN);
      std::vector<std::uint64_t> want(kDst);
      for (std::size_t i = 0; i < kDst; ++i) want[i] = ToBits(dst[i] = FromBits<T>(specials[rng() % specials.size()]));
      for (std::size_t i = 0; i < kN; ++i) {
        index[i] = std::int64_t(rng() % kDst);
        src[i] = FromBits<T>(rng() % 3 ? rng() : specials[rng() % specials.size()]);
        want[index[i]] = ref::Apply(kRefType<T>, op, saturate, want[index[i]], ToBits(src[i]));
      }
      ASSERT_EQ(Call<T>(op, std::span<T>(dst), index, std::span<const T>(src), saturate ? Mode::kSaturate : Mode::kIeee),
                Status::kOk);
      for (std::size_t i = 0; i < kDst; ++i) EXPECT_EQ(ToBits(dst[i]), want[i]) << "element " << i << " op " << int(op);
    }
  }
}

TEST(AtomicScatter, Float16) { CheckScatter<float16>(); }
TEST(AtomicScatter, BFloat16) { CheckScatter<bfloat16>(); }
TEST(AtomicScatter, Float32) { CheckScatter<float>(); }
TEST(AtomicScatter, Int8) { CheckScatter<std::int8_t>(); }
TEST(AtomicScatter, Int32) { CheckScatter<std::int32_t>(); }

// Errors: a Status naming the problem, and dst exactly as it was.
TEST(AtomicErrors, SizeMismatch) {
  std::vector<float> dst(8, 1.0f), src(7, 2.0f);
  std::vector<std::int64_t> index(8, 0);
  EXPECT_EQ(accelmath::atomic::add(std::span<float>(dst), std::span<const float>(src), Mode::kIeee), Status::kSizeMismatch);
  EXPECT_EQ(accelmath::atomic::max(std::span<float>(dst), index, std::span<const float>(src), Mode::kIeee),
            Status::kSizeMismatch);
  EXPECT_EQ(dst, std::vector<float>(8, 1.0f));
}

TEST(AtomicErrors, IndexOutOfRangeIsFoundBeforeAnyWrite) {
  for (const std::int64_t bad : {std::int64_t{8}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::min(),
                                 std::numeric_limits<std::int64_t>::max()}) {
    std::vector<std::int32_t> dst(8, 5);
    std::vector<std::int32_t> src(100, 1);
    std::vector<std::int64_t> index(100, 3);
    index.back() = bad;  // the last index is the bad one: the first 99 must not have been applied
    EXPECT_EQ(accelmath::atomic::add(std::span<std::int32_t>(dst), index, std::span<const std::int32_t>(src), Mode::kIeee),
              Status::kIndexOutOfRange);
    EXPECT_EQ(dst, std::vector<std::int32_t>(8, 5)) << bad;
  }
  std::vector<float16> empty;
  const std::vector<std::int64_t> zero{0};
  const std::vector<float16> one{{0x3C00}};
  EXPECT_EQ(accelmath::atomic::add(std::span<float16>(empty), zero, std::span<const float16>(one), Mode::kIeee),
            Status::kIndexOutOfRange);
}

TEST(AtomicErrors, MisalignedDestination) {
  alignas(8) unsigned char bytes[64] = {};
  // Only reachable by reinterpreting bytes: an int32 at an odd address, an int64 at a multiple of 4
  // that is not a multiple of 8, a float16 at an odd address.
  const std::span<std::int32_t> i32(reinterpret_cast<std::int32_t*>(bytes + 1), 4);
  const std::vector<std::int32_t> src32(4, 1);
  EXPECT_EQ(accelmath::atomic::add(i32, std::span<const std::int32_t>(src32), Mode::kIeee), Status::kMisaligned);
  const std::span<std::int64_t> i64(reinterpret_cast<std::int64_t*>(bytes + 4), 2);
  const std::vector<std::int64_t> src64(2, 1), index{0, 1};
  EXPECT_EQ(accelmath::atomic::max(i64, index, std::span<const std::int64_t>(src64), Mode::kIeee), Status::kMisaligned);
  const std::span<float16> f16(reinterpret_cast<float16*>(bytes + 3), 2);
  const std::vector<float16> src16(2, float16{0x3C00});
  EXPECT_EQ(accelmath::atomic::min(f16, std::span<const float16>(src16), Mode::kSaturate), Status::kMisaligned);
  for (unsigned char c : bytes) EXPECT_EQ(c, 0);
}

TEST(AtomicErrors, OverlapWithTheDestination) {
  std::vector<std::int64_t> buf{1, 2, 3, 4, 5, 6};
  const std::span<std::int64_t> dst(buf.data(), 4);
  EXPECT_EQ(accelmath::atomic::add(dst, std::span<const std::int64_t>(buf.data() + 2, 4), Mode::kIeee), Status::kOverlap);
  EXPECT_EQ(accelmath::atomic::add(dst, std::span<const std::int64_t>(buf.data(), 4), Mode::kIeee), Status::kOverlap);
  // The index array inside dst (int64 destination), and src inside dst.
  const std::vector<std::int64_t> src{7, 7};
  EXPECT_EQ(accelmath::atomic::add(dst, std::span<const std::int64_t>(buf.data() + 1, 2), std::span<const std::int64_t>(src),
                                   Mode::kIeee),
            Status::kOverlap);
  const std::vector<std::int64_t> index{0, 1};
  EXPECT_EQ(accelmath::atomic::add(dst, index, std::span<const std::int64_t>(buf.data() + 3, 2), Mode::kIeee), Status::kOverlap);
  EXPECT_EQ(buf, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}));
  // Adjacent arrays are fine: index right after dst, then src right after dst.
  buf[4] = 0, buf[5] = 1;
  EXPECT_EQ(accelmath::atomic::add(dst, std::span<const std::int64_t>(buf.data() + 4, 2), std::span<const std::int64_t>(src),
                                   Mode::kIeee),
            Status::kOk);
  EXPECT_EQ(accelmath::atomic::add(std::span<std::int64_t>(buf.data(), 2), std::span<const std::int64_t>(buf.data() + 2, 2), Mode::kIeee),
            Status::kOk);
  EXPECT_EQ(buf, (std::vector<std::int64_t>{11, 13, 3, 4, 0, 1}));
}

TEST(AtomicErrors, UnknownMode) {
  std::vector<bfloat16> dst(3, bfloat16{0x3F80});
  const std::vector<bfloat16> src(3, bfloat16{0x3F80});
  EXPECT_EQ(accelmath::atomic::add(std::span<bfloat16>(dst), std::span<const bfloat16>(src), static_cast<Mode>(2)),
            Status::kInvalidArgument);
  EXPECT_EQ(dst, src);
}

TEST(AtomicErrors, EmptyCallsSucceed) {
  std::vector<float> dst;
  EXPECT_EQ(accelmath::atomic::add(std::span<float>(dst), std::span<const float>(), Mode::kIeee), Status::kOk);
  std::vector<float> one{1.0f};
  EXPECT_EQ(accelmath::atomic::add(std::span<float>(one), std::span<const std::int64_t>(), std::span<const float>(), Mode::kIeee),
            Status::kOk);
  EXPECT_EQ(one[0], 1.0f);
}

// The public conversions: float16 against the compiler's own (NativeHalf, tests/test_util.h:
// libgcc's soft-float on x86-64, FCVT on AArch64; an independent implementation), exhaustively one
// way and on 2^24 random floats the other; bfloat16 checked by the definition of nearest-even on
// every float exponent.
TEST(AtomicTypes, Float16Conversions) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = accelmath::to_float(float16{std::uint16_t(h)});
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f), std::bit_cast<std::uint32_t>(float(std::bit_cast<accelmath::test::NativeHalf>(std::uint16_t(h)))))
        << h;
  }
  std::mt19937 rng(5);
  for (int i = 0; i < (1 << 24); ++i) {
    const std::uint32_t x = rng();
    const float f = std::bit_cast<float>(x);
    if (f != f) continue;  // NaN payload rules differ by design (documented in types.h)
    const std::uint16_t want = std::bit_cast<std::uint16_t>(accelmath::test::NativeHalf(f));
    if (accelmath::to_float16(f).bits != want) {
      ADD_FAILURE() << std::hex << x;
      break;
    }
  }
  EXPECT_EQ(accelmath::to_float16(std::bit_cast<float>(0x7FC00000u)).bits, 0x7E00);
  EXPECT_EQ(accelmath::to_float16(std::bit_cast<float>(0xFF800001u)).bits, 0xFE00);
}

TEST(AtomicTypes, BFloat16Conversions) {
  std::mt19937 rng(6);
  for (int i = 0; i < (1 << 22); ++i) {
    const float f = std::bit_cast<float>(std::uint32_t(rng()));
    if (f != f || std::isinf(f)) continue;
    const std::uint16_t got = accelmath::to_bfloat16(f).bits;
    // The two bfloat16 neighbours of f, by truncation; the nearer wins, ties to the even one.
    const std::uint16_t down = std::bit_cast<std::uint32_t>(f) >> 16, up = std::uint16_t(down + 1);
    auto value = [](std::uint16_t b) {  // the pattern above MAX stands for 2^128 (unbounded exponent)
      return (b & 0x7FFF) == 0x7F80 ? std::copysign(0x1p128, double(accelmath::to_float(bfloat16{b})))
                                    : double(accelmath::to_float(bfloat16{b}));
    };
    const double d_down = std::fabs(double(f) - value(down)), d_up = std::fabs(value(up) - double(f));
    const std::uint16_t want = d_down < d_up ? down : d_up < d_down ? up : (down & 1 ? up : down);
    if (got != want) {
      ADD_FAILURE() << std::hex << std::bit_cast<std::uint32_t>(f) << " got " << got << " want " << want;
      break;
    }
  }
  EXPECT_EQ(accelmath::to_bfloat16(0x1.FFFFFEp127f).bits, 0x7F80);  // above MAX + half an ulp: inf
  EXPECT_EQ(accelmath::to_bfloat16(std::bit_cast<float>(0x7F800001u)).bits, 0x7FC0);
}

}  // namespace
