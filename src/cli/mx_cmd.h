// The MX subcommands of the accelmath CLI: quantize, dequantize (of .npy arrays and of safetensors
// checkpoints), mx-sweep, and the report lines.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace accelmath::cli {

struct QuantizeArgs {
  std::string in, x_dtype = "auto", dst, round = "rint", scale_alg = "0", out_y, out_scale;
  int64_t axis = -1, block = 32;
  int threads = 0;
};
struct DequantizeArgs {
  std::string y, scale, dst, out_dtype = "float32", out;
  int64_t axis = -1, block = 32;
  int threads = 0;
};

int quantize_cmd(const QuantizeArgs& a);
int dequantize_cmd(const DequantizeArgs& a);

// A whole safetensors checkpoint (src/cli/checkpoint_cmd.cc, docs/mx.md "Checkpoints").
struct CheckpointQuantizeArgs {
  std::string in, out, dst, round = "rint", scale_alg = "ocp", include, exclude;
  int64_t block = 32;
  bool gguf = false, quiet = false;
  int threads = 0;
};
struct CheckpointDequantizeArgs {
  std::string in, out;
  bool quiet = false;
  int threads = 0;
};
int quantize_checkpoint(const CheckpointQuantizeArgs& a);
int dequantize_checkpoint(const CheckpointDequantizeArgs& a);
// Every float32 pattern (or `sample` random ones plus edge cases) through the SIMD codec and the
// reference model; dst "all" and round "all" loop. Exit 1 on any difference. A progress line on
// stderr (cli/progress.h) unless `quiet`.
int mx_sweep(const std::string& dst, const std::string& round, uint64_t sample, uint64_t seed, unsigned threads,
             bool quiet = false);
// Report lines per format: round-trip relative RMSE on built-in samples, model check, speed.
int mx_report(std::FILE* out);

}  // namespace accelmath::cli
