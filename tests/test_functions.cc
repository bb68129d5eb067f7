// Every function of the registry (accelmath/ops.def) through its three entry points (array, per
// element, C ABI), whatever its shape: the row's special values bit for bit, the C ABI's name and
// behaviour, the shapes' operand descriptions, the SumOfSquares driver's documented order, and the
// registry's consistency with the oracle rows (tools/accuracy/oracles.def). The sampled accuracy
// check of every function is the CTest `sweep_sample_all` (`accelmath sweep --all --sample`).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "accelmath/c_api.h"
#include "accelmath/registry.h"
#include "accuracy/oracle.h"
#include "shape_test_util.h"
#include "test_util.h"

namespace {

using accelmath::ElementType;
using accelmath::Shape;
using accelmath::Status;
using accelmath::test::Bits;
using accelmath::test::Operands;

// A float result: NaN results need only be NaN; everything else, signed zeros included, bit for
// bit. An int32 or uint8 result: equal.
bool SameResult(const accelmath::test::Buffer& got, const accelmath::test::Buffer& want, std::size_t j) {
  if (want.type() == ElementType::kF32 && std::isnan(want.f(j))) return std::isnan(got.f(j));
  return got.bits(j) == want.bits(j);
}

TEST(Functions, SpecialValuesOnEveryEntryPoint) {
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    ASSERT_FALSE(f.specials.empty()) << "a row without special cases";
    auto c = accelmath::test::SpecialArrays(f);
    Operands array = c.in.Fresh(), scalar = c.in.Fresh(), c_abi = c.in.Fresh();
    ASSERT_EQ(array.Run(), Status::kOk);
    ASSERT_EQ(c_abi.RunCAbi(), 0);
    scalar.RunScalar();
    // Each failing case is reported once per entry point (at its first failing position), then counted.
    std::size_t bad[3] = {0, 0, 0};
    const std::size_t cases = f.specials.size();
    std::vector<bool> reported(3 * cases, false);
    for (std::size_t j = 0; j < c.want.count; ++j) {
      const std::size_t which = (j % cases + j / cases) % cases;  // SpecialArrays' rotation
      for (std::size_t k = 0; k < c.want.out.size(); ++k) {
        const auto& want = c.want.out[k];
        const Operands* got[3] = {&array, &scalar, &c_abi};
        const char* path[3] = {"array", "scalar", "C ABI"};
        for (int p = 0; p < 3; ++p) {
          if (SameResult(got[p]->out[k], want, j)) continue;
          ++bad[p];
          if (!reported[3 * which + p]) {
            reported[3 * which + p] = true;
            ADD_FAILURE() << f.name << c.want.Describe(j) << " result " << k + 1 << ": " << path[p] << " 0x" << std::hex
                          << got[p]->out[k].bits(j) << ", want 0x" << want.bits(j);
          }
        }
      }
    }
    EXPECT_EQ(bad[0] + bad[1] + bad[2], 0u) << f.name << ": array, scalar, C ABI mismatches " << bad[0] << ", " << bad[1]
                                           << ", " << bad[2];
  }
}

// The operand description of each shape, as docs/engine.md and include/accelmath/math.h state it
// (written out here, not derived from the library's table), and each row's constraints.
TEST(Functions, ShapesDescribeTheirOperands) {
  using E = ElementType;
  struct Want {
    Shape shape;
    std::vector<E> in, out;
  };
  const E f = E::kF32, i = E::kI32, u = E::kU8;
  const std::vector<Want> wants = {{Shape::kUnary, {f}, {f}},           {Shape::kUnaryPair, {f}, {f, f}},
                                   {Shape::kBinary, {f, f}, {f}},       {Shape::kTernary, {f, f, f}, {f}},
                                   {Shape::kQuaternary, {f, f, f, f}, {f}}, {Shape::kToInt32, {f}, {i}},
                                   {Shape::kPredicate, {f}, {u}},       {Shape::kSplitExponent, {f}, {f, i}},
                                   {Shape::kScaleExponent, {f, i}, {f}}, {Shape::kRows, {f}, {f}}};
  std::set<Shape> seen;
  for (const auto& fn : accelmath::functions()) {
    SCOPED_TRACE(fn.name);
    seen.insert(fn.shape);
    const auto w = std::find_if(wants.begin(), wants.end(), [&](const Want& x) { return x.shape == fn.shape; });
    ASSERT_NE(w, wants.end());
    ASSERT_EQ(fn.inputs(), int(w->in.size()));
    ASSERT_EQ(fn.outputs(), int(w->out.size()));
    for (int k = 0; k < fn.inputs(); ++k) EXPECT_EQ(fn.input_type(k), w->in[k]) << "input " << k;
    for (int k = 0; k < fn.outputs(); ++k) EXPECT_EQ(fn.output_type(k), w->out[k]) << "output " << k;
    const std::string driver = fn.driver;
    EXPECT_EQ(driver == "SumOfSquares", fn.shape == Shape::kRows);
    EXPECT_TRUE(driver == "Map" || driver == "SumOfSquares" || (driver == "Split" && fn.shape == Shape::kUnary));
    // The shapes that convert to or from integers evaluate in binary64 lanes (exact for every
    // int32), a Predicate's mask in float32 lanes.
    if (fn.shape == Shape::kToInt32 || fn.shape == Shape::kSplitExponent || fn.shape == Shape::kScaleExponent ||
        fn.shape == Shape::kRows) {
      EXPECT_EQ(fn.eval, accelmath::Eval::kF64);
    }
    if (fn.shape == Shape::kPredicate) {
      EXPECT_EQ(fn.eval, accelmath::Eval::kF32);
    }
  }
  EXPECT_EQ(seen.size(), wants.size()) << "a shape without a row: its tests check nothing";
}

// A row with two results equals its two one-output functions bit for bit (the oracle row names
// them), on every float of [1, 2), its negatives, and random inputs of every class.
TEST(Functions, PairsAreBitIdenticalToTheirParts) {
  int pairs = 0;
  for (const auto& f : accelmath::functions()) {
    if (f.shape != Shape::kUnaryPair) continue;
    ++pairs;
    const auto* o = accelmath::oracle::find_oracle(f.name);
    ASSERT_NE(o, nullptr);
    const auto *p1 = accelmath::find_function(o->part1 ? o->part1 : ""), *p2 = accelmath::find_function(o->part2 ? o->part2 : "");
    ASSERT_TRUE(p1 && p2) << f.name;
    Operands pair = accelmath::test::RandomOperands(f, (1 << 18) + (1 << 23), 5);
    for (std::uint32_t i = 0; i < (1u << 23); ++i) pair.in[0].set_bits((1 << 18) + i, 0x3F800000u + i + (i % 2 ? 0x80000000u : 0));
    ASSERT_EQ(pair.Run(), Status::kOk);
    Operands part1(*p1, pair.count), part2(*p2, pair.count);
    part1.in = part2.in = pair.in;
    ASSERT_EQ(part1.Run(), Status::kOk);
    ASSERT_EQ(part2.Run(), Status::kOk);
    std::size_t bad = 0;
    for (std::size_t j = 0; j < pair.count; ++j) bad += pair.out[0].bits(j) != part1.out[0].bits(j) || pair.out[1].bits(j) != part2.out[0].bits(j);
    EXPECT_EQ(bad, 0u) << f.name << " vs " << p1->name << ", " << p2->name;
  }
  EXPECT_GE(pairs, 1) << "no UnaryPair row: this test checks nothing";
}

TEST(Functions, CAbiIsExportedUnderItsDocumentedName) {
  void* self = dlopen(nullptr, RTLD_NOW);
  ASSERT_NE(self, nullptr);
  for (const auto& f : accelmath::functions()) {
    const std::string symbol = std::string("accelmath_") + f.name + "_f32";
    void* p = dlsym(self, symbol.c_str());
    EXPECT_NE(p, nullptr) << symbol;
    EXPECT_EQ(p, f.entries_.c_symbol()) << symbol;
  }
  // Return codes: partial overlap is 2, nothing written.
  float buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(accelmath_exp_f32(buf + 1, buf, 4), 2);
  EXPECT_EQ(buf[1], 2.0f);
  EXPECT_EQ(accelmath_exp_f32(buf, buf, 0), 0);
  // An int32 result over the float source it comes from: refused (only the same element type may be
  // in place), nothing written.
  EXPECT_EQ(accelmath_ilogb_f32(reinterpret_cast<std::int32_t*>(buf), buf, 4), 2);
  EXPECT_EQ(buf[0], 1.0f);
}

TEST(Functions, RegistryAndOraclesAgree) {
  std::set<std::string> names;
  for (const auto& f : accelmath::functions()) {
    EXPECT_TRUE(names.insert(f.name).second) << "duplicate row " << f.name;
    EXPECT_NE(accelmath::oracle::find_oracle(f.name), nullptr) << "no oracle row for " << f.name;
    EXPECT_EQ(accelmath::find_function(f.name), &f);
    EXPECT_GE(f.bound_ulp, 0.0) << f.name;
    EXPECT_TRUE(f.entries_.array && f.entries_.scalar && f.entries_.c_abi && f.entries_.c_symbol) << f.name;
    const auto* o = accelmath::oracle::find_oracle(f.name);
    if (o && f.shape == Shape::kUnaryPair) {  // its parts are one-output rows, and it promises what they promise
      const auto *p1 = accelmath::find_function(o->part1 ? o->part1 : ""), *p2 = accelmath::find_function(o->part2 ? o->part2 : "");
      ASSERT_TRUE(p1 && p2) << f.name;
      EXPECT_EQ(p1->shape, Shape::kUnary) << f.name;
      EXPECT_EQ(p2->shape, Shape::kUnary) << f.name;
      EXPECT_EQ(f.bound_ulp, std::max(p1->bound_ulp, p2->bound_ulp)) << f.name;
    }
  }
  for (const auto& o : accelmath::oracle::oracles()) {
    EXPECT_NE(accelmath::find_function(o.name), nullptr) << "oracle row without a function: " << o.name;
  }
  EXPECT_EQ(accelmath::find_function("no_such_function"), nullptr);
}

// A dense check beside the sampled target test: all 2^23 floats of [1, 2) and of [-2, -1) as the
// first input; a second float input runs over the same list reversed (every sign pairing, ratios
// near 1 to 4), further ones over rotations of it; an int32 input over [-300, 300]. Rows: rows of 5.
TEST(Functions, ScalarMatchesArrayOnEveryFloatOfOneBinadeAndItsNegatives) {
  constexpr std::uint32_t kStride = accelmath::test::kEveryFloatStride, kHalf = (1u << 23) / kStride;
  std::vector<float> x(2 * kHalf);
  for (std::uint32_t i = 0; i < kHalf; ++i) {
    x[i] = accelmath::test::FromBits(0x3F800000u + i * kStride);
    x[i + kHalf] = -x[i];
  }
  for (const auto& f : accelmath::functions()) {
    const bool rows = f.shape == Shape::kRows;
    Operands o(f, rows ? x.size() / 5 : x.size(), rows ? 5 : 0);
    const std::size_t n = o.in[0].size();
    for (std::size_t k = 0; k < o.in.size(); ++k) {
      for (std::size_t j = 0; j < n; ++j) {
        if (o.in[k].type() == ElementType::kI32) {
          o.in[k].set(j, {0.0f, std::int32_t(j % 601) - 300});
        } else {
          o.in[k].set(j, {k == 0 ? x[j] : x[(x.size() - 1 - j + (k - 1) * 4099) % x.size()], 0});
        }
      }
    }
    ASSERT_EQ(o.Run(), Status::kOk) << f.name;
    std::size_t bad = 0;
    for (std::size_t j = 0; j < o.count; j += 7) {
      std::uint32_t s[2] = {0, 0};  // the per-element results (each at most 4 bytes)
      void* out[2] = {&s[0], &s[1]};
      const void* in[4];
      for (std::size_t k = 0; k < o.in.size(); ++k) {
        in[k] = static_cast<const unsigned char*>(o.in[k].data()) + j * (rows ? 5 : 1) * o.in[k].elem();
      }
      f.run_scalar(out, in, o.row_length);
      for (std::size_t k = 0; k < o.out.size(); ++k) bad += o.out[k].bits(j) != s[k];
    }
    EXPECT_EQ(bad, 0u) << f.name;
  }
}

// Arrays of 2^20 elements and more take the drivers' software-prefetch path (drivers/map-inl.h,
// kPrefetchMin; the split driver too); it must give the same bits as the per-element function, up to
// the last element (where the prefetches stop short of the end). Every row but Rows, random inputs.
TEST(Functions, LargeArraysTakeThePrefetchPathWithTheSameBits) {
  constexpr std::size_t kN = (std::size_t{1} << 20) + 45;
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  std::uniform_int_distribution<std::int32_t> ni(-300, 300);
  for (const auto& f : accelmath::functions()) {
    if (f.shape == Shape::kRows) continue;
    Operands o(f, kN, 0);
    for (std::size_t k = 0; k < o.in.size(); ++k) {
      for (std::size_t j = 0; j < kN; ++j) {
        if (o.in[k].type() == ElementType::kI32) {
          o.in[k].set(j, {0.0f, ni(rng)});
        } else {
          o.in[k].set(j, {u(rng), 0});
        }
      }
    }
    ASSERT_EQ(o.Run(), Status::kOk) << f.name;
    std::size_t bad = 0, checked = 0;
    for (std::size_t j = 0; j < kN; j += (j + 2048 < kN ? 61 : 1)) {
      std::uint32_t s[2] = {0, 0};
      void* out[2] = {&s[0], &s[1]};
      const void* in[4];
      for (std::size_t k = 0; k < o.in.size(); ++k) {
        in[k] = static_cast<const unsigned char*>(o.in[k].data()) + j * o.in[k].elem();
      }
      f.run_scalar(out, in, 0);
      for (std::size_t k = 0; k < o.out.size(); ++k) bad += o.out[k].bits(j) != s[k];
      ++checked;
    }
    EXPECT_EQ(bad, 0u) << f.name;
    EXPECT_GT(checked, kN / 61) << f.name;
  }
}

// The SumOfSquares driver's documented order (drivers/sum_tree.h), checked through norm, whose
// kernel is sqrt of the sum in binary64 rounded once: element j goes into partial j % 16 by fma, the
// partials combine as p[i] + p[i + 8], then + 4, + 2, + 1; an infinite element wins over a NaN; an
// empty row is +0. A float32 result hides the order of a sum of positive terms (it changes the sum
// by a few binary64 ulp) except where sqrt(s) is a float32 tie: the crafted rows below sum exactly to
// t^2, t = 1.5 + 2^-24 halfway between 1.5 and its successor (s in [2, 4), where one binary64 ulp of
// s, 2^-51, survives the square root), plus tiny squares of half an ulp (2^-52) that the documented
// order keeps (two of them meet first) or drops (one meets 2.25 first: a tie, to even), so that other
// orders round the other way. The test checks that the other orders it knows (one partial, 8
// partials, an adjacent-pairs tree) do differ on them.
double SumInOrder(const std::vector<float>& row, int partials, bool adjacent_tree) {
  double p[16] = {};
  for (std::size_t j = 0; j < row.size(); ++j) p[j % partials] = std::fma(double(row[j]), double(row[j]), p[j % partials]);
  for (int w = 8; w >= 1; w /= 2) {
    for (int i = 0; i < w; ++i) p[i] = adjacent_tree ? p[2 * i] + p[2 * i + 1] : p[i] + p[i + w];
  }
  return p[0];
}

TEST(Functions, RowsSumInTheDocumentedOrder) {
  const auto* norm = accelmath::find_function("norm");
  ASSERT_NE(norm, nullptr);
  std::vector<std::vector<float>> rows;
  // The tie rows, scaled by 2^k (exact: the squares scale by 2^2k). The base row: 1.5, three of
  // 2^-12 and 2^-24 (positions 0, 2, 3, 5, 6) sum to t^2 exactly. `up`: tiny (2^-26, square 2^-52)
  // at 8 and 24 make partial 8 2^-51, which joins 2.25 exactly: the sum exceeds t^2 and rounds up
  // (one partial or 8 partials add them to 2.25's partial one by one, each a tie lost to even).
  // `tree` (also cut to 16 and 10 elements): tiny at 1 and 9 meet each other first in the
  // documented tree (p[1] + p[9]) and are kept; an adjacent-pairs tree adds p[1] to 2.25 first, and
  // p[9] to the sum last: both lost.
  for (int k : {0, -40, 37, -70, 60}) {
    const float big = std::ldexp(1.5f, k), a = std::ldexp(1.0f, k - 12), b = std::ldexp(1.0f, k - 24),
                tiny = std::ldexp(1.0f, k - 26);
    std::vector<float> base(40, 0.0f);
    base[0] = big, base[2] = a, base[3] = a, base[5] = a, base[6] = b;
    std::vector<float> up = base, tree = base;
    up[8] = tiny, up[24] = -tiny;
    tree[1] = tiny, tree[9] = tiny;
    rows.push_back(base), rows.push_back(up), rows.push_back(tree);
    // Rows of at most 16 elements take another loop (one row per lane): the same tree there.
    rows.emplace_back(tree.begin(), tree.begin() + 16), rows.emplace_back(tree.begin(), tree.begin() + 10);
  }
  int sensitive = 0;
  for (const auto& row : rows) {
    const float want = float(std::sqrt(SumInOrder(row, 16, false)));
    sensitive += want != float(std::sqrt(SumInOrder(row, 1, false))) || want != float(std::sqrt(SumInOrder(row, 8, false))) ||
                 want != float(std::sqrt(SumInOrder(row, 16, true)));
  }
  EXPECT_EQ(sensitive, 20) << "the tie rows no longer tell the orders apart";
  // Random rows of every length around the 16 partials, magnitudes 2^-30 .. 2^30.
  std::mt19937_64 g(3);
  for (std::size_t n : {0u, 1u, 2u, 3u, 7u, 15u, 16u, 17u, 31u, 32u, 33u, 47u, 100u, 1000u}) {
    for (int r = 0; r < 8; ++r) {
      std::vector<float> row(n);
      for (float& x : row) x = std::ldexp(std::uniform_real_distribution<float>(-1.0f, 1.0f)(g), int(g() % 60) - 30);
      rows.push_back(row);
    }
  }
  // Rows of several lengths are separate calls; each goes in the middle of a batch of 37 copies
  // of itself with other rows' neighbours, so lanes of every position see it.
  std::size_t bad = 0;
  for (const auto& row : rows) {
    const std::size_t n = row.size(), count = 37;
    Operands o(*norm, count, n);
    for (std::size_t r = 0; r < count; ++r) {
      for (std::size_t j = 0; j < n; ++j) o.in[0].set(r * n + j, {r % 3 == 0 ? row[j] : row[(j + r) % n], 0});
    }
    ASSERT_EQ(o.Run(), Status::kOk);
    Operands s = o.Fresh();
    s.RunScalar();
    for (std::size_t r = 0; r < count; r += 3) {
      const float want = float(std::sqrt(SumInOrder(row, 16, false)));
      for (const Operands* got : {&o, &s}) {
        if (Bits(got->out[0].f(r)) != Bits(want) && ++bad <= 10) {
          ADD_FAILURE() << o.Describe(r) << ": " << (got == &o ? "array " : "scalar ") << got->out[0].f(r) << ", want " << want;
        }
      }
    }
  }
  EXPECT_EQ(bad, 0u);
  // An infinite element wins over a NaN, wherever each is; a NaN alone gives NaN.
  for (std::size_t n : {2u, 5u, 17u, 40u}) {
    Operands o(*norm, 3 * n, n);
    for (std::size_t r = 0; r < 3 * n; ++r) {
      for (std::size_t j = 0; j < n; ++j) o.in[0].set(r * n + j, {1.0f, 0});
      o.in[0].set(r * n + r % n, {std::numeric_limits<float>::quiet_NaN(), 0});
      if (r >= n) o.in[0].set(r * n + (r * 7 + 1) % n, {r % 2 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity(), 0});
    }
    ASSERT_EQ(o.Run(), Status::kOk);
    for (std::size_t r = 0; r < 3 * n; ++r) {
      const bool has_inf = r >= n;  // (where the infinity took the NaN's place, there is no NaN left)
      if (has_inf) {
        EXPECT_EQ(o.out[0].f(r), std::numeric_limits<float>::infinity()) << o.Describe(r);
      } else {
        EXPECT_TRUE(std::isnan(o.out[0].f(r))) << o.Describe(r);
      }
    }
  }
}

}  // namespace
