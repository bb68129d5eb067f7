// accelmath::atomic: validation and the element loops (update.h does one element, accelmath/detail/atomic_combine.h the
// arithmetic). Every argument is checked before the first update, so an error writes nothing.
#include "accelmath/atomic.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>

#include "atomic/update.h"

namespace accelmath::atomic {

#if defined(__x86_64__) || defined(__aarch64__)
// The promise of atomic.h: every element type is updated lock-free, on the element itself.
static_assert(std::atomic_ref<float16>::is_always_lock_free && std::atomic_ref<bfloat16>::is_always_lock_free &&
              std::atomic_ref<float>::is_always_lock_free && std::atomic_ref<std::int8_t>::is_always_lock_free &&
              std::atomic_ref<std::int16_t>::is_always_lock_free && std::atomic_ref<std::int32_t>::is_always_lock_free &&
              std::atomic_ref<std::int64_t>::is_always_lock_free);
#endif

namespace {

using detail::Op;

// True when the byte ranges of a and b intersect.
template <typename A, typename B>
bool Overlap(std::span<A> a, std::span<B> b) {
  if (a.empty() || b.empty()) return false;
  const auto a0 = reinterpret_cast<std::uintptr_t>(a.data()), b0 = reinterpret_cast<std::uintptr_t>(b.data());
  return a0 < b0 + b.size_bytes() && b0 < a0 + a.size_bytes();
}

template <typename T>
Status CheckCommon(std::span<T> dst, std::span<const T> src, Mode mode) {
  if (mode != Mode::kIeee && mode != Mode::kSaturate) return Status::kInvalidArgument;
  if (!dst.empty() && reinterpret_cast<std::uintptr_t>(dst.data()) % std::atomic_ref<T>::required_alignment != 0) {
    return Status::kMisaligned;
  }
  if (Overlap(dst, src)) return Status::kOverlap;
  return Status::kOk;
}

template <Op op, bool kSaturate, typename T>
void Loop(std::span<T> dst, std::span<const T> src) {
  for (std::size_t i = 0; i < src.size(); ++i) detail::Update<op, kSaturate>(dst[i], src[i]);
}

template <Op op, bool kSaturate, typename T>
void Loop(std::span<T> dst, std::span<const std::int64_t> index, std::span<const T> src) {
  for (std::size_t i = 0; i < src.size(); ++i) detail::Update<op, kSaturate>(dst[std::size_t(index[i])], src[i]);
}

template <Op op, typename T>
Status Apply(std::span<T> dst, std::span<const T> src, Mode mode) {
  if (src.size() != dst.size()) return Status::kSizeMismatch;
  if (const Status s = CheckCommon(dst, src, mode); s != Status::kOk) return s;
  if (mode == Mode::kSaturate) Loop<op, true>(dst, src); else Loop<op, false>(dst, src);
  return Status::kOk;
}

template <Op op, typename T>
Status Apply(std::span<T> dst, std::span<const std::int64_t> index, std::span<const T> src, Mode mode) {
  if (index.size() != src.size()) return Status::kSizeMismatch;
  if (const Status s = CheckCommon(dst, src, mode); s != Status::kOk) return s;
  if (Overlap(dst, index)) return Status::kOverlap;
  std::uint64_t largest = 0;  // as unsigned, so that a negative index counts as huge
  for (const std::int64_t i : index) largest = std::max(largest, std::uint64_t(i));
  if (!index.empty() && largest >= dst.size()) return Status::kIndexOutOfRange;
  if (mode == Mode::kSaturate) Loop<op, true>(dst, index, src); else Loop<op, false>(dst, index, src);
  return Status::kOk;
}

}  // namespace

#define ACCELMATH_ATOMIC_DEFINE(T)                                                                              \
  Status add(std::span<T> d, std::span<const T> s, Mode m) { return Apply<Op::kAdd>(d, s, m); }               \
  Status max(std::span<T> d, std::span<const T> s, Mode m) { return Apply<Op::kMax>(d, s, m); }               \
  Status min(std::span<T> d, std::span<const T> s, Mode m) { return Apply<Op::kMin>(d, s, m); }               \
  Status add(std::span<T> d, std::span<const std::int64_t> i, std::span<const T> s, Mode m) {                 \
    return Apply<Op::kAdd>(d, i, s, m);                                                                        \
  }                                                                                                             \
  Status max(std::span<T> d, std::span<const std::int64_t> i, std::span<const T> s, Mode m) {                 \
    return Apply<Op::kMax>(d, i, s, m);                                                                        \
  }                                                                                                             \
  Status min(std::span<T> d, std::span<const std::int64_t> i, std::span<const T> s, Mode m) {                 \
    return Apply<Op::kMin>(d, i, s, m);                                                                        \
  }
ACCELMATH_ATOMIC_DEFINE(float16)
ACCELMATH_ATOMIC_DEFINE(bfloat16)
ACCELMATH_ATOMIC_DEFINE(float)
ACCELMATH_ATOMIC_DEFINE(std::int8_t)
ACCELMATH_ATOMIC_DEFINE(std::int16_t)
ACCELMATH_ATOMIC_DEFINE(std::int32_t)
ACCELMATH_ATOMIC_DEFINE(std::int64_t)
#undef ACCELMATH_ATOMIC_DEFINE

}  // namespace accelmath::atomic
