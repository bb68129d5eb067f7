// Atomic accumulate throughput, 1 and 2 threads (wall-clock), against two anchors in the same run:
// a loop of std::atomic_ref<T>::fetch_add (C++20; float and int32) and a mutex-per-stripe baseline
// (256 cache-line-padded std::mutex, stripe = element index mod 256, plain add under the lock).
//   build/bench_atomic --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true --benchmark_format=json > atomic.json
//   python3 bench/atomic_ratios.py atomic.json          (docs/performance.md's table)
// Patterns, 64K updates per call and thread:
//   uncontended  element-wise into the thread's own 64K-element region (in L2)
//   contended    scatter into 4 adjacent elements shared by all threads (index i mod 4)
//   random       scatter to random indices of a 1M-element array shared by all threads
#include <benchmark/benchmark.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "accelmath/atomic.h"

namespace {

using accelmath::float16;
using accelmath::atomic::Mode;

constexpr std::size_t kN = 1 << 16;        // updates per call and thread
constexpr std::size_t kRandom = 1 << 20;   // elements of the random-scatter target
constexpr int kMaxThreads = 2;

enum class Pattern { kUncontended, kContended, kRandom };
enum class Impl { kOurs, kAtomicRef, kMutexStripe };

struct alignas(64) PaddedMutex {
  std::mutex m;
};
std::array<PaddedMutex, 256> g_stripes;

template <typename T>
struct Shared {
  std::vector<T> dst, src;
  std::vector<std::int64_t> index[kMaxThreads];
  Shared(Pattern p) {
    dst.assign(p == Pattern::kRandom ? kRandom : p == Pattern::kContended ? 4 : kN * kMaxThreads, T{});
    if constexpr (std::is_same_v<T, float16>) src.assign(kN, accelmath::to_float16(1.0f));
    else src.assign(kN, T(1));
    std::mt19937_64 rng(7);
    for (int t = 0; t < kMaxThreads; ++t) {
      for (std::size_t i = 0; i < kN; ++i) {
        index[t].push_back(p == Pattern::kRandom ? std::int64_t(rng() % kRandom)
                           : p == Pattern::kContended ? std::int64_t(i % 4)
                                                      : std::int64_t(t * kN + i));
      }
    }
  }
};

template <typename T>
void Run(benchmark::State& state, Pattern pattern, Impl impl) {
  static Shared<T> shared_u(Pattern::kUncontended), shared_c(Pattern::kContended), shared_r(Pattern::kRandom);
  Shared<T>& s = pattern == Pattern::kUncontended ? shared_u : pattern == Pattern::kContended ? shared_c : shared_r;
  const int t = state.thread_index();
  const std::int64_t* index = s.index[t].data();
  const std::span<const T> src(s.src);
  for (auto _ : state) {
    if (impl == Impl::kOurs) {
      if (pattern == Pattern::kUncontended) {
        (void)accelmath::atomic::add(std::span<T>(s.dst.data() + t * kN, kN), src, Mode::kIeee);
      } else {
        (void)accelmath::atomic::add(std::span<T>(s.dst), std::span<const std::int64_t>(index, kN), src, Mode::kIeee);
      }
    } else if (impl == Impl::kAtomicRef) {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>) {
        for (std::size_t i = 0; i < kN; ++i) std::atomic_ref<T>(s.dst[index[i]]).fetch_add(src[i], std::memory_order_relaxed);
      }
    } else {
      for (std::size_t i = 0; i < kN; ++i) {
        std::lock_guard<std::mutex> lock(g_stripes[std::size_t(index[i]) % 256].m);
        if constexpr (std::is_same_v<T, float16>) {
          s.dst[index[i]] = accelmath::to_float16(accelmath::to_float(s.dst[index[i]]) + accelmath::to_float(src[i]));
        } else {
          s.dst[index[i]] += src[i];
        }
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(kN));
}

void Register() {
  const std::pair<Pattern, const char*> patterns[] = {
      {Pattern::kUncontended, "uncontended"}, {Pattern::kContended, "contended"}, {Pattern::kRandom, "random"}};
  const std::pair<Impl, const char*> impls[] = {
      {Impl::kOurs, "accelmath"}, {Impl::kAtomicRef, "atomic_ref"}, {Impl::kMutexStripe, "mutex_stripe"}};
  for (const auto& [p, pname] : patterns) {
    for (const auto& [impl, iname] : impls) {
      auto reg = [&](const char* type, auto fn) {
        benchmark::RegisterBenchmark((std::string(pname) + "/" + type + "/" + iname).c_str(), fn)
            ->Threads(1)->Threads(2)->UseRealTime();
      };
      reg("float", [p, impl](benchmark::State& st) { Run<float>(st, p, impl); });
      reg("int32", [p, impl](benchmark::State& st) { Run<std::int32_t>(st, p, impl); });
      if (impl != Impl::kAtomicRef) reg("float16", [p, impl](benchmark::State& st) { Run<float16>(st, p, impl); });
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Register();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
