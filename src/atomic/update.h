// One atomic element update on the CPU: dst = Combine<op, kSaturate>(dst, v) as a single
// read-modify-write (accelmath/detail/atomic_combine.h has the arithmetic).
//
// The element is updated with a compare-and-swap loop on the element itself: x86-64 and AArch64 have
// 8- and 16-bit compare-and-swap (lock cmpxchg, CASH/CASB or LL/SC), so every type here is lock-free
// there and no byte outside dst is ever touched. Wrapping integer add uses fetch-add (lock xadd).
// On a target without sub-word atomics (is_always_lock_free false for the element), 8- and 16-bit
// elements are updated by CAS on the containing aligned 32-bit word (UpdateInWord), the method CUDA
// needs for int8; tests/atomic_stress.cc runs that path on this machine too.
//
// max/min return without storing when the result equals the loaded value: the update is then
// equivalent to an RMW that writes what it read, and the cache line stays shared under contention.
// add always stores (the loaded value may be stale, and x + v == x for a tiny v is not "no change").
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "accelmath/detail/atomic_combine.h"

namespace accelmath::atomic::detail {

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t,
             std::conditional_t<sizeof(T) == 2, std::uint16_t,
             std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <typename T>
inline bool SameBits(T a, T b) {
  return std::bit_cast<Bits<T>>(a) == std::bit_cast<Bits<T>>(b);
}

// The containing-word method: CAS on the aligned 32-bit word that holds the 1- or 2-byte element.
// It reads and rewrites the neighbouring bytes of that word unchanged, so it is only used where the
// hardware has no narrower atomic (a C++ data race with non-atomic users of those neighbours).
template <Op op, bool kSaturate, typename T>
inline void UpdateInWord(T& target, T v) {
  static_assert(sizeof(T) < 4);
  const auto addr = reinterpret_cast<std::uintptr_t>(&target);
  auto* word = reinterpret_cast<std::uint32_t*>(addr & ~std::uintptr_t{3});
  const unsigned byte = unsigned(addr & 3);
  const unsigned shift = 8 * (std::endian::native == std::endian::little ? byte : 4 - sizeof(T) - byte);
  const std::uint32_t mask = ((1u << (8 * sizeof(T))) - 1u) << shift;
  std::atomic_ref<std::uint32_t> ref(*word);
  std::uint32_t w = ref.load(std::memory_order_relaxed);
  for (;;) {
    const T old = std::bit_cast<T>(Bits<T>((w & mask) >> shift));
    const T next = Combine<op, kSaturate>(old, v);
    if (op != Op::kAdd && SameBits(next, old)) return;
    const std::uint32_t nw = (w & ~mask) | (std::uint32_t(std::bit_cast<Bits<T>>(next)) << shift);
    if (ref.compare_exchange_weak(w, nw, std::memory_order_relaxed, std::memory_order_relaxed)) return;
  }
}

template <Op op, bool kSaturate, typename T>
inline void Update(T& target, T v) {
  if constexpr (sizeof(T) < 4 && !std::atomic_ref<T>::is_always_lock_free) {
    UpdateInWord<op, kSaturate>(target, v);
  } else if constexpr (std::is_integral_v<T> && op == Op::kAdd && !kSaturate) {
    std::atomic_ref<T>(target).fetch_add(v, std::memory_order_relaxed);  // wraps (C++20)
  } else {
    std::atomic_ref<T> ref(target);
    T old = ref.load(std::memory_order_relaxed);
    for (;;) {
      const T next = Combine<op, kSaturate>(old, v);
      if (op != Op::kAdd && SameBits(next, old)) return;
      // compare_exchange compares object representations: NaN and -0 patterns compare exactly.
      if (ref.compare_exchange_weak(old, next, std::memory_order_relaxed, std::memory_order_relaxed)) return;
    }
  }
}

}  // namespace accelmath::atomic::detail
