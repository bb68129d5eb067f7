// Argument validation shared by the array functions (the contract in include/accelmath/math.h),
// written once for every shape: the public functions (src/dispatch/family-inl.h) pass their spans,
// results first and then sources, in the order of their signature; a span of non-const elements is
// a result, of const elements a source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#include "accelmath/registry.h"
#include "accelmath/status.h"

namespace accelmath::detail {

// A registry row's array loop on one Highway target (src/dispatch/family-inl.h), one signature for
// every shape: out[k] and in[k] point at the operands of detail::Operands(shape), count results
// (Rows: count rows of row_length floats in in[0]; row_length is ignored otherwise). Called only
// after validation, with count > 0.
using ArrayLoop = void (*)(void* const* out, const void* const* in, std::size_t count, std::size_t row_length);

// The same loop on the scalar lane (src/dispatch/scalar.cc), one per row: the array path of targets
// without native fma or binary64 lanes, so that every path gives the same bits.
#define ACCELMATH_OP(name, ...) \
  void name##_scalar_loop(void* const* out, const void* const* in, std::size_t count, std::size_t row_length) noexcept;
#include "accelmath/ops.def"
#undef ACCELMATH_OP

// One array operand of a call: where it starts, how many elements the call uses, their type.
struct Operand {
  std::uintptr_t begin;
  std::size_t size;    // elements the span holds
  std::size_t used;    // elements the call reads or writes
  ElementType type;
  std::uintptr_t end() const noexcept { return begin + used * ElementSize(type); }
};

template <typename T>
constexpr ElementType TypeOf() noexcept {
  using U = std::remove_const_t<T>;
  static_assert(std::is_same_v<U, float> || std::is_same_v<U, std::int32_t> || std::is_same_v<U, std::uint8_t>);
  return std::is_same_v<U, float> ? ElementType::kF32 : std::is_same_v<U, std::int32_t> ? ElementType::kI32 : ElementType::kU8;
}

// Two operands' used elements share a byte (an empty range shares none).
inline bool Overlap(const Operand& a, const Operand& b) noexcept {
  return a.used != 0 && b.used != 0 && a.begin < b.end() && b.begin < a.end();
}

// The contract, for results out[0..n_out) and sources in[0..n_in): kBufferTooSmall if any operand
// uses more than it holds (all sizes are checked before any overlap); kPartialOverlap if a result
// overlaps a source without being it (same start, same element type: in place), or two results
// overlap; else kOk. Sources may overlap each other (they are only read).
inline Status CheckOperands(const Operand* out, int n_out, const Operand* in, int n_in) noexcept {
  for (int k = 0; k < n_out; ++k) {
    if (out[k].used > out[k].size) return Status::kBufferTooSmall;
  }
  for (int k = 0; k < n_in; ++k) {
    if (in[k].used > in[k].size) return Status::kBufferTooSmall;
  }
  for (int k = 0; k < n_out; ++k) {
    for (int j = 0; j < n_in; ++j) {
      const bool in_place = out[k].begin == in[j].begin && out[k].type == in[j].type;
      if (Overlap(out[k], in[j]) && !in_place) return Status::kPartialOverlap;
    }
    for (int j = 0; j < k; ++j) {
      if (Overlap(out[k], out[j])) return Status::kPartialOverlap;
    }
  }
  return Status::kOk;
}

// The body of every array function: validates its spans (results: `count` elements each; sources:
// `in_count` each, count * n for Rows) and, when there is work, runs `loop`. The spans come in the
// order of the public signature; results and sources keep their own order.
template <class... T>
Status RunArray(ArrayLoop loop, std::size_t count, std::size_t in_count, std::size_t row_length,
                std::span<T>... spans) noexcept {
  Operand out[2] = {}, in[4] = {};
  void* out_ptr[2] = {};
  const void* in_ptr[4] = {};
  int n_out = 0, n_in = 0;
  const auto add = [&]<class U>(std::span<U> s) {
    const auto begin = reinterpret_cast<std::uintptr_t>(s.data());
    if constexpr (std::is_const_v<U>) {
      in[n_in] = Operand{begin, s.size(), in_count, TypeOf<U>()};
      in_ptr[n_in++] = s.data();
    } else {
      out[n_out] = Operand{begin, s.size(), count, TypeOf<U>()};
      out_ptr[n_out++] = s.data();
    }
  };
  (add(spans), ...);
  const Status s = CheckOperands(out, n_out, in, n_in);
  if (s == Status::kOk && count != 0) loop(out_ptr, in_ptr, count, row_length);
  return s;
}

// count * n, or SIZE_MAX when it does not fit (no span holds that many elements: kBufferTooSmall).
constexpr std::size_t RowElements(std::size_t count, std::size_t n) noexcept {
  return n != 0 && count > std::numeric_limits<std::size_t>::max() / n ? std::numeric_limits<std::size_t>::max()
                                                                       : count * n;
}

}  // namespace accelmath::detail
