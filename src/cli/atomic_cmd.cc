#include "cli/atomic_cmd.h"

#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "accelmath/atomic.h"
#include "accuracy/atomic_reference.h"
#include "atomic_boundary_csv.h"  // generated from tests/data/atomic/atomic-boundary.csv
#include "cli/progress.h"
#include "cli/threads.h"
#include "cli/report.h"

namespace accelmath::cli {
namespace {

namespace ref = atomic::reference;
using atomic::Mode;

struct TypeInfo {
  const char* name;  // as in the CSV's dtype column and --dtype
  ref::Type type;
  int bits;
  bool floating;
  std::vector<std::uint64_t> boundary;  // MIN, MAX, 0, -0, NaN, inf, -inf (as the type has them)
};

const std::vector<TypeInfo>& Types() {
  static const std::vector<TypeInfo> types = {
      {"half", ref::Type::kFloat16, 16, true, {0xFBFF, 0x7BFF, 0, 0x8000, 0x7E00, 0x7C00, 0xFC00}},
      {"bf16", ref::Type::kBFloat16, 16, true, {0xFF7F, 0x7F7F, 0, 0x8000, 0x7FC0, 0x7F80, 0xFF80}},
      {"float", ref::Type::kFloat32, 32, true,
       {0xFF7FFFFF, 0x7F7FFFFF, 0, 0x80000000, 0x7FC00000, 0x7F800000, 0xFF800000}},
      {"int8", ref::Type::kInt8, 8, false, {0x80, 0x7F, 0}},
      {"int16", ref::Type::kInt16, 16, false, {0x8000, 0x7FFF, 0}},
      {"int32", ref::Type::kInt32, 32, false, {0x80000000, 0x7FFFFFFF, 0}},
      {"int64", ref::Type::kInt64, 64, false, {0x8000000000000000, 0x7FFFFFFFFFFFFFFF, 0}},
  };
  return types;
}

const TypeInfo* FindType(const std::string& name) {
  for (const TypeInfo& t : Types()) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

constexpr ref::Op kOps[] = {ref::Op::kAdd, ref::Op::kMax, ref::Op::kMin};
const char* OpName(ref::Op op) { return op == ref::Op::kAdd ? "add" : op == ref::Op::kMax ? "max" : "min"; }

// The element type of a ref::Type, for calling the library.
template <typename F>
auto WithType(ref::Type t, F&& f) {
  switch (t) {
    case ref::Type::kFloat16: return f(float16{});
    case ref::Type::kBFloat16: return f(bfloat16{});
    case ref::Type::kFloat32: return f(float{});
    case ref::Type::kInt8: return f(std::int8_t{});
    case ref::Type::kInt16: return f(std::int16_t{});
    case ref::Type::kInt32: return f(std::int32_t{});
    default: return f(std::int64_t{});
  }
}

template <typename T>
T FromBits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));  // little-endian: the low bytes
  return v;
}

template <typename T>
std::uint64_t ToBits(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// dst[i] = op(a[i], b[i]) through the library's element-wise form (bits in, bits out).
template <typename T>
void LibraryArray(ref::Op op, bool saturate, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                  std::uint64_t* out) {
  std::vector<T> dst(n), src(n);
  for (std::size_t i = 0; i < n; ++i) dst[i] = FromBits<T>(a[i]), src[i] = FromBits<T>(b[i]);
  const Mode mode = saturate ? Mode::kSaturate : Mode::kIeee;
  const std::span<T> d(dst);
  const std::span<const T> s(src);
  const Status st = op == ref::Op::kAdd ? atomic::add(d, s, mode) : op == ref::Op::kMax ? atomic::max(d, s, mode)
                                                                                          : atomic::min(d, s, mode);
  if (st != Status::kOk) {
    std::fprintf(stderr, "accelmath: internal error: %s\n", status_message(st));
    std::exit(1);
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = ToBits(dst[i]);
}

std::uint64_t Library(const TypeInfo& t, ref::Op op, bool saturate, std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  WithType(t.type, [&](auto v) { LibraryArray<decltype(v)>(op, saturate, &a, &b, 1, &r); });
  return r;
}

bool IsNaN(const TypeInfo& t, std::uint64_t bits) { return t.floating && std::isnan(ref::Decode(t.type, bits)); }

// Shortest text that reads back as the same value: 65504.0, -0.0, 3.3895314e38, nan, -inf, -128.
std::string Format(const TypeInfo& t, std::uint64_t bits) {
  if (!t.floating) {
    return std::to_string(WithType(t.type, [&](auto v) -> std::int64_t {
      if constexpr (std::is_integral_v<decltype(v)>) return FromBits<decltype(v)>(bits);
      return 0;
    }));
  }
  const double v = ref::Decode(t.type, bits);
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, float(v));  // exact: every value of these types is a float
  std::string s(buf, res.ptr);
  if (const auto e = s.find("e+"); e != std::string::npos) s.erase(e + 1, 1);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// Reads a value of the type; false when the text is not one (or not exactly representable).
bool Parse(const TypeInfo& t, const std::string& text, std::uint64_t* bits) {
  const char* s = text.c_str();
  char* end = nullptr;
  if (!t.floating) {
    errno = 0;
    const long long v = std::strtoll(s, &end, 10);
    if (end == s || end != s + text.size() || errno != 0) return false;  // a NUL inside: refused
    const std::uint64_t b = std::uint64_t(v);
    if (t.bits < 64 && (v < -(1ll << (t.bits - 1)) || v >= (1ll << (t.bits - 1)))) return false;
    *bits = t.bits == 64 ? b : b & ((std::uint64_t(1) << t.bits) - 1);
    return true;
  }
  const double v = std::strtod(s, &end);
  if (end == s || end != s + text.size()) return false;
  if (std::isnan(v) || std::isinf(v)) {
    *bits = ref::Encode(t.type, v);
    return true;
  }
  // Representable iff rounding to the type keeps the value: round through the library's types.
  const float f = float(v);
  std::uint64_t b;
  if (t.type == ref::Type::kFloat16) b = to_float16(f).bits;
  else if (t.type == ref::Type::kBFloat16) b = to_bfloat16(f).bits;
  else b = std::bit_cast<std::uint32_t>(f);
  if (ref::Decode(t.type, b) != v) return false;
  *bits = b;
  return true;
}

// Every field, empty ones included ("1/" is "1" and ""; "" is one empty field), so that a missing
// operand is an error rather than a row with nothing to check.
std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (const char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

struct CheckResult {
  int rows = 0, checks = 0;
  std::vector<std::string> differences;
  std::vector<std::string> lines;           // each row as read
  std::vector<std::array<bool, 2>> passed;  // each row: no difference in inf/nan mode, in saturation mode
  std::string error;  // a malformed file
};

// Every row of `csv` (the published columns), every '/' alternative, both operand orders, both
// modes, against the library. Results match when the bits are equal or both are NaN.
CheckResult CheckCsv(const TypeInfo& t, const std::string& csv) {
  CheckResult r;
  std::stringstream in(csv);
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF line ends (a file saved on Windows)
  if (line != "op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode") {
    r.error = "the first line is not the header op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode";
    return r;
  }
  for (int n = 2; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto f = Split(line, ',');
    const std::string where = "line " + std::to_string(n) + " (" + line + ")";
    if (f.size() != 6) return r.error = where + ": expected 6 columns", r;
    if (f[1] != t.name) return r.error = where + ": dtype '" + f[1] + "', expected '" + t.name + "' (--dtype)", r;
    ref::Op op;
    if (f[0] == "add") op = ref::Op::kAdd;
    else if (f[0] == "max") op = ref::Op::kMax;
    else if (f[0] == "min") op = ref::Op::kMin;
    else return r.error = where + ": unknown op '" + f[0] + "'", r;
    std::uint64_t a, want[2];
    if (!Parse(t, f[2], &a) || !Parse(t, f[4], &want[0]) || !Parse(t, f[5], &want[1])) {
      return r.error = where + ": a value that is not a " + t.name, r;
    }
    ++r.rows;
    std::array<bool, 2> ok = {true, true};
    for (const std::string& b_text : Split(f[3], '/')) {
      std::uint64_t b;
      if (!Parse(t, b_text, &b)) return r.error = where + ": '" + b_text + "' is not a " + t.name, r;
      for (const int mode : {0, 1}) {
        for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
          const std::uint64_t got = Library(t, op, mode == 1, x, y);
          ++r.checks;
          if (got != want[mode] && !(IsNaN(t, got) && IsNaN(t, want[mode]))) {
            ok[mode] = false;
            r.differences.push_back(f[0] + "(" + Format(t, x) + ", " + Format(t, y) + ") in " +
                                    (mode ? "saturation" : "inf/nan") + " mode: table " + Format(t, want[mode]) +
                                    ", library " + Format(t, got));
          }
        }
      }
    }
    r.lines.push_back(line);
    r.passed.push_back(ok);
  }
  if (r.rows == 0) r.error = "no rows after the header";
  return r;
}

}  // namespace

AtomicCsvCheck atomic_check_csv(const std::string& dtype, const std::string& csv) {
  AtomicCsvCheck out;
  const TypeInfo* t = FindType(dtype);
  if (!t) return out.error = "unknown dtype '" + dtype + "'", out;
  const CheckResult r = CheckCsv(*t, csv);
  out.rows = r.rows, out.checks = r.checks, out.differences = r.differences.size(), out.error = r.error;
  return out;
}

int atomic_table(const std::string& dtype, const std::string& check, std::FILE* out) {
  const TypeInfo* t = FindType(dtype);
  if (!t) {
    std::fprintf(stderr, "accelmath: error: unknown dtype '%s' (half, bf16, float, int8, int16, int32, int64)\n",
                 dtype.c_str());
    return 2;
  }
  if (!check.empty()) {
    // Only a regular file: a directory opens as a stream and reads as empty, /dev/zero never
    // ends, and a FIFO without a writer blocks the open. Reading stops past kMaxCsv bytes.
    constexpr std::size_t kMaxCsv = std::size_t{64} << 20;
    std::error_code ec;
    const auto st = std::filesystem::status(check, ec);
    if (std::filesystem::is_directory(st)) {
      std::fprintf(stderr, "accelmath: error: --check %s: is a directory, not a CSV file\n", check.c_str());
      return 2;
    }
    if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
      std::fprintf(stderr, "accelmath: error: --check %s: not a regular file (a device, FIFO or socket), not read\n",
                   check.c_str());
      return 2;
    }
    std::ifstream in(check, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "accelmath: error: cannot read %s\n", check.c_str());
      return 2;
    }
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      text.append(buf, static_cast<std::size_t>(in.gcount()));
      if (text.size() > kMaxCsv) {
        std::fprintf(stderr, "accelmath: error: --check %s: longer than %zu MiB (a boundary table is a few KiB); not read\n",
                     check.c_str(), kMaxCsv >> 20);
        return 2;
      }
    }
    if (in.bad()) {
      std::fprintf(stderr, "accelmath: error: cannot read %s\n", check.c_str());
      return 2;
    }
    const CheckResult r = CheckCsv(*t, text);
    if (!r.error.empty()) {
      std::fprintf(stderr, "accelmath: error: %s: %s\n", check.c_str(), r.error.c_str());
      return 2;
    }
    for (const std::string& d : r.differences) std::fprintf(out, "DIFFERENT  %s\n", d.c_str());
    std::fprintf(out, "%s: %d rows, %d checks (each operand pair in both orders and both modes): %zu different -> %s\n",
                 check.c_str(), r.rows, r.checks, r.differences.size(), r.differences.empty() ? "PASS" : "FAIL");
    return r.differences.empty() ? 0 : 1;
  }
  std::fprintf(out, "op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode\n");
  for (const ref::Op op : kOps) {
    for (const std::uint64_t a : t->boundary) {
      for (const std::uint64_t b : t->boundary) {
        std::fprintf(out, "%s,%s,%s,%s,%s,%s\n", OpName(op), t->name, Format(*t, a).c_str(), Format(*t, b).c_str(),
                     Format(*t, Library(*t, op, false, a, b)).c_str(), Format(*t, Library(*t, op, true, a, b)).c_str());
      }
    }
  }
  return 0;
}

int atomic_sweep(const std::string& dtype, std::uint64_t sample, std::uint64_t seed, unsigned threads, bool quiet) {
  std::vector<const TypeInfo*> types;
  for (const TypeInfo& t : Types()) {
    if (dtype == "all" ? (sample > 0 || t.type == ref::Type::kFloat16 || t.type == ref::Type::kBFloat16) : dtype == t.name) {
      types.push_back(&t);
    }
  }
  if (types.empty()) {
    std::fprintf(stderr, "accelmath: error: unknown dtype '%s' (all, half, bf16, float, int8, int16, int32, int64)\n",
                 dtype.c_str());
    return 2;
  }
  int rc = 0;
  for (std::size_t k = 0; k < types.size(); ++k) {
    const TypeInfo* t = types[k];
    const int bits = t->bits;
    const bool exhaustive = sample == 0;
    if (exhaustive && bits > 16) {
      std::fprintf(stderr, "accelmath: error: %s has 2^%d operand pairs; use --sample N\n", t->name, 2 * bits);
      return 2;
    }
    // Chunks of 65536 pairs: exhaustive chunk c is a = c, b = every pattern; sampled chunks are
    // random patterns (a quarter of them boundary values), the first chunk all boundary pairs.
    const std::uint64_t chunks = exhaustive ? (std::uint64_t(1) << bits) : std::max<std::uint64_t>(1, (sample + 65535) / 65536);
    const std::uint64_t mask = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    std::atomic<std::uint64_t> next{0}, checked{0}, wrong{0};
    std::mutex print;
    // Operand pairs in all: every chunk full, or `sample` with the first chunk at least all boundary pairs.
    const std::uint64_t n_boundary = std::uint64_t(t->boundary.size()) * t->boundary.size();
    const std::uint64_t pairs = exhaustive ? chunks * 65536 : sample + (n_boundary > std::min<std::uint64_t>(65536, sample)
                                                                             ? n_boundary - std::min<std::uint64_t>(65536, sample)
                                                                             : 0);
    Progress progress(std::string("atomic-sweep ") + t->name +
                          (types.size() > 1 ? " [" + std::to_string(k + 1) + "/" + std::to_string(types.size()) + "]" : ""),
                      pairs, "pairs", !quiet);
    auto worker = [&] {
      std::vector<std::uint64_t> a(65536), b(65536), got(65536);
      for (std::uint64_t c; (c = next.fetch_add(1)) < chunks;) {
        std::size_t n = 65536;
        if (exhaustive) {
          for (std::size_t i = 0; i < n; ++i) a[i] = c, b[i] = i;
        } else {
          std::mt19937_64 rng(seed * 1000003 + c);
          const auto& bd = t->boundary;
          n = std::size_t(std::min<std::uint64_t>(65536, sample - c * 65536));
          if (c == 0) n = std::max(n, bd.size() * bd.size());
          for (std::size_t i = 0; i < n; ++i) {
            if (c == 0 && i < bd.size() * bd.size()) a[i] = bd[i / bd.size()], b[i] = bd[i % bd.size()];
            else a[i] = (rng() % 4 ? rng() : bd[rng() % bd.size()]) & mask, b[i] = (rng() % 4 ? rng() : bd[rng() % bd.size()]) & mask;
          }
        }
        for (const ref::Op op : kOps) {
          for (const bool sat : {false, true}) {
            WithType(t->type, [&](auto v) { LibraryArray<decltype(v)>(op, sat, a.data(), b.data(), n, got.data()); });
            for (std::size_t i = 0; i < n; ++i) {
              const std::uint64_t want = ref::Apply(t->type, op, sat, a[i], b[i]);
              if (got[i] != want && wrong.fetch_add(1) < 10) {
                std::lock_guard<std::mutex> lock(print);
                std::printf("DIFFERENT  %s %s(0x%" PRIx64 ", 0x%" PRIx64 ") %s: library 0x%" PRIx64 ", model 0x%" PRIx64 "\n",
                            t->name, OpName(op), a[i], b[i], sat ? "saturation" : "ieee", got[i], want);
              }
            }
            checked += n;
          }
        }
        progress.add(n);
      }
    };
    const auto t0 = std::chrono::steady_clock::now();
    RunOnThreads(threads, [&](unsigned) { worker(); });  // chunks handed out one by one
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.finish();  // its last line before the result line
    const bool pass = wrong == 0;
    std::printf("atomic-sweep %-5s %s: %" PRIu64 " results (3 ops x 2 modes), %" PRIu64
                " different from the model (%.0f s) -> %s\n",
                t->name, exhaustive ? "every operand pair" : "sampled pairs", checked.load(), wrong.load(), secs,
                pass ? "PASS" : "FAIL");
    std::fflush(stdout);
    if (!pass) rc = 1;
  }
  return rc;
}

int atomic_report_rows(std::FILE* out) {
  const CheckResult r = CheckCsv(*FindType("half"), kAtomicBoundaryCsv);
  if (!r.error.empty()) return 1;
  std::fprintf(out, "op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode,pass_inf_nan,pass_saturation\n");
  for (std::size_t i = 0; i < r.lines.size(); ++i) {
    std::fprintf(out, "%s,%d,%d\n", r.lines[i].c_str(), r.passed[i][0] ? 1 : 0, r.passed[i][1] ? 1 : 0);
  }
  return 0;
}

int atomic_report(std::FILE* out) {
  const TypeInfo& half = *FindType("half");
  const CheckResult r = CheckCsv(half, kAtomicBoundaryCsv);
  const bool pass = r.error.empty() && r.differences.empty() && r.checks > 0;
  std::fprintf(out, "\natomic  float16 boundary table (atomic-table --dtype half) vs the published table: %d rows, %d checks"
                    " (both operand orders, both modes), %zu different -> %s\n",
               r.rows, r.checks, r.differences.size(), pass ? "PASS" : "FAIL");

  // Speed: float32 add of 64K elements, one thread, no contention, against
  // std::atomic_ref<float>::fetch_add in the same run (median of 15).
  constexpr std::size_t kN = 1 << 16;
  std::vector<float> dst(kN, 0.0f), src(kN, 0.25f);
  const double t_ours = median_seconds([&] { (void)atomic::add(std::span<float>(dst), std::span<const float>(src), Mode::kIeee); }, 15);
  const double t_ref = median_seconds([&] {
    for (std::size_t i = 0; i < kN; ++i) std::atomic_ref<float>(dst[i]).fetch_add(src[i], std::memory_order_relaxed);
  }, 15);
  std::fprintf(out, "atomic  float32 add, 64K elements, 1 thread: %.0f M updates/s, %.2fx std::atomic_ref<float>::fetch_add\n",
               kN / t_ours / 1e6, t_ref / t_ours);
  return pass ? 0 : 1;
}

}  // namespace accelmath::cli
