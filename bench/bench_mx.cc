// MX quantize/dequantize throughput, single thread (and all cores), against a memcpy of the input
// in the same run: build/bench_mx [--target=avx2|avx3|avx3_dl|scalar] --benchmark_repetitions=9
//   --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// --target restricts Highway's dispatch to one target (default: the best this CPU runs); the
// target that ran is printed and recorded in the JSON context ("hwy_target"), and quantize's
// beside it ("hwy_target_quantize": AVX3_DL where the CPU has it, which only the quantize kernels
// compile; --target=avx3_dl selects it with AVX3 for the rest).
// Input: Gaussian values times 2^k varying per block (so blocks differ in scale), blocksize 32,
// last axis, shape [n / 1024, 1024] (quantize_axis0: [1024, n / 1024], blocks along axis 0).
// quantize_small: float16 of sigma 2^-9 in every block (the magnitude of small weights, activations
// and gradients), where float16's subnormal inputs are common and take the kernels' slower paths.
// bench/mx_ratios.py turns the JSON into docs/performance.md's table.
#include <benchmark/benchmark.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <random>
#include <string_view>
#include <vector>

#include <hwy/targets.h>

#include "accelmath/mx.h"
#include "mx/job.h"

namespace {

using accelmath::mx::DType;

// small: sigma 2^-9 in every block, not 2^-8 .. 2^7 by block.
std::vector<uint8_t> Input(DType type, size_t n, bool small = false) {
  std::mt19937 rng(1);
  std::normal_distribution<float> g;
  const size_t w = type == DType::kFloat32 ? 4 : 2;
  std::vector<uint8_t> raw(n * w);
  for (size_t i = 0; i < n; ++i) {
    const float v = g(rng) * std::ldexp(1.0f, small ? -9 : static_cast<int>((i / 32) % 16) - 8);
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
void QuantizeInput(benchmark::State& state, DType in, DType out, int threads, int axis, int64_t blocksize, bool small) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t> x = Input(in, n, small);
  const int64_t rows = axis == 0 ? 1024 : static_cast<int64_t>(n / 1024), cols = static_cast<int64_t>(n) / rows;
  const int64_t shape[2] = {rows, cols};
  const int64_t nb2 = ((axis == 0 ? rows : cols) / blocksize + 1) / 2;
  const int64_t sshape[3] = {axis == 0 ? nb2 : rows, axis == 0 ? cols : nb2, 2};
  std::vector<uint8_t> y(accelmath::mx::storage_bytes(out, n)), s(n / 32);
  accelmath::mx::QuantizeOptions o;
  o.dst_type = out;
  o.blocksize = blocksize;
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

void Quantize(benchmark::State& state, DType in, DType out, int threads, int axis, int64_t blocksize) {
  QuantizeInput(state, in, out, threads, axis, blocksize, false);
}
void QuantizeSmall(benchmark::State& state, DType out) { QuantizeInput(state, DType::kFloat16, out, 1, -1, 32, true); }

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
      benchmark::RegisterBenchmark(name.c_str(), Quantize, in, out, 1, -1, 32)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
    }
    benchmark::RegisterBenchmark(("quantize_mt/" + ins + "->e4m3").c_str(), Quantize, in, DType::kFloat8E4M3FN, 0, -1, 32)->Arg(1 << 24)->UseRealTime();
    for (DType out : {DType::kFloat8E4M3FN, DType::kFloat4E2M1}) {
      const std::string name = "quantize_axis0/" + ins + "->" + accelmath::mx::dtype_name(out);
      benchmark::RegisterBenchmark(name.c_str(), Quantize, in, out, 1, 0, 32)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
    }
  }
  for (DType out : {DType::kFloat8E4M3FN, DType::kFloat6E3M2, DType::kFloat4E2M1}) {
    const std::string name = std::string("quantize_small/float16->") + accelmath::mx::dtype_name(out);
    benchmark::RegisterBenchmark(name.c_str(), QuantizeSmall, out)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
  }
  for (DType in : {DType::kFloat32, DType::kBFloat16}) {
    for (DType out : {DType::kFloat8E4M3FN, DType::kFloat4E2M1}) {
      for (int64_t bs : {64, 256}) {
        const std::string name = "quantize_bs" + std::to_string(bs) + "/" + accelmath::mx::dtype_name(in) + "->" +
                                 accelmath::mx::dtype_name(out);
        benchmark::RegisterBenchmark(name.c_str(), Quantize, in, out, 1, -1, bs)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
      }
    }
  }
  for (DType elem : kElems) {
    for (DType out : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
      const std::string name = std::string("dequantize/") + accelmath::mx::dtype_name(elem) + "->" + accelmath::mx::dtype_name(out);
      benchmark::RegisterBenchmark(name.c_str(), Dequantize, elem, out)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
    }
  }
  return 0;
}

// Parses and removes --target=NAME: restricts Highway's dispatch to that target. False if this
// CPU lacks it or the name is unknown.
bool SelectTarget(int* argc, char** argv) {
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view a = argv[i];
    if (a.rfind("--target=", 0) != 0) {
      argv[out++] = argv[i];
      continue;
    }
    const std::string_view want = a.substr(9);
    int64_t chosen = 0;
    for (int64_t t : hwy::SupportedAndGeneratedTargets()) {
      std::string name = hwy::TargetName(t);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (name == want) chosen = t;
    }
    // AVX3_DL: only the quantize kernels compile it (src/mx/quantize*.cc); the rest runs AVX3.
    if (want == "avx3_dl" && (hwy::SupportedTargets() & HWY_AVX3_DL) != 0) chosen = HWY_AVX3_DL | HWY_AVX3;
    if (chosen == 0) {
      std::fprintf(stderr, "bench_mx: --target=%.*s: not a target this CPU and build run\n", static_cast<int>(want.size()),
                   want.data());
      return false;
    }
    hwy::SetSupportedTargetsForTest(chosen);
  }
  *argc = out;
  argv[out] = nullptr;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (!SelectTarget(&argc, argv)) return 2;
  Register();
  const char* target = hwy::TargetName(hwy::SupportedAndGeneratedTargets().front());
  const char* quantize_target = hwy::TargetName(accelmath::mx::detail::QuantizeTarget());
  std::fprintf(stderr, "bench_mx: Highway target %s (quantize: %s)\n", target, quantize_target);
  benchmark::AddCustomContext("hwy_target", target);
  benchmark::AddCustomContext("hwy_target_quantize", quantize_target);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
