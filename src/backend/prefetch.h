// Software prefetch ahead of a streaming read, shared by the math drivers (src/drivers/map-inl.h,
// split-inl.h) and MX quantize (src/mx/blocks-inl.h, src/mx/quantize_inner.cc). Plain code (no
// SIMD): the same on every target.
//
// With the hardware prefetchers alone, both waited on memory at 16M elements on an AVX-512 Intel Xeon
// (family 6 model 167, a KVM guest; its Highway AVX3 code and the AVX2 code forced there): the
// prefetch gave 1.2-1.6x (math functions) and 1.4-1.8x (MX quantize), the same speed at 64K
// (docs/performance.md). 4 KiB ahead measured as good as 2 KiB and better than 8 KiB (MX). Unmeasured
// on a CPU whose best target is AVX2 (AMD Zen 3 and others), whose prefetchers may already cover it.
#pragma once

#include <cstdint>

#include <hwy/base.h>
#include <hwy/cache_control.h>

namespace accelmath::backend {

inline constexpr int64_t kPrefetchAhead = 4096;
inline constexpr int64_t kCacheLine = 64;  // x86's line (where lines are longer, some prefetches repeat, harmlessly)

// Requests the `len` bytes `ahead` bytes past `at`, one prefetch per cache line, when they lie
// within the `left` bytes from `at` to the end of the caller's range (no pointer past the end is
// formed). Forced inline: left as a call, GCC takes a function of prefetches alone for one without
// effects and deletes the calls (it did, in the first version of this header: no prefetch was left
// in the SIMD drivers).
HWY_INLINE void PrefetchAhead(const void* at, int64_t len, int64_t left, int64_t ahead = kPrefetchAhead) {
  if (ahead + len > left) return;
  const char* p = static_cast<const char*>(at) + ahead;
  for (int64_t o = 0; o < len; o += kCacheLine) hwy::Prefetch(p + o);
}

// Requests the `len` bytes at `p` into L2 (not L1), one prefetch per cache line: for data wanted a
// whole pass later, which would only evict the current pass's lines from L1 (MX quantize along an
// inner axis prefetches its next block this way: on Zen 4 this hint gave 1.04-1.21x over hwy::Prefetch's
// L1 hint, docs/performance.md). Forced inline for the reason above.
HWY_INLINE void PrefetchIntoL2(const void* p, int64_t len) {
  for (int64_t o = 0; o < len; o += kCacheLine) __builtin_prefetch(static_cast<const char*>(p) + o, 0, 2);
}

}  // namespace accelmath::backend
