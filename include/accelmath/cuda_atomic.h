// Atomic accumulate as CUDA device functions, for your own kernels: the semantics of
// accelmath::atomic (accelmath/atomic.h, ../shared/spec/atomics.md) on one element in GPU memory.
//
//   #include <accelmath/cuda_atomic.h>     // nvcc -std=c++20 --expt-relaxed-constexpr
//   T old = accelmath::cuda::atomic_add(&dst[i], v, accelmath::atomic::Mode::kSaturate);
//   T old = accelmath::cuda::atomic_max(&dst[i], v);    // IEEE 754-2019 maximum (NaN wins, -0 < +0)
//   T old = accelmath::cuda::atomic_min(&dst[i], v);
//
// T: accelmath::float16, accelmath::bfloat16 (reinterpret __half / __nv_bfloat16 storage), float,
// int8_t, int16_t, int32_t, int64_t. Each returns the value it replaced, like CUDA's atomicAdd.
// The result is accelmath::atomic's bit for bit (the same arithmetic, accelmath/detail/atomic_combine.h):
// float16/bfloat16 add is the exact sum rounded once, a NaN result is the type's canonical NaN,
// saturation maps +-inf to +-MAX and NaN to +0 (float16/bfloat16; float32 is always IEEE), integer add
// wraps or clamps. So float add is not CUDA's atomicAdd (which keeps the GPU's own NaN, 0x7FFFFFFF):
// it is a compare-and-swap loop, as are max/min; wrapping int32/int64 add is atomicAdd itself.
// 16-bit types use the 16-bit compare-and-swap (sm_70 and later), 8-bit ones a compare-and-swap on
// the aligned 32-bit word that holds them (the neighbouring bytes are rewritten unchanged, so do not
// mix these updates with plain stores to the other bytes of that word while they may be in flight).
// Memory order: relaxed, as atomicAdd; the address must be aligned to sizeof(T).
#pragma once

#if !defined(__CUDACC__)
#error "accelmath/cuda_atomic.h holds CUDA device functions: compile with nvcc"
#endif

#include <bit>
#include <cstdint>
#include <type_traits>

#include "accelmath/atomic.h"
#include "accelmath/detail/atomic_combine.h"
#include "accelmath/types.h"

namespace accelmath::cuda {
namespace detail {

using ::accelmath::atomic::detail::Combine;
using ::accelmath::atomic::detail::Op;

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t,
             std::conditional_t<sizeof(T) == 2, unsigned short,
             std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>>>;

template <Op op, bool kSaturate, typename T>
__device__ inline T Update(T* address, T v) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  if constexpr (std::is_integral_v<T> && op == Op::kAdd && !kSaturate && sizeof(T) >= 4) {
    // Wrapping add: the hardware's own (two's complement wrap-around is what it does).
    using U = Bits<T>;
    return std::bit_cast<T>(atomicAdd(reinterpret_cast<U*>(address), std::bit_cast<U>(v)));
  } else if constexpr (sizeof(T) == 1) {
    const auto addr = reinterpret_cast<std::uintptr_t>(address);
    auto* word = reinterpret_cast<unsigned int*>(addr & ~std::uintptr_t{3});
    const unsigned shift = 8 * unsigned(addr & 3);  // little-endian
    unsigned int w = *word, seen;
    do {
      seen = w;
      const T old = std::bit_cast<T>(std::uint8_t(seen >> shift));
      const T next = Combine<op, kSaturate>(old, v);
      if (op != Op::kAdd && std::bit_cast<std::uint8_t>(next) == std::bit_cast<std::uint8_t>(old)) return old;
      w = atomicCAS(word, seen, (seen & ~(0xFFu << shift)) | (unsigned(std::bit_cast<std::uint8_t>(next)) << shift));
    } while (w != seen);
    return std::bit_cast<T>(std::uint8_t(seen >> shift));
  } else {
    using U = Bits<T>;
    U* p = reinterpret_cast<U*>(address);
    U w = *reinterpret_cast<volatile U*>(p), seen;
    do {
      seen = w;
      const U next = std::bit_cast<U>(Combine<op, kSaturate>(std::bit_cast<T>(seen), v));
      if (op != Op::kAdd && next == seen) return std::bit_cast<T>(seen);
      w = atomicCAS(p, seen, next);  // compares bits: NaN and -0 patterns exactly
    } while (w != seen);
    return std::bit_cast<T>(seen);
  }
}

template <Op op, typename T>
__device__ inline T Dispatch(T* address, T v, ::accelmath::atomic::Mode mode) {
  return mode == ::accelmath::atomic::Mode::kSaturate ? Update<op, true>(address, v) : Update<op, false>(address, v);
}

}  // namespace detail

// dst = dst + v (accelmath::atomic::add's rules); returns the old value.
template <typename T>
__device__ inline T atomic_add(T* address, T v, ::accelmath::atomic::Mode mode = ::accelmath::atomic::Mode::kIeee) {
  return detail::Dispatch<detail::Op::kAdd>(address, v, mode);
}
// dst = maximum(dst, v) (IEEE 754-2019; a NaN operand gives the canonical NaN); returns the old value.
template <typename T>
__device__ inline T atomic_max(T* address, T v, ::accelmath::atomic::Mode mode = ::accelmath::atomic::Mode::kIeee) {
  return detail::Dispatch<detail::Op::kMax>(address, v, mode);
}
// dst = minimum(dst, v); returns the old value.
template <typename T>
__device__ inline T atomic_min(T* address, T v, ::accelmath::atomic::Mode mode = ::accelmath::atomic::Mode::kIeee) {
  return detail::Dispatch<detail::Op::kMin>(address, v, mode);
}

}  // namespace accelmath::cuda
