// Every function of the registry (accelmath/ops.def) through its three entry points (array, per
// element, C ABI): the row's special values bit for bit, the C ABI's name and behaviour, and the
// registry's consistency with the oracle rows (tools/accuracy/oracles.def). The sampled accuracy
// check of every function is the CTest `sweep_sample_all` (`accelmath sweep --all --sample`).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "accelmath/c_api.h"
#include "accelmath/registry.h"
#include "accuracy/oracle.h"
#include "accuracy/sweep.h"
#include "test_util.h"

namespace {

using accelmath::Status;
using accelmath::test::Bits;

// NaN results need only be NaN; everything else, signed zeros included, bit for bit.
bool SameResult(float got, float want) { return std::isnan(want) ? std::isnan(got) : Bits(got) == Bits(want); }

TEST(Functions, SpecialValuesOnEveryEntryPoint) {
  for (const auto& f : accelmath::functions()) {
    SCOPED_TRACE(f.name);
    ASSERT_FALSE(f.specials.empty()) << "a row without special cases";
    std::vector<float> in, in2, want1, want2;  // in2: the second input of a two-input row
    for (const auto& s : f.specials) in.push_back(s.in), in2.push_back(s.in2), want1.push_back(s.out), want2.push_back(s.out2);
    // Repeat the list so that every case also lands in every lane position of a vector.
    const std::size_t k = in.size();
    for (std::size_t r = 1; r < 17; ++r) {
      for (std::size_t i = 0; i < k; ++i) {
        const std::size_t j = (i + r) % k;
        in.push_back(in[j]), in2.push_back(in2[j]), want1.push_back(want1[j]), want2.push_back(want2[j]);
      }
    }
    const std::size_t n = in.size();
    std::vector<float> array1(n), array2(n), c_abi1(n), c_abi2(n);
    ASSERT_EQ(f.run(array1, array2, in, in2, n), Status::kOk);
    ASSERT_EQ(f.run_c_abi(c_abi1.data(), c_abi2.data(), in.data(), in2.data(), n), 0);
    for (std::size_t i = 0; i < n; ++i) {
      float s1 = 0, s2 = 0;
      f.run_scalar(in[i], in2[i], &s1, &s2);
      const std::string args = f.inputs() == 2 ? std::to_string(in[i]) + ", " + std::to_string(in2[i]) : std::to_string(in[i]);
      for (int j = 0; j < f.outputs(); ++j) {
        const float want = j == 0 ? want1[i] : want2[i];
        const float array = j == 0 ? array1[i] : array2[i], scalar = j == 0 ? s1 : s2, c_abi = j == 0 ? c_abi1[i] : c_abi2[i];
        SCOPED_TRACE("result " + std::to_string(j + 1) + " of " + std::to_string(f.outputs()));
        EXPECT_TRUE(SameResult(array, want)) << f.name << "(" << args << "): array " << array << ", want " << want;
        EXPECT_TRUE(SameResult(scalar, want)) << f.name << "(" << args << "): scalar " << scalar << ", want " << want;
        EXPECT_TRUE(SameResult(c_abi, want)) << f.name << "(" << args << "): C ABI " << c_abi << ", want " << want;
      }
    }
  }
}

// A row with two results equals its two one-output functions bit for bit (the oracle row names
// them), on every float of [1, 2), its negatives, and a random sample with edge cases.
TEST(Functions, PairsAreBitIdenticalToTheirParts) {
  std::vector<float> in = accelmath::sweep::sample(1 << 18, 5);
  for (std::uint32_t i = 0; i < (1u << 23); i += 3) {
    in.push_back(accelmath::test::FromBits(0x3F800000u + i));
    in.push_back(-in.back());
  }
  int pairs = 0;
  for (const auto& f : accelmath::functions()) {
    if (f.outputs() != 2) continue;
    ++pairs;
    const auto* o = accelmath::oracle::find_oracle(f.name);
    ASSERT_NE(o, nullptr);
    const auto *p1 = accelmath::find_function(o->part1), *p2 = accelmath::find_function(o->part2);
    ASSERT_TRUE(p1 && p2) << f.name;
    std::vector<float> y1(in.size()), y2(in.size()), z1(in.size()), z2(in.size());
    ASSERT_EQ(f.run(y1, y2, in, in, in.size()), Status::kOk);
    ASSERT_EQ(p1->array(z1, in, in.size()), Status::kOk);
    ASSERT_EQ(p2->array(z2, in, in.size()), Status::kOk);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < in.size(); ++i) bad += Bits(y1[i]) != Bits(z1[i]) || Bits(y2[i]) != Bits(z2[i]);
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
    void* const want = f.c_abi ? reinterpret_cast<void*>(f.c_abi)
                       : f.c_abi2 ? reinterpret_cast<void*>(f.c_abi2)
                                  : reinterpret_cast<void*>(f.c_abi_binary);
    EXPECT_EQ(p, want) << symbol;
    EXPECT_NE(p, nullptr) << symbol;
  }
  // Return codes: partial overlap is 2, nothing written.
  float buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(accelmath_exp_f32(buf + 1, buf, 4), 2);
  EXPECT_EQ(buf[1], 2.0f);
  EXPECT_EQ(accelmath_exp_f32(buf, buf, 0), 0);
}

TEST(Functions, RegistryAndOraclesAgree) {
  std::set<std::string> names;
  for (const auto& f : accelmath::functions()) {
    EXPECT_TRUE(names.insert(f.name).second) << "duplicate row " << f.name;
    EXPECT_NE(accelmath::oracle::find_oracle(f.name), nullptr) << "no oracle row for " << f.name;
    EXPECT_EQ(accelmath::find_function(f.name), &f);
    EXPECT_GE(f.bound_ulp, 0.5) << f.name;
    EXPECT_TRUE(std::string(f.driver) == "Map" || std::string(f.driver) == "Split") << f.name;
    // Exactly the entry points of its shape.
    const bool unary = f.shape == accelmath::Shape::kUnary, pair = f.shape == accelmath::Shape::kUnaryPair,
               binary = f.shape == accelmath::Shape::kBinary;
    EXPECT_EQ(unary + pair + binary, 1) << f.name;
    EXPECT_EQ(f.array && f.scalar && f.c_abi, unary) << f.name;
    EXPECT_EQ(f.array2 && f.scalar2 && f.c_abi2, pair) << f.name;
    EXPECT_EQ(f.array_binary && f.scalar_binary && f.c_abi_binary, binary) << f.name;
    EXPECT_EQ((f.array != nullptr) + (f.array2 != nullptr) + (f.array_binary != nullptr), 1) << f.name;
    EXPECT_EQ(f.inputs(), binary ? 2 : 1) << f.name;
    EXPECT_EQ(f.outputs(), pair ? 2 : 1) << f.name;
    const auto* o = accelmath::oracle::find_oracle(f.name);
    if (o && pair) {  // its parts are one-output rows, and it promises what they promise
      const auto *p1 = accelmath::find_function(o->part1 ? o->part1 : ""), *p2 = accelmath::find_function(o->part2 ? o->part2 : "");
      ASSERT_TRUE(p1 && p2) << f.name;
      EXPECT_EQ(p1->outputs() + p2->outputs(), 2) << f.name;
      EXPECT_EQ(p1->inputs() + p2->inputs(), 2) << f.name;
      EXPECT_EQ(f.bound_ulp, std::max(p1->bound_ulp, p2->bound_ulp)) << f.name;
    } else if (o && binary) {  // tiers of two inputs
      EXPECT_TRUE(o->fast2 && o->exact2 && !o->fast && !o->exact && !o->part1) << f.name;
    } else if (o) {
      EXPECT_TRUE(o->fast && o->exact && !o->fast2 && !o->exact2 && !o->part1) << f.name;
    }
  }
  for (const auto& o : accelmath::oracle::oracles()) {
    EXPECT_NE(accelmath::find_function(o.name), nullptr) << "oracle row without a function: " << o.name;
  }
  EXPECT_EQ(accelmath::find_function("no_such_function"), nullptr);
}

TEST(Functions, ScalarMatchesArrayOnEveryFloatOfOneBinadeAndItsNegatives) {
  // A dense check beside the sampled target test: all 2^23 floats of [1, 2) and of [-2, -1).
  std::vector<float> in(1 << 24), out(in.size());
  for (std::uint32_t i = 0; i < (1u << 23); ++i) {
    in[i] = accelmath::test::FromBits(0x3F800000u + i);
    in[i + (1u << 23)] = -in[i];
  }
  // A two-input row: each of them against the reversed list (every sign pairing, ratios near 1 to 4).
  const std::vector<float> in2(in.rbegin(), in.rend());
  std::vector<float> out2(in.size());
  for (const auto& f : accelmath::functions()) {
    ASSERT_EQ(f.run(out, out2, in, in2, in.size()), Status::kOk);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < in.size(); i += 7) {
      float s1 = 0, s2 = 0;
      f.run_scalar(in[i], in2[i], &s1, &s2);
      bad += Bits(out[i]) != Bits(s1) || (f.outputs() == 2 && Bits(out2[i]) != Bits(s2));
    }
    EXPECT_EQ(bad, 0u) << f.name;
  }
}

}  // namespace
