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

// One row per registry function: the accuracy on a sample (2^20 random inputs plus the edge cases,
// against the function's oracle; a function of two inputs: its structured sample of 2^20 pairs plus
// the edge pairs), its bit-exact special values, and its throughput at 64K elements, one thread,
// beside the C library's scalar float function (the row's libm column, looked up at run time) in
// the same run. Inputs for the speed: the sample itself (every class of input, specials included),
// a different window per repetition.
int report(std::FILE* out) {
  constexpr std::size_t kSample = 1 << 20;
  constexpr std::size_t kBench = 1 << 16;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::fprintf(out, "accelmath report: every math function (accuracy: %zu random inputs + edge cases vs the oracle;\n",
               kSample);
  std::fprintf(out, "speed: %zu mixed inputs, one thread, median of 15, vs the C library's float function)\n\n", kBench);
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
    // The inputs (sample2: a two-input row's second inputs, zeros for the others).
    std::vector<float> sample, sample2;
    sweep::Result r;
    if (f.inputs() == 2) {
      sweep::PairSample(kSample, 20260715, &f).materialise(sample, sample2);
      r = sweep::run_pairs(f, *o, sample, sample2, threads, nullptr);
    } else {
      sample = sweep::sample(kSample, 20260715, &f);
      sample2.assign(sample.size(), 0.0f);
      r = sweep::run_inputs(f, *o, sample, threads, false);
    }
    const auto same = [](float y, float want) {
      return std::isnan(want) ? std::isnan(y) : (y == want && std::signbit(y) == std::signbit(want));
    };
    std::size_t special_ok = 0;
    for (const Special& s : f.specials) {
      float y1 = 0, y2 = 0;
      f.run_scalar(s.in, s.in2, &y1, &y2);
      special_ok += same(y1, s.out) && (f.outputs() == 1 || same(y2, s.out2));
    }
    std::vector<float> y(kBench), y2(kBench);
    std::size_t off = 0;
    const auto window = [&] { off = (off + kBench) % (sample.size() - kBench); return off; };
    const double t = median_seconds([&] {
      const std::size_t at = window();
      f.run(y, y2, std::span<const float>(sample.data() + at, kBench), std::span<const float>(sample2.data() + at, kBench),
            kBench);
    }, 15);
    std::string anchor = "-";
    void* g = *f.libm && f.outputs() == 1 ? dlsym(RTLD_DEFAULT, f.libm) : nullptr;
    if (g) {
      const double tg = median_seconds([&] {
        const std::size_t at = window();
        const float *x = sample.data() + at, *x2 = sample2.data() + at;
        if (f.inputs() == 2) {
          const auto g2 = reinterpret_cast<float (*)(float, float)>(g);
          for (std::size_t i = 0; i < kBench; ++i) y[i] = g2(x[i], x2[i]);
        } else {
          const auto g1 = reinterpret_cast<float (*)(float)>(g);
          for (std::size_t i = 0; i < kBench; ++i) y[i] = g1(x[i]);
        }
      }, 15);
      char b[64];
      std::snprintf(b, sizeof b, "%.1fx %s", tg / t, f.libm);
      anchor = b;
    }
    const bool cann = r.dual_error_ratio() <= 1e-4;
    const bool ok = r.max_ulp <= f.bound_ulp && special_ok == f.specials.size() && r.special_mismatches == 0 && cann &&
                    r.pair_mismatches == 0;
    if (!ok) rc = 1;
    char verdict[64], specials[32], rounded[32], max_ulp[32];
    std::snprintf(verdict, sizeof verdict, "%s (%.2e)", cann ? "PASS" : "FAIL", r.dual_error_ratio());
    std::snprintf(specials, sizeof specials, "%zu/%zu", special_ok, f.specials.size());
    if (f.outputs() == 1) {
      std::snprintf(rounded, sizeof rounded, "%.3f%%", 100.0 * double(r.correctly_rounded) / double(r.count));
      std::snprintf(max_ulp, sizeof max_ulp, "%.4f", r.max_ulp);
    } else {  // two results: bit-identical to its parts (their rows give the accuracy), or not
      std::snprintf(rounded, sizeof rounded, "%s", "(parts)");
      std::snprintf(max_ulp, sizeof max_ulp, "%s", r.pair_mismatches ? "DIFFERS" : "=parts");
      std::snprintf(verdict, sizeof verdict, "%s", "(parts)");
    }
    std::fprintf(out, "%-15s %-6g %-10s %-10s %-9s %-26s %-10.1f %s%s\n", f.name, f.bound_ulp, max_ulp, rounded,
                 specials, verdict, kBench / t / 1e6, anchor.c_str(), ok ? "" : "  FAIL");
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
    if (f.outputs() != 1 || f.inputs() != 1 || !o || !o->fast) {  // per binade of one input: one-input rows
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
    std::vector<float> y(x.size()), y2(x.size());
    f.run(y, y2, x, x, x.size());
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
  std::string functions_csv = "name,outputs,bound,libm,mkl,domain,inputs\n";
  for (const FunctionInfo& f : functions()) {
    functions_csv += std::string(f.name) + "," + std::to_string(f.outputs()) + "," + std::to_string(f.bound_ulp) + "," +
                     f.libm + "," + f.mkl + ",\"" + f.domain + "\"," + std::to_string(f.inputs()) + "\n";
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
