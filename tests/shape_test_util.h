// Test helpers for any registry row whatever its shape (accelmath/registry.h): operand arrays of
// every element type with canaries around them, inputs that mix every class of value across the
// lanes of each vector, and a row's special values laid out as arrays. Used by the generic tests
// (test_functions.cc, test_contract.cc, test_targets.cc, test_hostile_input.cc), which go through
// FunctionInfo's one signature, or the typed public functions (TypedArray), never naming a shape's
// functions.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/registry.h"
#include "test_util.h"

namespace accelmath::test {

using ET = ElementType;
using detail::ElementSize;

// ---- one operand array of any element type, with canary bytes on both sides ------------------------

// The canary element of each type: a NaN payload no kernel produces (float), an int32 no result can
// be (ilogb, frexp: small integers, INT_MIN, INT_MAX), a byte that is not 0 or 1 (uint8).
inline std::uint32_t CanaryBits(ET t) { return t == ET::kU8 ? 0xA5u : 0x7FA5A5A5u; }

class Buffer {
 public:
  static constexpr std::size_t kGuardBytes = 64;
  Buffer() = default;
  // n elements of type t, every element (and the guards) the canary.
  Buffer(ET t, std::size_t n) : type_(t), n_(n), bytes_(n * ElementSize(t) + 2 * kGuardBytes, 0) {
    FillCanary();
  }
  ET type() const { return type_; }
  std::size_t size() const { return n_; }
  std::size_t elem() const { return ElementSize(type_); }
  void* data() { return bytes_.data() + kGuardBytes; }
  const void* data() const { return bytes_.data() + kGuardBytes; }
  // The bits of element i (a float's or an int32's 32 bits, a byte's 8).
  std::uint32_t bits(std::size_t i) const {
    std::uint32_t b = 0;
    std::memcpy(&b, static_cast<const unsigned char*>(data()) + i * elem(), elem());
    return b;
  }
  void set_bits(std::size_t i, std::uint32_t b) { std::memcpy(static_cast<unsigned char*>(data()) + i * elem(), &b, elem()); }
  float f(std::size_t i) const { return FromBits(bits(i)); }
  std::int32_t i32(std::size_t i) const { return static_cast<std::int32_t>(bits(i)); }
  void set(std::size_t i, Value v) { set_bits(i, type_ == ET::kF32 ? Bits(v.f) : static_cast<std::uint32_t>(v.i)); }
  bool written(std::size_t i) const { return bits(i) != CanaryBits(type_); }
  void FillCanary() {
    for (std::size_t i = 0; i < bytes_.size(); i += 4) {
      const std::uint32_t c = type_ == ET::kU8 ? 0xA5A5A5A5u : 0x7FA5A5A5u;
      std::memcpy(bytes_.data() + i, &c, std::min<std::size_t>(4, bytes_.size() - i));
    }
  }
  bool GuardsIntact() const {
    const Buffer fresh(type_, n_);
    return std::memcmp(bytes_.data(), fresh.bytes_.data(), kGuardBytes) == 0 &&
           std::memcmp(bytes_.data() + bytes_.size() - kGuardBytes, fresh.bytes_.data() + bytes_.size() - kGuardBytes,
                       kGuardBytes) == 0;
  }
  const std::vector<unsigned char>& raw() const { return bytes_; }
  template <typename T>
  std::span<T> span() {
    return {static_cast<T*>(data()), n_};
  }

 private:
  ET type_ = ET::kF32;
  std::size_t n_ = 0;
  std::vector<unsigned char> bytes_;
};

// The operand arrays of one call of row f: inputs (count elements, or count rows of row_length
// floats for Rows) and outputs (count elements, canaries until written).
struct Operands {
  const FunctionInfo* f = nullptr;
  std::size_t count = 0, row_length = 0;
  std::vector<Buffer> in, out;
  Operands() = default;
  Operands(const FunctionInfo& fn, std::size_t n, std::size_t rl = 0) : f(&fn), count(n), row_length(rl) {
    const bool rows = fn.shape == Shape::kRows;
    for (int k = 0; k < fn.inputs(); ++k) in.emplace_back(fn.input_type(k), rows ? n * rl : n);
    for (int k = 0; k < fn.outputs(); ++k) out.emplace_back(fn.output_type(k), n);
  }
  std::vector<void*> outs() {
    std::vector<void*> p;
    for (auto& b : out) p.push_back(b.data());
    return p;
  }
  std::vector<const void*> ins() const {
    std::vector<const void*> p;
    for (const auto& b : in) p.push_back(b.data());
    return p;
  }
  // Fresh outputs (canaries), same inputs.
  Operands Fresh() const {
    Operands o = *this;
    for (auto& b : o.out) b.FillCanary();
    return o;
  }
  Status Run() {
    auto o = outs();
    auto i = ins();
    return f->run(o.data(), i.data(), count, row_length);
  }
  int RunCAbi() {
    auto o = outs();
    auto i = ins();
    return f->run_c_abi(o.data(), i.data(), count, row_length);
  }
  // The per-element function for element j, into this object's outputs.
  void RunScalarAt(std::size_t j) {
    void* o[2];
    const void* i[4];
    for (std::size_t k = 0; k < out.size(); ++k) o[k] = static_cast<unsigned char*>(out[k].data()) + j * out[k].elem();
    const std::size_t step = f->shape == Shape::kRows ? row_length : 1;
    for (std::size_t k = 0; k < in.size(); ++k) i[k] = static_cast<const unsigned char*>(in[k].data()) + j * step * in[k].elem();
    f->run_scalar(o, i, row_length);
  }
  void RunScalar() {
    for (std::size_t j = 0; j < count; ++j) RunScalarAt(j);
  }
  // Element j's inputs, for messages: "(x1, x2)" with each value and its bits (a row: its first
  // elements and its length).
  std::string Describe(std::size_t j) const {
    std::string s = "(";
    const bool rows = f->shape == Shape::kRows;
    const std::size_t n = rows ? std::min<std::size_t>(row_length, 6) : in.size();
    for (std::size_t k = 0; k < n; ++k) {
      const Buffer& b = rows ? in[0] : in[k];
      const std::size_t at = rows ? j * row_length + k : j;
      char buf[64];
      if (b.type() == ET::kF32) {
        std::snprintf(buf, sizeof buf, "%s%.9g [0x%08x]", k ? ", " : "", b.f(at), b.bits(at));
      } else {
        std::snprintf(buf, sizeof buf, "%s%d", k ? ", " : "", b.i32(at));
      }
      s += buf;
    }
    if (rows && row_length > n) s += ", ...";
    if (rows) s += "; row of " + std::to_string(row_length);
    return s + ")";
  }
};

// Outputs equal bit for bit, element by element; reports (with ADD_FAILURE) the first `max_report`
// differences and returns how many elements differ.
inline std::size_t CompareOutputs(const Operands& got, const Operands& want, const std::string& what,
                                  std::size_t max_report = 8) {
  std::size_t bad = 0;
  for (std::size_t j = 0; j < want.count; ++j) {
    for (std::size_t k = 0; k < want.out.size(); ++k) {
      if (got.out[k].bits(j) != want.out[k].bits(j)) {
        if (++bad <= max_report) {
          ADD_FAILURE() << want.f->name << want.Describe(j) << " result " << k + 1 << ": " << what << " 0x" << std::hex
                        << got.out[k].bits(j) << ", want 0x" << want.out[k].bits(j) << std::dec;
        }
        break;
      }
    }
  }
  return bad;
}

// ---- inputs ----------------------------------------------------------------------------------------

inline std::vector<float> EdgeFloats() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f, 1.0f, 0.5f, 2.0f, 3.0f, 0.1f, 1e-30f, 1e30f, 0x1p-149f, 0x1p-148f, 0x1.fffffcp-127f,
                          0x1p-126f, 0x1.000002p-126f, 0x1.fffffep-1f, 0x1.000002p+0f, 0x1p+23f, 0x1.fffffep+22f,
                          0x1.fffffep+127f, 0x1p+127f, 0x1p-75f, 1.5f, 2.5f, 100.0f, 0x1p-24f, inf};
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  v.push_back(std::numeric_limits<float>::quiet_NaN());
  v.push_back(-std::numeric_limits<float>::quiet_NaN());
  v.push_back(FromBits(0x7F800001u));  // signaling NaN
  v.push_back(FromBits(0xFFC12345u));  // negative quiet NaN with a payload
  return v;
}

inline std::vector<std::int32_t> EdgeInts() {
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max(), kMin = std::numeric_limits<std::int32_t>::min();
  return {0, 1, -1, 2, -2, 10, -10, 126, -126, 127, -127, 128, -128, 149, -149, 150, -150, 151, -151, 252, -252,
          254, -254, 276, -276, 277, -277, 278, -278, 300, -300, 400, -400, 401, -401, 1000, -1000, kMax, kMin,
          kMax - 1, kMin + 1, 1 << 30, -(1 << 30)};
}

// A value of one of several classes, chosen at random per element so that the lanes of every
// vector mix them: random bit patterns (NaN payloads, subnormals, infinities included), moderate
// magnitudes, [-150, 150], values near 1, small integers and halves, subnormals, edge values.
inline float RandomFloat(std::mt19937_64& g) {
  std::uniform_int_distribution<std::uint32_t> bits;
  switch (g() % 10) {
    case 0:
    case 1: return FromBits(bits(g));
    case 2: return std::ldexp(std::uniform_real_distribution<float>(-1.0f, 1.0f)(g), int(g() % 61) - 30);
    case 3: return std::uniform_real_distribution<float>(-150.0f, 150.0f)(g);
    case 4: return std::uniform_real_distribution<float>(0.0f, 1.0f)(g);
    case 5: return FromBits(0x3F800000u + std::uint32_t(g() % 257) - 128u);  // 1 +- 128 ulp
    case 6: return float(int(g() % 201) - 100) / (g() % 2 ? 1.0f : 2.0f);
    case 7: return FromBits(std::uint32_t(g() % 0x00800000u) | (g() % 2 ? 0x80000000u : 0u));  // subnormal
    default: {
      static const std::vector<float> edges = EdgeFloats();
      return edges[g() % edges.size()];
    }
  }
}

inline std::int32_t RandomInt(std::mt19937_64& g) {
  switch (g() % 4) {
    case 0: return static_cast<std::int32_t>(static_cast<std::uint32_t>(g()));
    case 1: return int(g() % 601) - 300;
    case 2: return int(g() % 21) - 10;
    default: {
      static const std::vector<std::int32_t> edges = EdgeInts();
      return edges[g() % edges.size()];
    }
  }
}

// A Rows row of `n` floats: a scale shared by the row (so no element dwarfs the others), signs at
// random; sometimes zeros, a subnormal row, an infinity, a NaN (random payload), or both.
inline void RandomRow(std::mt19937_64& g, float* row, std::size_t n) {
  const int kind = int(g() % 16);
  const int e = int(g() % 280) - 150;
  for (std::size_t j = 0; j < n; ++j) {
    float x = std::ldexp(std::uniform_real_distribution<float>(0.5f, 1.0f)(g), e + int(g() % 5));
    if (kind == 0) x = 0.0f;
    if (kind == 1) x = FromBits(std::uint32_t(g() % 0x00800000u));
    if (kind == 2 && g() % 4 == 0) x = RandomFloat(g);
    row[j] = g() % 2 ? -x : x;
  }
  if (n == 0) return;
  const float inf = std::numeric_limits<float>::infinity();
  if (kind == 3 || kind == 5) row[g() % n] = g() % 2 ? inf : -inf;
  if (kind == 4 || kind == 5) row[g() % n] = FromBits((0x7F800001u + std::uint32_t(g() % 0x007FFFFFu)) | (g() % 2 ? 0x80000000u : 0u));
}

// Random inputs for `count` results of f (Rows: count rows of row_length), every element from
// RandomFloat / RandomInt; for several float inputs, one in eight elements of input k > 0 is within
// a few ulp of input 0's magnitude, any sign (atan2 and hypot near the diagonal, fmin/fmax/copysign
// of equal magnitudes).
inline Operands RandomOperands(const FunctionInfo& f, std::size_t count, std::uint64_t seed, std::size_t row_length = 0) {
  Operands o(f, count, row_length);
  std::mt19937_64 g(seed);
  if (f.shape == Shape::kRows) {
    std::vector<float> row(row_length);
    for (std::size_t r = 0; r < count; ++r) {
      RandomRow(g, row.data(), row_length);
      for (std::size_t j = 0; j < row_length; ++j) o.in[0].set(r * row_length + j, Value{row[j], 0});
    }
    return o;
  }
  for (std::size_t j = 0; j < count; ++j) {
    for (std::size_t k = 0; k < o.in.size(); ++k) {
      if (o.in[k].type() == ET::kI32) {
        o.in[k].set(j, Value{0.0f, RandomInt(g)});
      } else if (k > 0 && g() % 8 == 0) {
        const std::uint32_t b = (o.in[0].bits(j) & 0x7FFFFFFFu) + std::uint32_t(g() % 9) - 4u;
        o.in[k].set_bits(j, (b & 0x7FFFFFFFu) | (g() % 2 ? 0x80000000u : 0u));
      } else {
        o.in[k].set(j, Value{RandomFloat(g), 0});
      }
    }
  }
  return o;
}

// Elements [first, first + n) of o (inputs and outputs; Rows: those rows).
inline Operands Slice(const Operands& o, std::size_t first, std::size_t n) {
  Operands s(*o.f, n, o.row_length);
  const std::size_t step = o.f->shape == Shape::kRows ? o.row_length : 1;
  for (std::size_t k = 0; k < o.in.size(); ++k) {
    const std::size_t e = o.in[k].elem();
    std::memcpy(s.in[k].data(), static_cast<const unsigned char*>(o.in[k].data()) + first * step * e, n * step * e);
  }
  for (std::size_t k = 0; k < o.out.size(); ++k) {
    const std::size_t e = o.out[k].elem();
    std::memcpy(s.out[k].data(), static_cast<const unsigned char*>(o.out[k].data()) + first * e, n * e);
  }
  return s;
}

// a's elements then b's (the same row, and row length).
inline Operands Concat(const Operands& a, const Operands& b) {
  Operands c(*a.f, a.count + b.count, a.row_length);
  for (std::size_t k = 0; k < a.in.size(); ++k) {
    const std::size_t bytes = a.in[k].size() * a.in[k].elem();
    std::memcpy(c.in[k].data(), a.in[k].data(), bytes);
    std::memcpy(static_cast<unsigned char*>(c.in[k].data()) + bytes, b.in[k].data(), b.in[k].size() * b.in[k].elem());
  }
  return c;
}

// The row's special values as arrays: the list, then 16 rotations of it so that every case also
// lands in every lane position of a vector. want.out holds the expected results. Rows: rows of 4.
struct SpecialCase {
  Operands in;    // inputs (outputs unused)
  Operands want;  // the expected results in want.out
};
inline SpecialCase SpecialArrays(const FunctionInfo& f) {
  const std::size_t k = f.specials.size();
  const std::size_t n = 17 * k;
  const bool rows = f.shape == Shape::kRows;
  SpecialCase c{Operands(f, n, rows ? 4 : 0), Operands(f, n, rows ? 4 : 0)};
  for (std::size_t r = 0; r < 17; ++r) {
    for (std::size_t i = 0; i < k; ++i) {
      const std::size_t j = r * k + i;
      const Special& s = f.specials[(i + r) % k];
      if (rows) {
        for (std::size_t e = 0; e < 4; ++e) c.in.in[0].set(j * 4 + e, s.in[e]);
      } else {
        for (std::size_t q = 0; q < c.in.in.size(); ++q) c.in.in[q].set(j, s.in[q]);
      }
      for (std::size_t q = 0; q < c.want.out.size(); ++q) c.want.out[q].set(j, s.out[q]);
    }
  }
  c.want.in = c.in.in;
  return c;
}

// ---- the typed array functions, for calls with spans of any size -------------------------------

// A span of any element type: where, how many elements.
struct View {
  void* data;
  std::size_t size;
  template <typename T>
  std::span<T> span() const {
    return {static_cast<T*>(data), size};
  }
};
inline View ViewOf(Buffer& b, std::size_t size) { return {b.data(), size}; }

// Calls row f's typed array function (accelmath/math.h, the form with count) on spans `out` and
// `in`, results then sources as in its signature (Rows: n is the row length).
using TypedArrayFn = Status (*)(const std::vector<View>& out, const std::vector<View>& in, std::size_t count,
                                std::size_t n);
template <Shape S, typename detail::ShapeApi<S>::Array F>
Status TypedArray(const std::vector<View>& o, const std::vector<View>& i, std::size_t count, std::size_t n) {
  using std::int32_t, std::uint8_t;
  const auto f = [&](int k) { return o[k].span<float>(); };
  const auto cf = [&](int k) { return i[k].span<const float>(); };
  if constexpr (S == Shape::kUnary) {
    return F(f(0), cf(0), count);
  } else if constexpr (S == Shape::kUnaryPair) {
    return F(f(0), f(1), cf(0), count);
  } else if constexpr (S == Shape::kBinary) {
    return F(f(0), cf(0), cf(1), count);
  } else if constexpr (S == Shape::kTernary) {
    return F(f(0), cf(0), cf(1), cf(2), count);
  } else if constexpr (S == Shape::kQuaternary) {
    return F(f(0), cf(0), cf(1), cf(2), cf(3), count);
  } else if constexpr (S == Shape::kToInt32) {
    return F(o[0].span<int32_t>(), cf(0), count);
  } else if constexpr (S == Shape::kPredicate) {
    return F(o[0].span<uint8_t>(), cf(0), count);
  } else if constexpr (S == Shape::kSplitExponent) {
    return F(f(0), o[1].span<int32_t>(), cf(0), count);
  } else if constexpr (S == Shape::kScaleExponent) {
    return F(f(0), cf(0), i[1].span<const int32_t>(), count);
  } else {
    return F(f(0), cf(0), n, count);
  }
}
// Row f's typed function (the X-macro over accelmath/ops.def).
inline TypedArrayFn TypedArrayOf(const FunctionInfo& f) {
  static const std::vector<std::pair<std::string, TypedArrayFn>> table = {
#define ACCELMATH_OP(name, shape, ...) \
  {#name, &TypedArray<Shape::k##shape, static_cast<detail::ShapeApi<Shape::k##shape>::Array>(accelmath::name)>},
#include "accelmath/ops.def"
#undef ACCELMATH_OP
  };
  for (const auto& [name, fn] : table) {
    if (name == f.name) return fn;
  }
  return nullptr;
}

}  // namespace accelmath::test
