// Every function of the registry (accelmath/ops.def) through its three entry points (array, per
// element, C ABI): the row's special values bit for bit, the C ABI's name and behaviour, and the
// registry's consistency with the oracle rows (tools/accuracy/oracles.def). The sampled accuracy
// check of every function is the CTest `sweep_sample_all` (`accelmath sweep --all --sample`).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "accelmath/c_api.h"
#include "accelmath/registry.h"
#include "accuracy/oracle.h"
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
    std::vector<float> in, want;
    for (const auto& s : f.specials) in.push_back(s.in), want.push_back(s.out);
    // Repeat the list so that every case also lands in every lane position of a vector.
    const std::size_t k = in.size();
    for (std::size_t r = 1; r < 17; ++r) {
      for (std::size_t i = 0; i < k; ++i) in.push_back(in[(i + r) % k]), want.push_back(want[(i + r) % k]);
    }
    std::vector<float> array(in.size()), c_abi(in.size());
    ASSERT_EQ(f.array(array, in, in.size()), Status::kOk);
    ASSERT_EQ(f.c_abi(c_abi.data(), in.data(), in.size()), 0);
    for (std::size_t i = 0; i < in.size(); ++i) {
      EXPECT_TRUE(SameResult(array[i], want[i])) << f.name << "(" << in[i] << "): array " << array[i] << ", want " << want[i];
      EXPECT_TRUE(SameResult(f.scalar(in[i]), want[i])) << f.name << "(" << in[i] << "): scalar " << f.scalar(in[i]);
      EXPECT_TRUE(SameResult(c_abi[i], want[i])) << f.name << "(" << in[i] << "): C ABI " << c_abi[i];
    }
  }
}

TEST(Functions, CAbiIsExportedUnderItsDocumentedName) {
  void* self = dlopen(nullptr, RTLD_NOW);
  ASSERT_NE(self, nullptr);
  for (const auto& f : accelmath::functions()) {
    const std::string symbol = std::string("accelmath_") + f.name + "_f32";
    void* p = dlsym(self, symbol.c_str());
    EXPECT_EQ(p, reinterpret_cast<void*>(f.c_abi)) << symbol;
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
  for (const auto& f : accelmath::functions()) {
    ASSERT_EQ(f.array(out, in, in.size()), Status::kOk);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < in.size(); i += 7) bad += Bits(out[i]) != Bits(f.scalar(in[i]));
    EXPECT_EQ(bad, 0u) << f.name;
  }
}

}  // namespace
