#include "cli/report.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <hwy/targets.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/cos_pi.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <boost/math/special_functions/sin_pi.hpp>

#include "accelmath/registry.h"
#include "accuracy/oracle.h"
#include "accuracy/sweep.h"
#include "cli/atomic_cmd.h"
#include "cli/mx_cmd.h"
#include "cli/progress.h"
#include "io/npy.h"
#include "report_figures_py.h"  // generated from tools/report/figures.py: kReportFiguresPy

namespace accelmath::cli {

double median_seconds(const std::function<void()>& fn, int reps) {
  std::vector<double> t;
  fn();  // warm-up
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2];
}

namespace {

std::uint32_t BitsOf(float f) { return std::bit_cast<std::uint32_t>(f); }

// Whether a special value came out: floats bit for bit (any NaN for a NaN), ints equal.
bool SameValue(const FunctionInfo& f, int k, const Value& got, const Value& want) {
  if (f.output_type(k) != ElementType::kF32) return got.i == want.i;
  return std::isnan(want.f) ? std::isnan(got.f) : BitsOf(got.f) == BitsOf(want.f);
}

// One special value through the per-element function: its inputs from the Value members of their
// types (a row's four elements for a function of rows), its results into Values.
bool SpecialHolds(const FunctionInfo& f, const Special& s) {
  float xf[4];
  std::int32_t xi[4];
  const void* in[4] = {nullptr, nullptr, nullptr, nullptr};
  std::size_t row_length = 0;
  if (f.shape == Shape::kRows) {
    for (int k = 0; k < 4; ++k) xf[k] = s.in[k].f;
    in[0] = xf, row_length = 4;
  } else {
    for (int k = 0; k < f.inputs(); ++k) {
      xf[k] = s.in[k].f, xi[k] = s.in[k].i;
      in[k] = f.input_type(k) == ElementType::kF32 ? static_cast<const void*>(&xf[k]) : static_cast<const void*>(&xi[k]);
    }
  }
  float yf[2] = {0, 0};
  std::int32_t yi[2] = {0, 0};
  std::uint8_t yu[2] = {0, 0};
  void* out[2];
  for (int k = 0; k < 2; ++k) {
    const ElementType t = k < f.outputs() ? f.output_type(k) : ElementType::kF32;
    out[k] = t == ElementType::kF32 ? static_cast<void*>(&yf[k]) : t == ElementType::kI32 ? static_cast<void*>(&yi[k])
                                                                                          : static_cast<void*>(&yu[k]);
  }
  f.run_scalar(out, in, row_length);
  bool ok = true;
  for (int k = 0; k < f.outputs(); ++k) {
    Value got;
    got.f = yf[k], got.i = f.output_type(k) == ElementType::kU8 ? yu[k] : yi[k];
    ok = ok && SameValue(f, k, got, s.out[k]);
  }
  return ok;
}

// The C library's function of the row's libm column, timed on the same inputs as ours: one call per
// result, through the signature of its shape (nullptr: none to time).
std::function<void(const void* const*, void* const*, std::size_t)> LibmLoop(const FunctionInfo& f) {
  void* g = *f.libm ? dlsym(RTLD_DEFAULT, f.libm) : nullptr;
  if (!g) return nullptr;
  switch (f.shape) {
    case Shape::kUnary:
      return [g](const void* const* in, void* const* out, std::size_t n) {
        const auto fn = reinterpret_cast<float (*)(float)>(g);
        const float* x = static_cast<const float*>(in[0]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(x[i]);
      };
    case Shape::kBinary:
      return [g](const void* const* in, void* const* out, std::size_t n) {
        const auto fn = reinterpret_cast<float (*)(float, float)>(g);
        const float *a = static_cast<const float*>(in[0]), *b = static_cast<const float*>(in[1]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(a[i], b[i]);
      };
    case Shape::kTernary:
      return [g](const void* const* in, void* const* out, std::size_t n) {
        const auto fn = reinterpret_cast<float (*)(float, float, float)>(g);
        const float *a = static_cast<const float*>(in[0]), *b = static_cast<const float*>(in[1]),
                    *c = static_cast<const float*>(in[2]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(a[i], b[i], c[i]);
      };
    case Shape::kToInt32:
      return [g](const void* const* in, void* const* out, std::size_t n) {
        const auto fn = reinterpret_cast<int (*)(float)>(g);
        const float* x = static_cast<const float*>(in[0]);
        std::int32_t* y = static_cast<std::int32_t*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(x[i]);
      };
    case Shape::kSplitExponent:
      return [g](const void* const* in, void* const* out, std::size_t n) {
        const auto fn = reinterpret_cast<float (*)(float, int*)>(g);
        const float* x = static_cast<const float*>(in[0]);
        float* m = static_cast<float*>(out[0]);
        std::int32_t* e = static_cast<std::int32_t*>(out[1]);
        for (std::size_t i = 0; i < n; ++i) {
          int k = 0;
          m[i] = fn(x[i], &k);
          e[i] = k;
        }
      };
    case Shape::kScaleExponent:
      return [g](const void* const* in, void* const* out, std::size_t n) {
        const auto fn = reinterpret_cast<float (*)(float, int)>(g);
        const float* x = static_cast<const float*>(in[0]);
        const std::int32_t* k = static_cast<const std::int32_t*>(in[1]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(x[i], k[i]);
      };
    default:
      return nullptr;  // two results (UnaryPair), four inputs, predicates, rows: no C function to compare
  }
}

}  // namespace

// One row per registry function: the accuracy on a sample (2^20 random inputs plus the edge cases,
// against the function's oracle; a function of several inputs: its structured sample of 2^20 cases
// plus the edge cases; of rows: 2^16 random rows plus the edge rows), its bit-exact special values
// (through the per-element function), and its throughput at 64K results (rows: 64K elements in rows
// of 16), one thread, beside the C library's scalar function (the row's libm column, looked up at
// run time) in the same run. Inputs for the speed: the sample itself (every class of input, specials
// included), a different window per repetition.
int report(std::FILE* out) {
  constexpr std::size_t kSample = 1 << 20;
  constexpr std::size_t kBench = 1 << 16;
  constexpr std::size_t kBenchRow = 16;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::fprintf(out, "accelmath report: every math function (accuracy: %zu random inputs + edge cases vs the oracle;\n",
               kSample);
  std::fprintf(out, "speed: %zu mixed inputs, one thread, median of 15, vs the C library's function)\n\n", kBench);
  std::fprintf(out, "%-15s %-6s %-10s %-10s %-9s %-26s %-10s %s\n", "function", "bound", "max ulp", "rounded", "specials",
               "CANN 1e-4 (error ratio)", "Melem/s", "vs libm");
  int rc = 0;
  for (const FunctionInfo& f : functions()) {
    const oracle::Oracle* o = oracle::find_oracle(f.name);
    if (!o) {
      std::fprintf(out, "%-15s FAIL: no oracle row\n", f.name);
      rc = 1;
      continue;
    }
    const bool rows = f.shape == Shape::kRows;
    const auto cases = sweep::sample_for(f, rows ? kSample / 16 : kSample, 20260715);
    const sweep::Result r = sweep::run(f, *o, *cases, threads, nullptr);
    std::size_t special_ok = 0;
    for (const Special& s : f.specials) special_ok += SpecialHolds(f, s);
    // The speed: windows of kBench results over the sample's inputs (rows: rows of kBenchRow
    // elements from a one-input sample).
    std::vector<std::uint32_t> in[4];
    if (rows) {
      const std::vector<float> x = sweep::sample(kSample, 20260715, &f);
      in[0].resize(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) in[0][i] = BitsOf(x[i]);
    } else {
      cases->materialise(in);
    }
    const std::size_t per = rows ? kBenchRow : 1;  // elements per result
    const std::size_t results = rows ? kBench / kBenchRow : kBench;
    const std::size_t pool = in[0].size() / per;  // results the pool holds
    std::vector<std::uint32_t> y(kBench), y2(kBench);
    void* outs[2] = {y.data(), y2.data()};
    std::size_t off = 0;
    const auto window = [&](const void** src) {
      off = (off + results) % (pool - results);
      for (int k = 0; k < 4; ++k) src[k] = in[k].empty() ? nullptr : in[k].data() + off * per;
    };
    const double t = median_seconds([&] {
      const void* src[4];
      window(src);
      f.run(outs, src, results, rows ? kBenchRow : 0);
    }, 15);
    std::string anchor = "-";
    if (const auto loop = LibmLoop(f)) {
      const double tg = median_seconds([&] {
        const void* src[4];
        window(src);
        loop(src, outs, results);
      }, 15);
      char b[64];
      std::snprintf(b, sizeof b, "%.1fx %s", tg / t, f.libm);
      anchor = b;
    }
    const bool cann = r.dual_error_ratio() <= 1e-4;
    const double limit = f.bound_ulp == 0 ? 0.5 : f.bound_ulp;
    const bool ok = r.passed(limit) && special_ok == f.specials.size() && r.special_mismatches == 0 && cann;
    if (!ok) rc = 1;
    char verdict[64], specials[32], rounded[32], max_ulp[32];
    std::snprintf(verdict, sizeof verdict, "%s (%.2e)", cann ? "PASS" : "FAIL", r.dual_error_ratio());
    std::snprintf(specials, sizeof specials, "%zu/%zu", special_ok, f.specials.size());
    std::snprintf(rounded, sizeof rounded, "%.3f%%", r.count ? 100.0 * double(r.correctly_rounded) / double(r.count) : 0.0);
    if (f.outputs() == 2 && f.shape == Shape::kUnaryPair) {  // bit-identical to its parts (their rows give the accuracy), or not
      std::snprintf(rounded, sizeof rounded, "%s", "(parts)");
      std::snprintf(max_ulp, sizeof max_ulp, "%s", r.pair_mismatches ? "DIFFERS" : "=parts");
      std::snprintf(verdict, sizeof verdict, "%s", "(parts)");
    } else if (f.output_type(0) != ElementType::kF32) {  // int32 or 0/1: right or not
      std::snprintf(max_ulp, sizeof max_ulp, "%s", r.mismatches ? "WRONG" : "exact");
      std::snprintf(verdict, sizeof verdict, "%s", "-");
    } else {
      std::snprintf(max_ulp, sizeof max_ulp, "%.4f", r.max_ulp);
    }
    std::fprintf(out, "%-15s %-6g %-10s %-10s %-9s %-26s %-10.1f %s%s\n", f.name, f.bound_ulp, max_ulp, rounded,
                 specials, verdict, double(results * per) / t / 1e6, anchor.c_str(), ok ? "" : "  FAIL");
  }
  return rc;
}

namespace {

namespace fs = std::filesystem;

// argv[0] with the arguments, stdin from `input` (when not null), stdout and stderr into the files
// named (when not empty); returns the exit status, or -1 when the program could not be started.
int RunProgram(const std::vector<std::string>& args, const std::string* input, const std::string& out_path,
               const std::string& err_path) {
  int pipe_fd[2] = {-1, -1};
  if (input && pipe(pipe_fd) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (input) {
      dup2(pipe_fd[0], STDIN_FILENO);
      close(pipe_fd[0]);
      close(pipe_fd[1]);
    }
    const auto redirect = [](const std::string& path, int fd) {
      if (path.empty()) return;
      const int f = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (f >= 0) dup2(f, fd), close(f);
    };
    redirect(out_path, STDOUT_FILENO);
    redirect(err_path, STDERR_FILENO);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  if (input) {
    close(pipe_fd[0]);
    // A child that exits before reading everything must not kill us with SIGPIPE: write fails instead.
    struct sigaction ignore = {}, old = {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &old);
    const char* p = input->data();
    for (std::size_t left = input->size(); left > 0;) {
      const ssize_t w = write(pipe_fd[1], p, left);
      if (w <= 0) break;
      p += w, left -= static_cast<std::size_t>(w);
    }
    close(pipe_fd[1]);
    sigaction(SIGPIPE, &old, nullptr);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string ExeDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
}

// The interpreter of the figures: $ACCELMATH_PYTHON, else the one the build was configured with
// (when it is still there), else python3 on PATH.
std::string Python() {
  if (const char* env = std::getenv("ACCELMATH_PYTHON"); env && *env) return env;
#ifdef ACCELMATH_PYTHON
  if (access(ACCELMATH_PYTHON, X_OK) == 0) return ACCELMATH_PYTHON;
#endif
  return "python3";
}

bool WriteText(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

// Boost.Math's float function for a registry row, where it has one (nullptr otherwise), for the
// accuracy figures; errors set errno and return NaN or +-inf instead of throwing.
using BoostPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
    boost::math::policies::pole_error<boost::math::policies::errno_on_error>,
    boost::math::policies::overflow_error<boost::math::policies::errno_on_error>,
    boost::math::policies::evaluation_error<boost::math::policies::errno_on_error>>;
float (*BoostAnchor(std::string_view name))(float) {
  if (name == "sinpi") return [](float x) { return boost::math::sin_pi(x, BoostPolicy()); };
  if (name == "cospi") return [](float x) { return boost::math::cos_pi(x, BoostPolicy()); };
  if (name == "expm1") return [](float x) { return boost::math::expm1(x, BoostPolicy()); };
  if (name == "log1p") return [](float x) { return boost::math::log1p(x, BoostPolicy()); };
  if (name == "ndtri") {
    return [](float p) {
      if (!(p >= 0.0f && p <= 1.0f)) return std::numeric_limits<float>::quiet_NaN();
      return boost::math::quantile(boost::math::normal_distribution<float, BoostPolicy>(), p);
    };
  }
  return nullptr;
}

// Per one-result function: 64 random inputs in every binade [2^k, 2^(k+1)), k = -149 .. 127, one in
// each 64th of it (all of it where it holds fewer), both signs, the oracle's double tier and the
// library's results, as an (n, 3) binary64 .npy: x, reference, accelmath; and Boost's as a fourth
// column where it has the function.
void WriteAccuracySamples(const fs::path& data, Progress& progress) {
  constexpr int kPerBinade = 64;
  std::mt19937 rng(20261201);
  for (const FunctionInfo& f : functions()) {
    const oracle::Oracle* o = oracle::find_oracle(f.name);
    if (f.shape != Shape::kUnary || !o || !o->fast) {  // per binade of one input: one-input rows with tiers
      progress.add(1);
      continue;
    }
    std::vector<float> x;
    for (std::uint32_t sign = 0; sign < 2; ++sign) {
      for (int k = -149; k <= 127; ++k) {
        // The binade's bit patterns: [first, first + count).
        const std::uint32_t first = k >= -126 ? std::uint32_t(k + 127) << 23 : 1u << (k + 149);
        const std::uint32_t count = k >= -126 ? 1u << 23 : 1u << (k + 149);
        for (std::uint32_t i = 0; i < std::min<std::uint32_t>(kPerBinade, count); ++i) {
          // One in each of 64 equal slices of the binade: spread, never twice the same.
          const std::uint32_t slice = count / kPerBinade;
          const std::uint32_t offset = count <= kPerBinade ? i : i * slice + rng() % slice;
          x.push_back(std::bit_cast<float>(sign << 31 | (first + offset)));
        }
      }
    }
    std::vector<float> y(x.size());
    const void* src[1] = {x.data()};
    void* dst[1] = {y.data()};
    f.run(dst, src, x.size());
    const auto boost = BoostAnchor(f.name);
    const std::size_t cols = boost ? 4 : 3;
    io::NpyArray a;
    a.descr = "<f8";
    a.shape = {x.size(), cols};
    a.data.resize(x.size() * cols * sizeof(double));
    auto* d = reinterpret_cast<double*>(a.data.data());
    for (std::size_t i = 0; i < x.size(); ++i) {
      double* row = d + cols * i;
      row[0] = x[i], row[1] = o->fast(x[i]), row[2] = y[i];
      if (boost) row[3] = boost(x[i]);
    }
    io::write_npy((data / (std::string(f.name) + ".accuracy.npy")).string(), a);
    progress.add(1);
  }
}

// bench_math (built beside this program in a build tree; not installed) at 1K and 64K on the widest
// instruction set it accepts, as JSON; false when it is not there or fails.
bool RunBench(const fs::path& data, const std::string& exe_dir) {
  const std::string bench = exe_dir + "/bench_math";
  if (access(bench.c_str(), X_OK) != 0) return false;
  for (const char* target : {"--target=avx512", "--target=avx2", ""}) {
    std::vector<std::string> args = {bench, "--benchmark_filter=/(1024|65536)$", "--benchmark_min_time=0.02",
                                     "--benchmark_format=json"};
    if (*target) args.push_back(target);
    if (RunProgram(args, nullptr, (data / "bench.json").string(), (data / "bench.log").string()) == 0) return true;
  }
  return false;
}

}  // namespace

int report_with_figures(const std::string& dir) {
  const fs::path root(dir), data = root / "data";
  std::error_code ec;
  fs::create_directories(data, ec);
  if (ec) {
    std::fprintf(stderr, "accelmath: error: --out %s: cannot create the folder: %s\n", dir.c_str(),
                 ec.message().c_str());
    return 2;
  }
  // The text report, as `accelmath report` prints it, kept for report.md.
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* mem = open_memstream(&buf, &len);
  if (!mem) return 1;
  const int a = report(mem), b = mx_report(mem), c = atomic_report(mem);
  std::fclose(mem);
  const std::string text(buf, len);
  std::free(buf);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  const int rc = a != 0 ? a : b != 0 ? b : c;

  const std::string exe_dir = ExeDir();
  Progress progress("report figures", functions().size() + 3, "steps");
  bool ok = WriteText(root / "report.txt", text);
  std::string functions_csv = "name,outputs,bound,libm,mkl,domain,inputs,shape\n";
  const char* const kShapes[] = {"Unary", "UnaryPair", "Binary", "Ternary", "Quaternary", "ToInt32", "Predicate",
                                 "SplitExponent", "ScaleExponent", "Rows"};
  for (const FunctionInfo& f : functions()) {
    functions_csv += std::string(f.name) + "," + std::to_string(f.outputs()) + "," + std::to_string(f.bound_ulp) + "," +
                     f.libm + "," + f.mkl + ",\"" + f.domain + "\"," + std::to_string(f.inputs()) + "," +
                     kShapes[static_cast<int>(f.shape)] + "\n";
  }
  ok = ok && WriteText(data / "functions.csv", functions_csv);
  std::FILE* atomic_rows = std::fopen((data / "atomic-rows.csv").string().c_str(), "w");
  ok = ok && atomic_rows && atomic_report_rows(atomic_rows) == 0;
  if (atomic_rows) std::fclose(atomic_rows);
  progress.add(1);
  if (!ok) {
    std::fprintf(stderr, "accelmath: error: --out %s: cannot write the report's files\n", dir.c_str());
    return 2;
  }
  WriteAccuracySamples(data, progress);
  fs::remove(data / "bench.json", ec);
  if (!RunBench(data, exe_dir)) fs::remove(data / "bench.json", ec);
  progress.add(1);
  std::string hwy_target = "?";
  if (const auto t = hwy::SupportedAndGeneratedTargets(); !t.empty()) hwy_target = hwy::TargetName(t.front());
  WriteText(data / "machine.txt", "hwy_target=" + hwy_target + "\n");
  const std::string script(kReportFiguresPy);
  const int py = RunProgram({Python(), "-", root.string(), exe_dir}, &script, "", "");
  progress.add(1);
  progress.finish();
  if (py != 0) {
    std::fprintf(stderr, "accelmath: error: the figures need python3 with numpy and matplotlib (Debian: python3-numpy "
                         "python3-matplotlib); python3 exited with %d\n", py);
    return 1;
  }
  std::fprintf(stderr, "report: %s\n", (root / "report.md").string().c_str());
  return rc;
}

}  // namespace accelmath::cli
