// accelmath: the command-line tool (docs in README.md and docs/ndtri.md).
//   run      apply an op to a float32 .npy file
//   verify   compare two .npy files under a precision standard
//   sweep    exhaustive or sampled accuracy sweep against the reference oracle
//   oracle-check  validate the double-precision oracle against MPFR
//   quantize / dequantize   MX block quantization of .npy files (docs/mx.md)
//   mx-sweep the MX element codecs against the reference model, every float32 or sampled
//   atomic-table  the atomic add/max/min boundary table of a type, or a check against a CSV
//   atomic-sweep  atomic results vs the reference model: every float16/bfloat16 pair, or sampled
//   report   the built-in cases, one table
// Exit codes: 0 success / pass, 1 check failed, 2 bad input or usage.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/verify.h"
#include "accuracy/oracle.h"
#include "accuracy/sweep.h"
#include "cli/atomic_cmd.h"
#include "cli/mx_cmd.h"
#include "cli/report.h"
#include "io/npy.h"

namespace {

using accelmath::io::NpyArray;
using accelmath::io::NpyError;

constexpr int kBadInput = 2;

int Error(const std::string& msg) {
  std::fprintf(stderr, "accelmath: error: %s\n", msg.c_str());
  return kBadInput;
}

accelmath::sweep::Variant ParseVariant(const std::string& s) {
  return s == "taskbook" ? accelmath::sweep::Variant::kTaskbook : accelmath::sweep::Variant::kDefault;
}

int Run(const std::string& op, const std::string& variant, const std::string& in, const std::string& out) {
  if (op != "ndtri") return Error("unknown op '" + op + "' (available: ndtri)");
  try {
    NpyArray a = accelmath::io::read_npy(in);
    if (a.descr != "<f4") return Error(in + ": dtype '" + a.descr + "', expected float32 ('<f4')");
    const std::size_t n = a.count();
    std::vector<float> src(n), dst(n);
    std::memcpy(src.data(), a.data.data(), 4 * n);
    const accelmath::Status s = ParseVariant(variant) == accelmath::sweep::Variant::kDefault
                                    ? accelmath::ndtri(dst, src)
                                    : accelmath::ndtri_taskbook(dst, src);
    if (s != accelmath::Status::kOk) return Error(accelmath::status_message(s));
    std::memcpy(a.data.data(), dst.data(), 4 * n);
    accelmath::io::write_npy(out, a);  // same shape and memory order as the input
  } catch (const NpyError& e) {
    return Error(e.what());
  }
  return 0;
}

accelmath::verify::DType DTypeOf(const std::string& descr) {
  if (descr == "<f2") return accelmath::verify::DType::kFloat16;
  if (descr == "<f8") return accelmath::verify::DType::kFloat64;
  return accelmath::verify::DType::kFloat32;
}

int Verify(const std::string& golden_path, const std::string& actual_path, const std::string& standard,
           accelmath::verify::Options o, std::size_t show) {
  using accelmath::verify::Standard;
  std::vector<double> g, a;
  try {
    const NpyArray G = accelmath::io::read_npy(golden_path), A = accelmath::io::read_npy(actual_path);
    if (G.descr != A.descr) return Error("dtype mismatch: golden '" + G.descr + "', actual '" + A.descr + "'");
    if (G.shape != A.shape) return Error("shape mismatch: golden " + G.shape_string() + ", actual " + A.shape_string());
    if (G.fortran_order != A.fortran_order) return Error("memory order mismatch (fortran_order differs)");
    g = accelmath::io::to_doubles(G, golden_path);
    a = accelmath::io::to_doubles(A, actual_path);
    o.dtype = DTypeOf(G.descr);
  } catch (const NpyError& e) {
    return Error(e.what());
  }
  o.standard = standard == "mere-mare" ? Standard::kMereMare : Standard::kDualThreshold;
  o.worst_count = show;
  const auto r = accelmath::verify::check(g, a, o);
  std::printf("verdict: %s\n", r.pass ? "PASS" : "FAIL");
  std::printf("elements: %zu\n", r.count);
  if (o.standard == Standard::kDualThreshold) {
    std::printf("standard: dual threshold (atol %g, rtol %g), max error ratio %g\n", r.atol, r.rtol, r.max_error_ratio);
    std::printf("errors: %zu (class mismatches %zu), error ratio %.6e\n", r.errors, r.class_mismatches, r.error_ratio);
  } else {
    std::printf("standard: MERE < %g and MARE < %g\n", r.mere_threshold, 10 * r.mere_threshold);
    std::printf("MERE: %.6e  MARE: %.6e  class mismatches: %zu\n", r.mere, r.mare, r.class_mismatches);
  }
  std::printf("max abs error: %.6e  max rel error: %.6e  max ulp error: %.4f\n", r.max_abs, r.max_rel, r.max_ulp);
  if (!r.worst.empty()) {
    std::printf("worst elements (flat index, golden, actual, abs, rel, ulp):\n");
    for (const auto& e : r.worst) {
      std::printf("  %10zu  %-16.9g %-16.9g %-12.4e %-12.4e %.3f%s\n", e.index, e.golden, e.actual, e.abs_error,
                  e.rel_error, e.ulp_error, e.class_mismatch ? "  (class mismatch)" : "");
    }
  }
  return r.pass ? 0 : 1;
}

int Sweep(const std::string& op, const std::string& variant, unsigned threads, std::size_t sample, std::uint64_t seed,
          bool quiet, double max_ulp) {
  if (op != "ndtri") return Error("unknown op '" + op + "' (available: ndtri)");
  const auto v = ParseVariant(variant);
  accelmath::sweep::Result r;
  std::string set;
  if (sample == 0) {
    set = "every float32 p in [0, 1]";
    r = accelmath::sweep::run_all(v, threads, !quiet);
  } else {
    const auto in = accelmath::sweep::sample(sample, seed);
    set = std::to_string(sample) + " random inputs (seed " + std::to_string(seed) + ") + " +
          std::to_string(in.size() - sample) + " edge cases";
    r = accelmath::sweep::run_inputs(v, in, threads, !quiet);
  }
  accelmath::sweep::print(r, v, set, stdout);
  if (max_ulp >= 0 && !(r.max_ulp <= max_ulp)) {
    std::printf("FAIL: max ulp %.6f exceeds --max-ulp %g\n", r.max_ulp, max_ulp);
    return 1;
  }
  return 0;
}

int OracleCheck(const std::string& op, std::size_t samples, std::uint64_t seed, double limit) {
  if (op != "ndtri") return Error("unknown op '" + op + "' (available: ndtri)");
  auto in = accelmath::sweep::sample(samples, seed);
  double worst = 0;
  float worst_p = 0;
  std::size_t n = 0;
  for (float p : in) {
    if (!(p > 0 && p < 1)) continue;
    const double ref = accelmath::oracle::ndtri_mpfr(p);
    const double e = std::fabs(accelmath::oracle::ndtri(p) - ref) / accelmath::oracle::ulp_f32(ref);
    if (e > worst) worst = e, worst_p = p;
    ++n;
  }
  std::printf("oracle::ndtri vs MPFR (200-bit Newton) on %zu inputs in (0, 1) (%zu random, seed %llu, + edge cases):\n",
              n, samples, static_cast<unsigned long long>(seed));
  std::printf("  max |oracle - mpfr| = %.3e float32 ulp at p = %.9g\n", worst, worst_p);
  if (!(worst <= limit)) {
    std::printf("FAIL: exceeds %g ulp\n", limit);
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"accelmath: accelerator-style numerical kernels and the tools to check them"};
  app.require_subcommand(1);

  std::string op = "ndtri", variant = "default", in, out;
  auto* run = app.add_subcommand("run", "apply an op to a float32 .npy file (any shape; the output keeps it)");
  run->add_option("--op", op, "operation")->check(CLI::IsMember({"ndtri"}));
  run->add_option("--variant", variant, "default | taskbook")->check(CLI::IsMember({"default", "taskbook"}));
  run->add_option("--in", in, "input .npy (float32)")->required();
  run->add_option("--out", out, "output .npy")->required();

  std::string golden, actual, standard = "dual";
  accelmath::verify::Options vo;
  std::size_t show = 10;
  auto* verify = app.add_subcommand("verify", "compare actual with golden under a precision standard");
  verify->add_option("--golden", golden, "golden .npy (float16/32/64)")->required();
  verify->add_option("--actual", actual, "actual .npy (same dtype and shape)")->required();
  verify->add_option("--standard", standard, "dual | mere-mare")->check(CLI::IsMember({"dual", "mere-mare"}));
  verify->add_option("--atol", vo.atol, "dual threshold: absolute (default 1e-4; 1e-3 for float16)");
  verify->add_option("--rtol", vo.rtol, "dual threshold: relative (default as --atol)");
  verify->add_option("--max-error-ratio", vo.max_error_ratio, "dual threshold: allowed error ratio (default as --atol)");
  verify->add_option("--threshold", vo.mere_threshold, "MERE/MARE: T (default 2^-13; 2^-10 for float16)");
  verify->add_option("--show", show, "number of worst elements to print");

  std::string sweep_op = "ndtri";
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t sample = 0;
  std::uint64_t seed = 1;
  bool quiet = false;
  double max_ulp = -1;
  auto* sweep = app.add_subcommand("sweep", "accuracy sweep against the oracle: every input, or --sample N");
  sweep->add_option("op", sweep_op, "operation (ndtri)")->required();
  sweep->add_option("--variant", variant, "default | taskbook")->check(CLI::IsMember({"default", "taskbook"}));
  sweep->add_option("--threads", threads, "worker threads")->check(CLI::Range(1u, 1024u));
  sweep->add_option("--sample", sample, "run N random inputs plus the edge cases instead of every input");
  sweep->add_option("--seed", seed, "random seed for --sample");
  sweep->add_flag("--quiet", quiet, "no progress line");
  sweep->add_option("--max-ulp", max_ulp, "exit 1 if the max ulp error exceeds this");

  std::size_t oc_samples = 100000;
  double oc_limit = 1e-3;
  auto* oc = app.add_subcommand("oracle-check", "validate the double-precision oracle against MPFR");
  oc->add_option("op", sweep_op, "operation (ndtri)")->required();
  oc->add_option("--samples", oc_samples, "random inputs (edge cases are added)");
  oc->add_option("--seed", seed, "random seed");
  oc->add_option("--max-ulp", oc_limit, "exit 1 if the oracle is further than this (float32 ulp) from MPFR");

  accelmath::cli::QuantizeArgs qa;
  auto* quant = app.add_subcommand("quantize", "MX-quantize a .npy (float32, float16, or bfloat16 bits as uint16)");
  quant->add_option("--in", qa.in, "input .npy")->required();
  quant->add_option("--x-dtype", qa.x_dtype, "auto (from the file) | bfloat16 (uint16 bit patterns)");
  quant->add_option("--dst", qa.dst, "e4m3 | e5m2 | e3m2 | e2m3 | e2m1 | e1m2")->required();
  quant->add_option("--axis", qa.axis, "axis of the blocks (default -1)");
  quant->add_option("--block", qa.block, "block size, a multiple of 32 up to 1024 (default 32)");
  quant->add_option("--round", qa.round, "rint | round | floor (FP8: rint only)");
  quant->add_option("--scale-alg", qa.scale_alg, "0 | ocp, 1 | rceil (FP8), 2 | ceil, 3 | even");
  quant->add_option("--threads", qa.threads, "threads (0: automatic)");
  quant->add_option("--out-y", qa.out_y, "elements .npy, uint8 (FP4: last dim halved; FP6: 3 bytes per 4)")->required();
  quant->add_option("--out-scale", qa.out_scale, "E8M0 scales .npy, uint8, the mxscale shape")->required();

  accelmath::cli::DequantizeArgs da;
  auto* dequant = app.add_subcommand("dequantize", "MX-dequantize element and scale .npy files");
  dequant->add_option("--y", da.y, "elements .npy (uint8, as quantize wrote it)")->required();
  dequant->add_option("--scale", da.scale, "scales .npy (uint8)")->required();
  dequant->add_option("--dst", da.dst, "element format: e4m3 | e5m2 | e3m2 | e2m3 | e2m1 | e1m2")->required();
  dequant->add_option("--axis", da.axis, "axis of the blocks (default -1)");
  dequant->add_option("--block", da.block, "block size (default 32)");
  dequant->add_option("--out-dtype", da.out_dtype, "float32 | float16 | bfloat16 (written as uint16 bits)");
  dequant->add_option("--threads", da.threads, "threads (0: automatic)");
  dequant->add_option("--out", da.out, "output .npy")->required();

  std::string mx_dst = "all", mx_round = "all";
  std::uint64_t mx_sample = 0;
  auto* mxs = app.add_subcommand("mx-sweep", "MX element codecs vs the reference model: all 2^32 float32, or --sample N");
  mxs->add_option("--dst", mx_dst, "all | e4m3 | e5m2 | e3m2 | e2m3 | e2m1 | e1m2");
  mxs->add_option("--round", mx_round, "all | rint | round | floor");
  mxs->add_option("--sample", mx_sample, "N random float32 patterns instead of all 2^32");
  mxs->add_option("--seed", seed, "random seed for --sample");
  mxs->add_option("--threads", threads, "worker threads")->check(CLI::Range(1u, 1024u));

  std::string at_dtype = "half", at_check;
  auto* atab = app.add_subcommand("atomic-table", "atomic add/max/min boundary results of a type, as CSV (or --check a CSV)");
  atab->add_option("--dtype", at_dtype, "half | bf16 | float | int8 | int16 | int32 | int64");
  atab->add_option("--check", at_check, "compare every row of this CSV (same columns) with the library instead");
  std::string as_dtype = "all";
  std::uint64_t as_sample = 0;
  auto* aswp = app.add_subcommand("atomic-sweep", "atomic ops vs the reference model: every float16/bfloat16 pair, or --sample N");
  aswp->add_option("--dtype", as_dtype, "all | half | bf16 | float | int8 | int16 | int32 | int64 (float, ints: --sample)");
  aswp->add_option("--sample", as_sample, "N random operand pairs (plus the boundary pairs) instead of every pair");
  aswp->add_option("--seed", seed, "random seed for --sample");
  aswp->add_option("--threads", threads, "worker threads")->check(CLI::Range(1u, 1024u));

  auto* rep = app.add_subcommand("report", "run the built-in cases and print one table");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kBadInput;
  }
  if (*run) return Run(op, variant, in, out);
  if (*verify) return Verify(golden, actual, standard, vo, show);
  if (*sweep) return Sweep(sweep_op, variant, threads, sample, seed, quiet, max_ulp);
  if (*oc) return OracleCheck(sweep_op, oc_samples, seed, oc_limit);
  if (*quant) return accelmath::cli::quantize_cmd(qa);
  if (*dequant) return accelmath::cli::dequantize_cmd(da);
  if (*mxs) return accelmath::cli::mx_sweep(mx_dst, mx_round, mx_sample, seed, threads);
  if (*atab) return accelmath::cli::atomic_table(at_dtype, at_check, stdout);
  if (*aswp) return accelmath::cli::atomic_sweep(as_dtype, as_sample, seed, threads);
  if (*rep) {
    const int a = accelmath::cli::report(stdout);
    const int b = accelmath::cli::mx_report(stdout);
    const int c = accelmath::cli::atomic_report(stdout);
    return a != 0 ? a : b != 0 ? b : c;
  }
  return kBadInput;
}
