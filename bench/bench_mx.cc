// MX quantize/dequantize throughput, single thread (and all cores), against a memcpy of the input
// in the same run: build/bench_mx --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
//   --benchmark_report_aggregates_only=true
// Input: Gaussian values times 2^k varying per block (so blocks differ in scale), blocksize 32,
// last axis, shape [n / 1024, 1024] (quantize_axis0: [1024, n / 1024], blocks along axis 0).
// bench/mx_ratios.py turns the JSON into docs/performance.md's table.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "accelmath/mx.h"

namespace {

using accelmath::mx::DType;

std::vector<uint8_t> Input(DType type, size_t n) {
  std::mt19937 rng(1);
  std::normal_distribution<float> g;
  const size_t w = type == DType::kFloat32 ? 4 : 2;
  std::vector<uint8_t> raw(n * w);
  for (size_t i = 0; i < n; ++i) {
    const float v = g(rng) * std::ldexp(1.0f, static_cast<int>((i / 32) % 16) - 8);
    uint32_t b;
    std::memcpy(&b, &v, 4);
    if (w == 4) std::memcpy(&raw[4 * i], &b, 4);
    else {
      // bfloat16 by truncation; float16 via the compiler's conversion (round to nearest)
      const uint16_t h = type == DType::kBFloat16 ? uint16_t(b >> 16) : [&] { _Float16 f = static_cast<_Float16>(v); uint16_t u; std::memcpy(&u, &f, 2); return u; }();
      std::memcpy(&raw[2 * i], &h, 2);
    }
  }
  return raw;
}

void Memcpy(benchmark::State& state, DType in) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> x = Input(in, n);
  std::vector<uint8_t> y(x.size());
  for (auto _ : state) {
    std::memcpy(y.data(), x.data(), x.size());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * x.size()));
}

// axis -1: shape [n / 1024, 1024]; axis 0: shape [1024, n / 1024], blocks down the columns.
void Quantize(benchmark::State& state, DType in, DType out, int threads, int axis = -1) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> x = Input(in, n);
  const int64_t rows = axis == 0 ? 1024 : static_cast<int64_t>(n / 1024), cols = static_cast<int64_t>(n) / rows;
  const int64_t shape[2] = {rows, cols};
  const int64_t sshape[3] = {axis == 0 ? 16 : rows, axis == 0 ? cols : 16, 2};
  std::vector<uint8_t> y(accelmath::mx::storage_bytes(out, n)), s(n / 32);
  accelmath::mx::QuantizeOptions o;
  o.dst_type = out;
  o.threads = threads;
  o.axis = axis;
  for (auto _ : state) {
    const auto e = accelmath::mx::quantize({x.data(), in, shape}, {y.data(), out, shape}, {s.data(), DType::kFloat8E8M0, sshape}, o);
    if (!e.ok()) state.SkipWithError(e.message.c_str());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * x.size()));  // input bytes, as memcpy
}

void Dequantize(benchmark::State& state, DType elem, DType out) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> x = Input(DType::kFloat32, n);
  const int64_t shape[2] = {static_cast<int64_t>(n / 1024), 1024}, sshape[3] = {shape[0], 16, 2};
  std::vector<uint8_t> y(accelmath::mx::storage_bytes(elem, n)), s(n / 32);
  accelmath::mx::QuantizeOptions o;
  o.dst_type = elem;
  (void)accelmath::mx::quantize({x.data(), DType::kFloat32, shape}, {y.data(), elem, shape}, {s.data(), DType::kFloat8E8M0, sshape}, o);
  std::vector<uint8_t> back(accelmath::mx::storage_bytes(out, n));
  accelmath::mx::DequantizeOptions d;
  d.threads = 1;
  for (auto _ : state) {
    const auto e = accelmath::mx::dequantize({y.data(), elem, shape}, {s.data(), DType::kFloat8E8M0, sshape}, {back.data(), out, shape}, d);
    if (!e.ok()) state.SkipWithError(e.message.c_str());
    benchmark::DoNotOptimize(back.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * back.size()));  // output bytes
}

constexpr DType kElems[] = {DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kFloat6E3M2,
                            DType::kFloat6E2M3,   DType::kFloat4E2M1, DType::kFloat4E1M2};

int Register() {
  for (DType in : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
    const std::string ins = accelmath::mx::dtype_name(in);
    benchmark::RegisterBenchmark(("memcpy/" + ins).c_str(), Memcpy, in)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
    for (DType out : kElems) {
      const std::string name = "quantize/" + ins + "->" + accelmath::mx::dtype_name(out);
      benchmark::RegisterBenchmark(name.c_str(), Quantize, in, out, 1, -1)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
    }
    benchmark::RegisterBenchmark(("quantize_mt/" + ins + "->e4m3").c_str(), Quantize, in, DType::kFloat8E4M3FN, 0, -1)->Arg(1 << 24)->UseRealTime();
    for (DType out : {DType::kFloat8E4M3FN, DType::kFloat4E2M1}) {
      const std::string name = "quantize_axis0/" + ins + "->" + accelmath::mx::dtype_name(out);
      benchmark::RegisterBenchmark(name.c_str(), Quantize, in, out, 1, 0)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
    }
  }
  for (DType elem : {DType::kFloat8E4M3FN, DType::kFloat4E2M1}) {
    for (DType out : {DType::kFloat32, DType::kBFloat16}) {
      const std::string name = std::string("dequantize/") + accelmath::mx::dtype_name(elem) + "->" + accelmath::mx::dtype_name(out);
      benchmark::RegisterBenchmark(name.c_str(), Dequantize, elem, out)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
    }
  }
  return 0;
}
const int kRegistered = Register();

}  // namespace

BENCHMARK_MAIN();
