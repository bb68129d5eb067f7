// Concurrency stress of accelmath::atomic: several threads, 2^20 updates per scenario, to a few hot
// addresses and to random addresses, each scenario with an exact expected result that does not
// depend on the order of the updates (wrapping integer sums, float sums whose every partial sum is
// exact, saturating sums that end clamped, max/min). A lost or torn update changes the result.
// CTest runs this program in the normal build and in a ThreadSanitizer build (atomic_stress_tsan),
// where any data race fails the run as well.
//
//   atomic_stress [threads]     (default 4; prints one line per scenario, exit 1 on a mismatch)
#include <barrier>
#include <bit>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "accelmath/atomic.h"
#include "accuracy/atomic_reference.h"
#include "atomic_test_util.h"
#include "atomic/update.h"

namespace {

using accelmath::bfloat16;
using accelmath::float16;
using accelmath::Status;
using accelmath::atomic::Mode;
namespace detail = accelmath::atomic::detail;
namespace ref = accelmath::atomic::reference;

using accelmath::atomic::test::kRefType;

constexpr std::uint64_t kUpdates = 1 << 20;  // per scenario, all threads together
int g_threads = 4;

// Updates per thread: 2^20 split between the threads, a multiple of 1024.
std::uint64_t PerThread() { return kUpdates / std::uint64_t(g_threads) / 1024 * 1024; }
int g_failures = 0;
std::uint64_t g_total = 0;

using accelmath::atomic::test::FromBits;

template <typename T>
std::uint64_t Bits(T v) {
  return accelmath::atomic::test::ToBits(v);
}

// Expected values come from the independent model (tools/accuracy/atomic_reference.cc), folded
// sequentially: op(a, b) in IEEE mode, and a double as the type's bits.
template <typename T>
T Fold(ref::Op op, T a, T b) {
  return FromBits<T>(ref::Apply(kRefType<T>, op, false, Bits(a), Bits(b)));
}
template <typename T>
T Value(double v) {
  return FromBits<T>(ref::Encode(kRefType<T>, v));
}

// Runs body(thread) on g_threads threads released together; returns after all joined.
void Parallel(const std::function<void(int)>& body) {
  std::barrier start(g_threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < g_threads; ++t) {
    pool.emplace_back([&, t] {
      start.arrive_and_wait();
      body(t);
    });
  }
  for (auto& th : pool) th.join();
}

template <typename T>
void Check(const std::string& name, std::uint64_t updates, const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) bad += Bits(got[i]) != Bits(want[i]);
  std::printf("%-48s %d threads, %8" PRIu64 " updates: %s\n", name.c_str(), g_threads, updates,
              bad == 0 ? "exact" : "MISMATCH");
  if (bad) {
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (Bits(got[i]) != Bits(want[i])) {
        std::printf("  element %zu: got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", i, Bits(got[i]), Bits(want[i]));
        break;
      }
    }
    ++g_failures;
  }
  g_total += updates;
}

void Expect(Status s) {
  if (s != Status::kOk) {
    std::printf("unexpected status %d\n", int(s));
    std::exit(1);
  }
}

// Hot addresses, element-wise form: every thread adds src (4 elements, thread-specific) to the same
// 4-element dst; wrap-around integer sums are exact in any order.
template <typename T>
void HotIntegerAdd(const char* name) {
  std::vector<T> dst{1, -2, 3, -4};
  const std::uint64_t calls = PerThread() / 4;
  std::vector<std::uint64_t> sum(4);
  for (int e = 0; e < 4; ++e) sum[e] = std::uint64_t(dst[e]);
  for (int t = 0; t < g_threads; ++t) {
    for (int e = 0; e < 4; ++e) sum[e] += calls * std::uint64_t(std::int64_t(37 * t + 11 * e + 5));
  }
  Parallel([&](int t) {
    std::vector<T> src(4);
    for (int e = 0; e < 4; ++e) src[e] = T(37 * t + 11 * e + 5);
    for (std::uint64_t k = 0; k < calls; ++k) Expect(accelmath::atomic::add(std::span<T>(dst), std::span<const T>(src), Mode::kIeee));
  });
  std::vector<T> want(4);
  for (int e = 0; e < 4; ++e) want[e] = T(sum[e]);  // modular conversion: the wrapped total
  Check(name, calls * 4 * g_threads, dst, want);
}

// Hot addresses, floating add: +step per update on 4 adjacent elements, in rounds small enough that
// every partial sum is exact in the type (float16 counts to 2048, bfloat16 to 256); the threads meet
// at a barrier after each round, where one of them checks and resets.
template <typename T>
void HotFloatAdd(const char* name, float step, std::uint64_t per_element_per_round) {
  const std::uint64_t per_thread_per_round = per_element_per_round / g_threads;
  const std::uint64_t rounds = kUpdates / (4 * per_thread_per_round * g_threads);
  std::vector<T> dst(4, T{}), want(4, Value<T>(double(step) * double(per_thread_per_round * g_threads)));
  bool exact = true;
  std::barrier round_end(g_threads, [&]() noexcept {
    for (int e = 0; e < 4; ++e) exact &= Bits(dst[e]) == Bits(want[e]);
    for (auto& d : dst) d = T{};
  });
  Parallel([&](int) {
    const std::vector<T> src(4, Value<T>(step));
    for (std::uint64_t r = 0; r < rounds; ++r) {
      for (std::uint64_t k = 0; k < per_thread_per_round; ++k) {
        Expect(accelmath::atomic::add(std::span<T>(dst), std::span<const T>(src), Mode::kIeee));
      }
      round_end.arrive_and_wait();
    }
  });
  Check(name, rounds * per_thread_per_round * 4 * g_threads, std::vector<int>{exact}, std::vector<int>{1});
}

// Saturation under contention: positive increments far past MAX end exactly at MAX (every partial
// sum is a multiple of the step below MAX, so exact), and at inf (float) / the wrapped total (int)
// in IEEE mode.
template <typename T>
void HotSaturate(const char* name, T step, Mode mode, T want_value) {
  std::vector<T> dst(4, T{});
  const std::vector<T> src(4, step);
  const std::uint64_t calls = PerThread() / 4;
  Parallel([&](int) {
    for (std::uint64_t k = 0; k < calls; ++k) Expect(accelmath::atomic::add(std::span<T>(dst), std::span<const T>(src), mode));
  });
  Check(name, calls * 4 * g_threads, dst, std::vector<T>(4, want_value));
}

// Hot max/min: every thread offers random values to the same 4 elements; the result is the max
// (min) of everything offered, in any order. `draw` makes the values; NaNs included give NaN.
template <typename T, bool kMax>
void HotMaxMin(const char* name, const std::function<T(std::mt19937_64&)>& draw, Mode mode) {
  const std::uint64_t calls = PerThread() / 4;
  std::vector<std::vector<T>> offers(g_threads);
  for (int t = 0; t < g_threads; ++t) {
    std::mt19937_64 rng(1000 + t);
    for (std::uint64_t k = 0; k < 4 * calls; ++k) offers[t].push_back(draw(rng));
  }
  std::vector<T> dst(4), want(4);
  for (int e = 0; e < 4; ++e) want[e] = dst[e] = offers[0][e];
  for (int t = 0; t < g_threads; ++t) {  // the expected result, folded sequentially
    for (std::uint64_t k = 0; k < calls; ++k) {
      for (int e = 0; e < 4; ++e) {
        want[e] = Fold(kMax ? ref::Op::kMax : ref::Op::kMin, want[e], offers[t][4 * k + e]);
      }
    }
  }
  Parallel([&](int t) {
    for (std::uint64_t k = 0; k < calls; ++k) {
      const std::span<const T> src(offers[t].data() + 4 * k, 4);
      Expect(kMax ? accelmath::atomic::max(std::span<T>(dst), src, mode) : accelmath::atomic::min(std::span<T>(dst), src, mode));
    }
  });
  Check(name, calls * 4 * g_threads, dst, want);
}

// Random addresses, scatter form: each thread adds `one` at random indices of a 65536-element dst
// (about 16 hits per element, within every type's exact range); the expected counts are replayed
// from the same random streams.
template <typename T>
void RandomScatterAdd(const char* name, T one) {
  constexpr std::size_t kSize = 1 << 16;
  const std::uint64_t per_thread = PerThread();
  std::vector<std::vector<std::int64_t>> index(g_threads);
  std::vector<std::uint64_t> count(kSize);
  for (int t = 0; t < g_threads; ++t) {
    std::mt19937_64 rng(2000 + t);
    for (std::uint64_t k = 0; k < per_thread; ++k) {
      index[t].push_back(std::int64_t(rng() % kSize));
      ++count[index[t].back()];
    }
  }
  std::vector<T> dst(kSize, T{}), want(kSize);
  for (std::size_t i = 0; i < kSize; ++i) {
    T w{};
    for (std::uint64_t c = 0; c < count[i]; ++c) w = Fold(ref::Op::kAdd, w, one);
    want[i] = w;
  }
  Parallel([&](int t) {
    const std::vector<T> src(1024, one);
    for (std::uint64_t k = 0; k < per_thread; k += 1024) {
      Expect(accelmath::atomic::add(std::span<T>(dst), std::span<const std::int64_t>(index[t].data() + k, 1024),
                                    std::span<const T>(src), Mode::kIeee));
    }
  });
  Check(name, per_thread * g_threads, dst, want);
}

// Random addresses, scatter max, random values: the result is each element's largest offer.
template <typename T>
void RandomScatterMax(const char* name, const std::function<T(std::mt19937_64&)>& draw) {
  constexpr std::size_t kSize = 1 << 12;
  const std::uint64_t per_thread = PerThread();
  std::vector<std::vector<std::int64_t>> index(g_threads);
  std::vector<std::vector<T>> value(g_threads);
  for (int t = 0; t < g_threads; ++t) {
    std::mt19937_64 rng(3000 + t);
    for (std::uint64_t k = 0; k < per_thread; ++k) index[t].push_back(std::int64_t(rng() % kSize)), value[t].push_back(draw(rng));
  }
  std::vector<T> dst(kSize, value[0][0]), want(kSize, value[0][0]);
  for (int t = 0; t < g_threads; ++t) {
    for (std::uint64_t k = 0; k < per_thread; ++k) {
      want[index[t][k]] = Fold(ref::Op::kMax, want[index[t][k]], value[t][k]);
    }
  }
  Parallel([&](int t) { Expect(accelmath::atomic::max(std::span<T>(dst), index[t], value[t], Mode::kIeee)); });
  Check(name, per_thread * g_threads, dst, want);
}

// The containing-word method (used where the hardware has no 8/16-bit atomics), run here directly:
// all 4 bytes (or 2 halves) of one aligned word are hot, so each CAS races with its neighbours'.
void WordPathInt8() {
  alignas(4) std::int8_t dst[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::uint64_t per_thread = PerThread();
  Parallel([&](int t) {
    for (std::uint64_t k = 0; k < per_thread; ++k) {
      detail::UpdateInWord<detail::Op::kAdd, false>(dst[k % 8], std::int8_t(t + 1));
    }
  });
  std::vector<std::int8_t> got(dst, dst + 8), want(8);
  for (int e = 0; e < 8; ++e) {
    std::uint64_t sum = std::uint64_t(e);
    for (int t = 0; t < g_threads; ++t) sum += (per_thread / 8) * std::uint64_t(t + 1);
    want[e] = std::int8_t(sum);
  }
  Check("word-CAS int8 add (8 bytes, 2 words)", per_thread * g_threads, got, want);
}

void WordPathFloat16() {
  alignas(4) float16 dst[4] = {};
  const std::uint64_t per_thread = PerThread();
  Parallel([&](int) {
    for (std::uint64_t k = 0; k < per_thread; ++k) {
      // Saturating add of 32: exact up to MAX, then clamped there, in any order.
      detail::UpdateInWord<detail::Op::kAdd, true>(dst[k % 4], Value<float16>(32.0));
    }
  });
  Check("word-CAS float16 saturating add", per_thread * g_threads, std::vector<float16>(dst, dst + 4),
        std::vector<float16>(4, float16{0x7BFF}));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_threads = std::max(2, std::atoi(argv[1]));
  // Each hot element receives n updates.
  const double n = double(PerThread() / 4 * g_threads);
  auto quarters = [](std::mt19937_64& r) { return float(std::int64_t(r() % 2000001) - 1000000) * 0.25f; };
  auto zeros = [](std::mt19937_64& r) { return r() % 2 ? 0.0f : -0.0f; };
  auto f16_no_nan = [](std::mt19937_64& r) {
    std::uint16_t b;
    do b = std::uint16_t(r());
    while ((b & 0x7FFF) > 0x7C00);
    return float16{b};
  };
  HotIntegerAdd<std::int8_t>("hot add int8 (wrapping)");
  HotIntegerAdd<std::int16_t>("hot add int16 (wrapping)");
  HotIntegerAdd<std::int32_t>("hot add int32 (wrapping)");
  HotIntegerAdd<std::int64_t>("hot add int64 (wrapping)");
  HotSaturate<float>("hot add float32 (+0.25, exact sums)", 0.25f, Mode::kIeee, float(0.25 * n));
  HotFloatAdd<float16>("hot add float16 (rounds of 2048 x +1)", 1.0f, 2048);
  HotFloatAdd<bfloat16>("hot add bfloat16 (rounds of 256 x +1)", 1.0f, 256);
  HotSaturate<std::int8_t>("hot add int8 saturating (ends at MAX)", 1, Mode::kSaturate, 127);
  HotSaturate<std::int8_t>("hot add int8 wrapping (+1)", 1, Mode::kIeee, std::int8_t(std::uint64_t(n)));
  HotSaturate<std::int32_t>("hot add int32 saturating (ends at MIN)", -(1 << 30), Mode::kSaturate,
                            std::numeric_limits<std::int32_t>::min());
  HotSaturate<float16>("hot add float16 saturating (+32, ends at MAX)", Value<float16>(32), Mode::kSaturate, float16{0x7BFF});
  HotSaturate<float16>("hot add float16 IEEE (+32, ends at inf)", Value<float16>(32), Mode::kIeee, float16{0x7C00});
  HotSaturate<bfloat16>("hot add bfloat16 saturating (+2^120, ends at MAX)", Value<bfloat16>(0x1p120), Mode::kSaturate,
                        bfloat16{0x7F7F});
  HotMaxMin<float, true>("hot max float32", quarters, Mode::kIeee);
  HotMaxMin<float, false>("hot min float32", quarters, Mode::kIeee);
  HotMaxMin<float, true>("hot max float32 (-0/+0 only)", zeros, Mode::kIeee);
  HotMaxMin<float, false>("hot min float32 (-0/+0 only)", zeros, Mode::kIeee);
  HotMaxMin<float16, true>("hot max float16 (every non-NaN pattern)", f16_no_nan, Mode::kIeee);
  HotMaxMin<float16, false>("hot min float16 (all patterns: NaN wins)", [](std::mt19937_64& r) { return float16{std::uint16_t(r())}; },
                            Mode::kIeee);
  HotMaxMin<bfloat16, false>("hot min bfloat16 (finite patterns, saturating)",
                             [](std::mt19937_64& r) { return bfloat16{std::uint16_t(r() & 0xFF7F)}; }, Mode::kSaturate);
  HotMaxMin<std::int16_t, true>("hot max int16", [](std::mt19937_64& r) { return std::int16_t(r()); }, Mode::kIeee);
  HotMaxMin<std::int64_t, false>("hot min int64", [](std::mt19937_64& r) { return std::int64_t(r()); }, Mode::kSaturate);
  RandomScatterAdd<float16>("random scatter add float16", Value<float16>(1));
  RandomScatterAdd<bfloat16>("random scatter add bfloat16", Value<bfloat16>(1));
  RandomScatterAdd<float>("random scatter add float32", 1.0f);
  RandomScatterAdd<std::int8_t>("random scatter add int8", 1);
  RandomScatterAdd<std::int16_t>("random scatter add int16", 1);
  RandomScatterAdd<std::int32_t>("random scatter add int32", 1);
  RandomScatterAdd<std::int64_t>("random scatter add int64", 1);
  RandomScatterMax<float>("random scatter max float32", quarters);
  RandomScatterMax<float16>("random scatter max float16 (non-NaN patterns)", f16_no_nan);
  RandomScatterMax<std::int32_t>("random scatter max int32", [](std::mt19937_64& r) { return std::int32_t(r()); });
  WordPathInt8();
  WordPathFloat16();
  std::printf("%" PRIu64 " updates in all, %d scenario(s) wrong\n", g_total, g_failures);
  return g_failures == 0 ? 0 : 1;
}
