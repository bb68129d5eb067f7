// The MX subcommands of the accelmath CLI: quantize, dequantize, mx-sweep, and the report lines.
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
// Every float32 pattern (or `sample` random ones plus edge cases) through the SIMD codec and the
// reference model; dst "all" and round "all" loop. Exit 1 on any difference. A progress line on
// stderr (cli/progress.h) unless `quiet`.
int mx_sweep(const std::string& dst, const std::string& round, uint64_t sample, uint64_t seed, unsigned threads,
             bool quiet = false);
// Report lines per format: round-trip relative RMSE on built-in samples, model check, speed.
int mx_report(std::FILE* out);

}  // namespace accelmath::cli
