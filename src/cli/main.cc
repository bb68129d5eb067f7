// accelmath: the command-line tool (docs in README.md, docs/engine.md and docs/ndtri.md).
//   list     every math function of the registry, with its bound, domain and oracle
//   run      apply a math function to float32 .npy files
//   verify   compare two .npy files under a precision standard
//   sweep    exhaustive or sampled accuracy sweep of one or every function against its oracle
//   oracle-check  validate each oracle's double tier against its exact tier (MPFR / Arb)
//   quantize / dequantize   MX block quantization of .npy files (docs/mx.md)
//   mx-sweep the MX element codecs against the reference model, every float32 or sampled
//   atomic-table  the atomic add/max/min boundary table of a type, or a check against a CSV
//   atomic-sweep  atomic results vs the reference model: every float16/bfloat16 pair, or sampled
//   report   the built-in cases, one table
// Exit codes: 0 success / pass, 1 check failed, 2 bad input or usage.
#include <CLI/CLI.hpp>
#include <hwy/targets.h>
#include <mpfr.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <new>
#include <sstream>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/registry.h"
#include "accelmath/verify.h"
#include "accuracy/oracle.h"
#include "accuracy/sweep.h"
#include "cli/atomic_cmd.h"
#include "cli/mx_cmd.h"
#include "cli/progress.h"
#include "cli/report.h"
#include "io/npy.h"

namespace {

using accelmath::io::NpyArray;
using accelmath::io::NpyError;

constexpr int kBadInput = 2;

int Error(const std::string& msg) {
  std::fprintf(stderr, "accelmath: error: %s\n", accelmath::io::printable(msg).c_str());
  return kBadInput;
}

// Upper bounds of the count options (CLI11 alone would read "-1" as 2^64 - 1).
constexpr std::uint64_t kMaxSweepSample = 100000000;       // sweep --sample, oracle-check --samples: 4 bytes each in memory
constexpr std::uint64_t kMaxPairSample = std::uint64_t{1} << 40;  // sweep --sample of a structured sample: generated, not stored
constexpr std::uint64_t kMaxStreamSample = std::uint64_t{1} << 32;  // mx-sweep, atomic-sweep --sample: as many as all 2^32
constexpr std::uint64_t kMaxShow = 1000000;               // verify --show

// A whole number in [min, max]: digits only, so "-1", "+3", "0x10" and "1e6" are refused.
CLI::Validator Count(std::uint64_t max, std::uint64_t min = 0) {
  return CLI::Validator(
      [max, min](std::string& s) -> std::string {
        std::uint64_t v = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v > max || v < min) {
          return "'" + s + "' is not a whole number from " + std::to_string(min) + " to " + std::to_string(max);
        }
        return std::string();
      },
      std::to_string(min) + ".." + std::to_string(max));
}

// A finite number in [lo, hi] (NaN and infinities are refused).
CLI::Validator Finite(double lo, double hi, const std::string& range) {
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || !(v >= lo && v <= hi)) {
          return "'" + s + "' is not a finite number " + range;
        }
        return std::string();
      },
      range);
}

// The exit status after the results went to stdout: a write that failed (a full disk, /dev/full,
// a closed pipe) must not pass for success, so the buffered rest is flushed and checked here.
int FlushStdout(int rc) {
  std::cout.flush();
  const bool cout_failed = !std::cout;
  const bool earlier = std::ferror(stdout) != 0;  // a write already failed (its errno may be gone)
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  const int err = errno;
  if (!flush_failed && !earlier && !cout_failed) return rc;
  std::fprintf(stderr, "accelmath: error: cannot write the output to stdout: %s\n",
               flush_failed && err ? std::strerror(err) : "a write failed (a full disk? a closed pipe?)");
  return kBadInput;
}

const accelmath::FunctionInfo* FindFunction(const std::string& name) {
  const accelmath::FunctionInfo* f = accelmath::find_function(name);
  if (!f) {
    std::string all;
    for (const auto& g : accelmath::functions()) all += std::string(all.empty() ? "" : ", ") + g.name;
    Error("unknown function '" + name + "' (available: " + all + "; `accelmath list` describes them)");
  }
  return f;
}

// The .npy dtype of an element type.
const char* Descr(accelmath::ElementType t) {
  switch (t) {
    case accelmath::ElementType::kF32: return "<f4";
    case accelmath::ElementType::kI32: return "<i4";
    case accelmath::ElementType::kU8: return "|u1";
  }
  return "?";
}
const char* TypeName(accelmath::ElementType t) {
  switch (t) {
    case accelmath::ElementType::kF32: return "float32";
    case accelmath::ElementType::kI32: return "int32";
    case accelmath::ElementType::kU8: return "uint8";
  }
  return "?";
}
std::size_t ElementSize(accelmath::ElementType t) { return t == accelmath::ElementType::kU8 ? 1 : 4; }

// A row's signature for people: "(f32,f32)->f32", "(f32)->(f32,i32)", "(f32[n])->f32" (rows).
std::string Signature(const accelmath::FunctionInfo& f) {
  const auto name = [](accelmath::ElementType t) {
    return t == accelmath::ElementType::kF32 ? "f32" : t == accelmath::ElementType::kI32 ? "i32" : "u8";
  };
  std::string s = "(";
  for (int k = 0; k < f.inputs(); ++k) s += std::string(k ? "," : "") + name(f.input_type(k));
  if (f.shape == accelmath::Shape::kRows) s += "[n]";
  s += ")->";
  if (f.outputs() == 1) return s + name(f.output_type(0));
  return s + "(" + name(f.output_type(0)) + "," + name(f.output_type(1)) + ")";
}

const char* ShapeName(accelmath::Shape s) {
  switch (s) {
    case accelmath::Shape::kUnary: return "Unary";
    case accelmath::Shape::kUnaryPair: return "UnaryPair";
    case accelmath::Shape::kBinary: return "Binary";
    case accelmath::Shape::kTernary: return "Ternary";
    case accelmath::Shape::kQuaternary: return "Quaternary";
    case accelmath::Shape::kToInt32: return "ToInt32";
    case accelmath::Shape::kPredicate: return "Predicate";
    case accelmath::Shape::kSplitExponent: return "SplitExponent";
    case accelmath::Shape::kScaleExponent: return "ScaleExponent";
    case accelmath::Shape::kRows: return "Rows";
  }
  return "?";
}

// `run`: the inputs in argument order (as many as the function's shape takes: atan2 --in Y --in X,
// ldexp --in X --in N), each of its element type (float32, int32 for ldexp's n), all of one shape and
// memory order; one --out per result (sincos: --out SIN --out COS; frexp: --out M --out E), each
// with the inputs' shape and memory order, of the result's type (float32, int32, uint8 0/1). A
// function of rows (norm) reads rows of `row_length` consecutive elements (C order); without
// --row-length, the input's last axis is the row and the result has the input's shape without it.
int Run(const std::string& op, const std::vector<std::string>& ins, const std::vector<std::string>& outs,
        std::size_t row_length_opt) {
  const accelmath::FunctionInfo* f = FindFunction(op);
  if (!f) return kBadInput;
  const bool rows = f->shape == accelmath::Shape::kRows;
  const std::size_t arity = static_cast<std::size_t>(f->inputs()), results = static_cast<std::size_t>(f->outputs());
  if (ins.size() != arity) return Error(op + " takes " + std::to_string(arity) + " --in, got " + std::to_string(ins.size()));
  if (outs.size() != results) return Error(op + " writes " + std::to_string(results) + " --out, got " + std::to_string(outs.size()));
  if (results == 2 && outs[0] == outs[1]) return Error(op + ": the two --out files must differ");
  if (row_length_opt != 0 && !rows) {
    return Error(op + ": --row-length is for the functions of rows (norm, rnorm); " + op + " is element-wise");
  }
  try {
    // Every --out is checked before any work, and the set is renamed into place only when all
    // were written: an error leaves no new file and every existing one as it was.
    accelmath::io::OutputSet out(outs);
    std::vector<NpyArray> in;
    for (std::size_t k = 0; k < ins.size(); ++k) {
      const std::string& path = ins[k];
      in.push_back(accelmath::io::read_npy(path));
      const NpyArray& a = in.back();
      const accelmath::ElementType t = f->input_type(static_cast<int>(k));
      if (a.descr != Descr(t)) {
        return Error(path + ": dtype '" + a.descr + "', expected " + TypeName(t) + " ('" + Descr(t) + "')" +
                     (arity > 1 ? " for input " + std::to_string(k + 1) + " of " + op : ""));
      }
      if (a.shape != in[0].shape || a.fortran_order != in[0].fortran_order) {
        return Error(op + ": the inputs differ in shape: " + ins[0] + " is " + in[0].shape_string() +
                     (in[0].fortran_order ? " (Fortran order)" : "") + ", " + path + " is " + a.shape_string() +
                     (a.fortran_order ? " (Fortran order)" : "") + " (no broadcasting)");
      }
    }
    const NpyArray& a = in[0];  // the outputs take its shape and order (rows: less the row)
    const std::size_t elements = a.count();
    std::size_t n = elements, row_length = 0;  // n: results (rows: rows)
    std::vector<std::size_t> out_shape = a.shape;
    bool out_fortran = a.fortran_order;
    if (rows) {
      if (a.fortran_order && a.shape.size() > 1) {
        return Error(ins[0] + ": a Fortran-order array; " + op + " reads rows along the last axis in C order "
                     "(save it with np.ascontiguousarray)");
      }
      if (row_length_opt != 0) {
        row_length = row_length_opt;
        if (elements % row_length != 0) {
          return Error(op + ": " + ins[0] + " has " + std::to_string(elements) + " elements, not a whole number of rows of " +
                       std::to_string(row_length) + " (--row-length)");
        }
        n = elements / row_length;
        if (!a.shape.empty() && a.shape.back() == row_length) {
          out_shape.pop_back();
        } else {
          out_shape = {n};
        }
      } else {
        if (a.shape.empty()) {
          return Error(op + ": " + ins[0] + " is 0-d: its last axis is the row, and it has none (or give --row-length 1)");
        }
        row_length = a.shape.back();
        out_shape.pop_back();
        n = 1;
        for (std::size_t d : out_shape) n *= d;
      }
      out_fortran = false;
    }
    std::vector<const void*> src(4, nullptr);
    for (std::size_t k = 0; k < arity; ++k) src[k] = in[k].data.data();
    std::vector<NpyArray> results_arrays(results);
    void* dst[2] = {nullptr, nullptr};
    for (std::size_t k = 0; k < results; ++k) {
      NpyArray& r = results_arrays[k];
      const accelmath::ElementType t = f->output_type(static_cast<int>(k));
      r.descr = Descr(t), r.shape = out_shape, r.fortran_order = out_fortran;
      r.data.assign(n * ElementSize(t), 0);
      dst[k] = r.data.data();
    }
    if (n) {  // 0 results: empty outputs of their shape
      const accelmath::Status s = f->run(dst, src.data(), n, row_length);
      if (s != accelmath::Status::kOk) return Error(accelmath::status_message(s));
    }
    for (std::size_t k = 0; k < results; ++k) out.write(k, results_arrays[k]);
    out.commit();
  } catch (const NpyError& e) {
    return Error(e.what());
  }
  return 0;
}

int List() {
  std::printf("%-15s %-11s %-13s %-22s %-12s %-4s %-5s %-48s %s\n", "function", "family", "shape", "signature", "driver",
              "eval", "bound", "domain", "oracle");
  for (const auto& f : accelmath::functions()) {
    const auto* o = accelmath::oracle::find_oracle(f.name);
    std::printf("%-15s %-11s %-13s %-22s %-12s %-4s %-5g %-48s %s\n", f.name, f.family, ShapeName(f.shape),
                Signature(f).c_str(), f.driver, f.eval == accelmath::Eval::kF64 ? "f64" : "f32", f.bound_ulp, f.domain,
                o ? o->source : "(none)");
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
    if (G.count() == 0) return Error(golden_path + ": empty array, shape " + G.shape_string() + ": nothing to compare");
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

// The accuracy table between the markers "<!-- sweep-table:begin -->" and "<!-- sweep-table:end -->"
// of a markdown file: the rows of `fresh` (function name -> table row) replace or join the rows
// already there, in registry order, so functions can be swept one at a time.
int UpdateDoc(const std::string& path, const std::map<std::string, std::string>& fresh, const std::string& footer) {
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (!in) return Error("cannot read " + path);
  std::string text;
  char buf[4096];
  for (std::size_t k; (k = std::fread(buf, 1, sizeof buf, in)) > 0;) text.append(buf, k);
  std::fclose(in);
  const std::string begin = "<!-- sweep-table:begin -->\n", end = "<!-- sweep-table:end -->";
  const auto b = text.find(begin), e = text.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b) return Error(path + " has no sweep-table markers");
  std::map<std::string, std::string> rows;
  std::istringstream old(text.substr(b + begin.size(), e - b - begin.size()));
  for (std::string line; std::getline(old, line);) {
    if (line.rfind("| ", 0) != 0) continue;
    const std::string name = line.substr(2, line.find(' ', 2) - 2);
    if (accelmath::find_function(name)) rows[name] = line;
  }
  for (const auto& [name, row] : fresh) rows[name] = row;
  std::string table = "| function | bound (ulp) | max error (ulp) | at x | correctly rounded | inputs | time |\n"
                      "|---|---|---|---|---|---|---|\n";
  for (const auto& f : accelmath::functions()) {
    if (rows.count(f.name)) table += rows[f.name] + "\n";
  }
  text = text.substr(0, b + begin.size()) + table + "\n" + footer + "\n" + text.substr(e);
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (!out || std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fclose(out) != 0) {
    return Error("cannot write " + path);
  }
  return 0;
}

// `sweep F` or `sweep --all`: every float32 input (functions of one float input), or --sample N
// random ones plus edge cases; a function of several inputs or of rows: its structured sample
// (sweep::PairSample, TripleSample, QuadSample, ScaleSample, RowSample) at its default size, or at
// size N. Exit 1 when a function exceeds its bound (or --max-ulp, if given), or, of bound 0, is not
// bit for bit right.
int Sweep(const std::string& op, bool all, unsigned threads, std::size_t sample, std::uint64_t seed, bool quiet,
          double max_ulp, const std::string& doc) {
  std::vector<const accelmath::FunctionInfo*> fs;
  if (all) {
    for (const auto& f : accelmath::functions()) fs.push_back(&f);
  } else if (op.empty()) {
    return Error("sweep needs a function name or --all");
  } else if (const auto* f = FindFunction(op)) {
    fs.push_back(f);
  } else {
    return kBadInput;
  }
  if (!doc.empty() && sample != 0) return Error("--update-doc records full sweeps only (drop --sample)");
  for (const auto* f : fs) {  // one-input samples are held in memory; the structured ones are generated
    if (accelmath::sweep::exhaustive_possible(*f) && sample > kMaxSweepSample) {
      return Error("--sample " + std::to_string(sample) + ": at most " + std::to_string(kMaxSweepSample) + " for " +
                   f->name + " (larger ones only for functions of several inputs or of rows)");
    }
  }
  std::map<std::string, std::string> rows;
  int rc = 0;
  for (std::size_t k = 0; k < fs.size(); ++k) {
    const auto* f = fs[k];
    const auto* o = accelmath::oracle::find_oracle(f->name);
    if (!o) return Error(std::string("no oracle row for ") + f->name + " (tools/accuracy/oracles.def)");
    // The progress line (stderr): the function, and with --all its place among them.
    const std::string label = "sweep " + std::string(f->name) +
                              (fs.size() > 1 ? " [" + std::to_string(k + 1) + "/" + std::to_string(fs.size()) + "]" : "");
    const auto cases = accelmath::sweep::sample_for(*f, sample, seed);
    const std::string set = cases->describe();
    accelmath::cli::Progress progress(label, cases->size(), cases->unit(), !quiet);
    const accelmath::sweep::Result r = accelmath::sweep::run(*f, *o, *cases, threads, &progress);
    progress.finish();
    accelmath::sweep::print(r, *f, set, stdout);
    rows[f->name] = accelmath::sweep::markdown_row(r, *f, cases->table_note());
    // Bound 0 (exact functions): bit for bit right, so within half an ulp.
    const double limit = max_ulp >= 0 ? max_ulp : f->bound_ulp == 0 ? 0.5 : f->bound_ulp;
    if (r.status != 0) {
      std::printf("FAIL: %s: the array function returned an error\n", f->name);
      rc = 1;
    } else if (r.pair_mismatches) {
      std::printf("FAIL: %s differs from %s, %s\n", f->name, o->part1, o->part2);
      rc = 1;
    } else if (r.mismatches) {
      std::printf("FAIL: %s: %llu results are not bit for bit the exact ones\n", f->name,
                  static_cast<unsigned long long>(r.mismatches));
      rc = 1;
    } else if (!(r.max_ulp <= limit)) {
      std::printf("FAIL: %s max ulp %.6f exceeds %g\n", f->name, r.max_ulp, limit);
      rc = 1;
    }
  }
  if (!doc.empty()) {
    const std::string footer = "Each row: `accelmath sweep <function> --threads " + std::to_string(threads) +
                               " --update-doc " + doc + "` (every float32 input through the array API; a function " +
                               "of several inputs or of rows: its structured sample, docs/engine.md; bound 0: bit for " +
                               "bit the exact result; time on " + std::to_string(threads) +
                               " threads on the machine that swept the row: the results are the same bits on every " +
                               "Highway target, tests/test_targets.cc). The last run was dispatched to Highway target " +
                               hwy::TargetName(hwy::SupportedAndGeneratedTargets().front()) + ".";
    if (const int e = UpdateDoc(doc, rows, footer)) return e;
  }
  return rc;
}

// `oracle-check F` or `--all`: how far the double tier of each oracle is from its exact tier, in
// float32 ulp, on a sample of cases where the function is finite: --samples random inputs plus edge
// cases, or a function of several inputs or of rows: its structured sample at size --samples.
int OracleCheck(const std::string& op, bool all, std::size_t samples, std::uint64_t seed, double limit, bool quiet) {
  int rc = 0;
  std::vector<const accelmath::FunctionInfo*> fs;
  for (const auto& f : accelmath::functions()) {
    if (all || op == f.name) fs.push_back(&f);
  }
  for (std::size_t k = 0; k < fs.size(); ++k) {
    const auto& f = *fs[k];
    const auto* o = accelmath::oracle::find_oracle(f.name);
    if (!o) return Error(std::string("no oracle row for ") + f.name);
    if (!o->has_tiers()) {  // a UnaryPair row (its parts are checked on their own rows), or a reference
      std::printf("%-15s %s: no tiers of its own%s\n", f.name, o->source,
                  o->has_reference() ? " (an exact reference, checked by Oracle.ReferencesAgreeWithMpfr in tests/test_oracle.cc)" : "");
      continue;
    }
    const auto cases = accelmath::sweep::sample_for(f, samples, seed);
    double worst = 0;
    accelmath::sweep::Case worst_case;
    std::size_t n = 0;
    mpfr_t r;
    mpfr_init2(r, 128);
    accelmath::cli::Progress progress(
        "oracle-check " + std::string(f.name) +
            (fs.size() > 1 ? " [" + std::to_string(k + 1) + "/" + std::to_string(fs.size()) + "]" : ""),
        cases->size(), cases->unit(), !quiet);
    accelmath::sweep::Chunk ch;
    std::vector<float> row;
    for (std::uint64_t c = 0; c < cases->chunks(); ++c) {
      cases->fill(c, ch);
      for (std::size_t i = 0; i < ch.count; ++i) {
        accelmath::oracle::Args a;
        accelmath::sweep::Case at;
        at.index = ch.first + i;
        if (f.shape == accelmath::Shape::kRows) {
          row.resize(ch.row_length);
          std::memcpy(row.data(), ch.in[0].data() + i * ch.row_length, 4 * ch.row_length);
          a.row = row.data(), a.n = ch.row_length;
          at.row_length = static_cast<std::uint32_t>(ch.row_length);
          for (std::size_t j = 0; j < 4 && j < ch.row_length; ++j) at.in[j] = ch.in[0][i * ch.row_length + j];
        } else {
          for (int j = 0; j < f.inputs(); ++j) {
            const std::uint32_t w = ch.in[j][i];
            float x;
            std::memcpy(&x, &w, 4);
            a.x[j] = f.input_type(j) == accelmath::ElementType::kF32 ? double(x) : double(static_cast<std::int32_t>(w));
            at.in[j] = w;
          }
        }
        const double fast = o->fast_at(a);
        if (!(std::fabs(fast) < 0x1p128) || fast == 0) continue;  // beyond float32 the result is inf either way
        o->exact_at(r, a);
        const double exact = mpfr_get_d(r, MPFR_RNDN);
        const double e = std::fabs(fast - exact) / accelmath::oracle::ulp_f32(exact);
        if (e > worst) worst = e, worst_case = at;
        ++n;
      }
      progress.add(ch.count);
    }
    mpfr_clear(r);
    progress.finish();
    std::printf("%-15s %s: %zu finite of %llu %s (%s): max |fast - exact| = %.3e float32 ulp at %s\n", f.name,
                o->source, n, static_cast<unsigned long long>(cases->size()), cases->unit(), cases->describe().c_str(),
                worst, accelmath::sweep::describe_case(f, worst_case).c_str());
    if (!(worst <= limit)) {
      std::printf("FAIL: %s exceeds %g ulp\n", f.name, limit);
      rc = 1;
    }
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"accelmath: accelerator-style numerical kernels and the tools to check them"};
  app.require_subcommand(1);

  std::string op;
  std::vector<std::string> ins, outs;
  auto* run = app.add_subcommand("run", "apply a function to .npy files (any shape, the same for every input; the outputs keep it, "
                                        "less the row of a function of rows)");
  run->add_option("--op", op, "function (`accelmath list`)")->required();
  run->add_option("--in", ins, "input .npy (float32; int32 for ldexp's n), once per argument, in argument order")->required();
  run->add_option("--out", outs, "output .npy, once per result (float32, int32 or uint8 0/1: `accelmath list` gives each "
                                 "function's signature)")->required();
  std::size_t row_length = 0;
  run->add_option("--row-length", row_length, "functions of rows (norm, rnorm): N consecutive elements a row (default: "
                                              "the input's last axis; an array of shape (R, 0) is R empty rows), 1 to 2^40")
      ->check(Count(std::uint64_t{1} << 40, 1));
  auto* list = app.add_subcommand("list", "every function with its error bound, domain and oracle");

  std::string golden, actual, standard = "dual";
  accelmath::verify::Options vo;
  std::size_t show = 10;
  auto* verify = app.add_subcommand("verify", "compare actual with golden under a precision standard");
  verify->add_option("--golden", golden, "golden .npy (float16/32/64)")->required();
  verify->add_option("--actual", actual, "actual .npy (same dtype and shape)")->required();
  verify->add_option("--standard", standard, "dual | mere-mare")->check(CLI::IsMember({"dual", "mere-mare"}));
  verify->add_option("--atol", vo.atol, "dual threshold: absolute, finite >= 0 (default 1e-4; 1e-3 for float16)")
      ->check(Finite(0, HUGE_VAL, ">= 0"));
  verify->add_option("--rtol", vo.rtol, "dual threshold: relative, finite >= 0 (default as --atol)")
      ->check(Finite(0, HUGE_VAL, ">= 0"));
  verify->add_option("--max-error-ratio", vo.max_error_ratio, "dual threshold: allowed error ratio, 0..1 (default as --atol)")
      ->check(Finite(0, 1, "from 0 to 1"));
  verify->add_option("--threshold", vo.mere_threshold, "MERE/MARE: T, finite >= 0 (default 2^-13; 2^-10 for float16)")
      ->check(Finite(0, HUGE_VAL, ">= 0"));
  verify->add_option("--show", show, "number of worst elements to print, at most " + std::to_string(kMaxShow))
      ->check(Count(kMaxShow));

  std::string sweep_op, doc;
  bool sweep_all = false;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t sample = 0;
  std::uint64_t seed = 1;
  bool quiet = false;
  double max_ulp = -1;
  auto* sweep = app.add_subcommand("sweep", "accuracy sweep against the oracle: every float32 input, or --sample N");
  sweep->add_option("function", sweep_op, "function (`accelmath list`)");
  sweep->add_flag("--all", sweep_all, "every function of the registry");
  sweep->add_option("--update-doc", doc, "write the result table between the sweep-table markers of this markdown file");
  sweep->add_option("--threads", threads, "worker threads")->check(CLI::Range(1u, 1024u));
  sweep->add_option("--sample", sample, "run N random inputs plus the edge cases instead of every input (N at most " +
                                            std::to_string(kMaxSweepSample) + "; 0: every input); a function of several "
                                            "inputs or of rows: its structured sample at size N (at most 2^40) instead "
                                            "of its default (2^32; rows: 2^28)")
      ->check(Count(kMaxPairSample));
  sweep->add_option("--seed", seed, "random seed for --sample");
  sweep->add_flag("--quiet", quiet, "no progress line");
  sweep->add_option("--max-ulp", max_ulp, "exit 1 if the max ulp error exceeds this, finite >= 0 (default: each function's bound)")
      ->check(Finite(0, HUGE_VAL, ">= 0"));

  std::size_t oc_samples = 20000;
  double oc_limit = 1e-6;
  auto* oc = app.add_subcommand("oracle-check", "validate each oracle's double tier against its exact tier (MPFR/Arb)");
  oc->add_option("function", sweep_op, "function (`accelmath list`)");
  oc->add_flag("--all", sweep_all, "every function of the registry");
  oc->add_option("--samples", oc_samples, "random inputs (edge cases are added), or the size of the structured sample, "
                                          "at most " + std::to_string(kMaxSweepSample))
      ->check(Count(kMaxSweepSample));
  oc->add_option("--seed", seed, "random seed");
  oc->add_option("--max-ulp", oc_limit, "exit 1 if the oracle is further than this (float32 ulp, finite >= 0) from MPFR")
      ->check(Finite(0, HUGE_VAL, ">= 0"));
  oc->add_flag("--quiet", quiet, "no progress line");

  // quantize/dequantize take .npy arrays, or a whole safetensors checkpoint (--in *.safetensors /
  // dequantize --in): each form's own options are checked in Quantize/Dequantize below.
  accelmath::cli::QuantizeArgs qa;
  accelmath::cli::CheckpointQuantizeArgs cq;
  auto* quant = app.add_subcommand("quantize", "MX-quantize a .npy (float32, float16, or bfloat16 bits as uint16), "
                                               "or every floating-point tensor of a .safetensors checkpoint");
  quant->add_option("--in", qa.in, "input .npy, or .safetensors (checkpoint form)")->required();
  auto* q_x_dtype = quant->add_option("--x-dtype", qa.x_dtype, ".npy: auto (from the file) | bfloat16 (uint16 bit patterns)");
  quant->add_option("--dst", qa.dst, "e4m3 | e5m2 | e3m2 | e2m3 | e2m1 | e1m2")->required();
  auto* q_axis = quant->add_option("--axis", qa.axis, ".npy: axis of the blocks (default -1; checkpoints: the last axis)");
  quant->add_option("--block", qa.block, "block size, a multiple of 32 up to 1024 (default 32)");
  quant->add_option("--round", qa.round, "rint | round | floor (FP8: rint only)");
  quant->add_option("--scale-alg", qa.scale_alg, "0 | ocp, 1 | rceil (FP8), 2 | ceil, 3 | even");
  quant->add_option("--threads", qa.threads, "threads (0: automatic), at most 1024")->check(CLI::Range(0, 1024));
  auto* q_out_y = quant->add_option("--out-y", qa.out_y, ".npy: elements .npy, uint8 (FP4: last dim halved; FP6: 3 bytes per 4)");
  auto* q_out_scale = quant->add_option("--out-scale", qa.out_scale, ".npy: E8M0 scales .npy, uint8, the mxscale shape");
  auto* q_out = quant->add_option("--out", cq.out, "checkpoint: output .safetensors (each quantized W as W and W.mx_scale)");
  auto* q_include = quant->add_option("--include", cq.include, "checkpoint: quantize only tensors whose name matches this regex");
  auto* q_exclude = quant->add_option("--exclude", cq.exclude, "checkpoint: copy tensors whose name matches this regex unchanged");
  auto* q_gguf = quant->add_flag("--gguf", cq.gguf, "checkpoint: store each W as ggml MXFP4 blocks (e2m1, block 32, ocp)");
  auto* q_quiet = quant->add_flag("--quiet", cq.quiet, "checkpoint: no progress line");

  accelmath::cli::DequantizeArgs da;
  accelmath::cli::CheckpointDequantizeArgs cd;
  auto* dequant = app.add_subcommand("dequantize", "MX-dequantize element and scale .npy files, or a checkpoint that "
                                                   "`quantize --in *.safetensors` wrote (--in)");
  auto* d_in = dequant->add_option("--in", cd.in, "checkpoint: input .safetensors, as quantize wrote it");
  auto* d_y = dequant->add_option("--y", da.y, ".npy: elements .npy (uint8, as quantize wrote it)");
  auto* d_scale = dequant->add_option("--scale", da.scale, ".npy: scales .npy (uint8)");
  auto* d_dst = dequant->add_option("--dst", da.dst, ".npy: element format: e4m3 | e5m2 | e3m2 | e2m3 | e2m1 | e1m2");
  auto* d_axis = dequant->add_option("--axis", da.axis, ".npy: axis of the blocks (default -1)");
  auto* d_block = dequant->add_option("--block", da.block, ".npy: block size (default 32)");
  auto* d_out_dtype = dequant->add_option("--out-dtype", da.out_dtype, ".npy: float32 | float16 | bfloat16 (written as uint16 bits)");
  dequant->add_option("--threads", da.threads, "threads (0: automatic), at most 1024")->check(CLI::Range(0, 1024));
  dequant->add_option("--out", da.out, "output .npy, or .safetensors (checkpoint form)")->required();
  auto* d_quiet = dequant->add_flag("--quiet", cd.quiet, "checkpoint: no progress line");

  // The options a form needs (required) and those it does not take (refused), by name.
  auto form_check = [](const char* form, std::initializer_list<CLI::Option*> required,
                       std::initializer_list<CLI::Option*> refused) -> std::string {
    for (CLI::Option* o : required) {
      if (o->count() == 0) return std::string(form) + " needs " + o->get_name();
    }
    for (CLI::Option* o : refused) {
      if (o->count() != 0) return std::string(form) + " does not take " + o->get_name();
    }
    return std::string();
  };

  std::string mx_dst = "all", mx_round = "all";
  std::uint64_t mx_sample = 0;
  auto* mxs = app.add_subcommand("mx-sweep", "MX element codecs vs the reference model: all 2^32 float32, or --sample N");
  mxs->add_option("--dst", mx_dst, "all | e4m3 | e5m2 | e3m2 | e2m3 | e2m1 | e1m2");
  mxs->add_option("--round", mx_round, "all | rint | round | floor");
  mxs->add_option("--sample", mx_sample, "N random float32 patterns instead of all 2^32 (N at most 2^32 = " +
                                          std::to_string(kMaxStreamSample) + "; 0: all)")
      ->check(Count(kMaxStreamSample));
  mxs->add_option("--seed", seed, "random seed for --sample");
  mxs->add_option("--threads", threads, "worker threads")->check(CLI::Range(1u, 1024u));
  mxs->add_flag("--quiet", quiet, "no progress line");

  std::string at_dtype = "half", at_check;
  auto* atab = app.add_subcommand("atomic-table", "atomic add/max/min boundary results of a type, as CSV (or --check a CSV)");
  atab->add_option("--dtype", at_dtype, "half | bf16 | float | int8 | int16 | int32 | int64");
  atab->add_option("--check", at_check, "compare every row of this CSV (same columns) with the library instead");
  std::string as_dtype = "all";
  std::uint64_t as_sample = 0;
  auto* aswp = app.add_subcommand("atomic-sweep", "atomic ops vs the reference model: every float16/bfloat16 pair, or --sample N");
  aswp->add_option("--dtype", as_dtype, "all | half | bf16 | float | int8 | int16 | int32 | int64 (float, ints: --sample)");
  aswp->add_option("--sample", as_sample, "N random operand pairs (plus the boundary pairs) instead of every pair (N at most 2^32 = " +
                                           std::to_string(kMaxStreamSample) + "; 0: every pair)")
      ->check(Count(kMaxStreamSample));
  aswp->add_option("--seed", seed, "random seed for --sample");
  aswp->add_option("--threads", threads, "worker threads")->check(CLI::Range(1u, 1024u));
  aswp->add_flag("--quiet", quiet, "no progress line");

  auto* rep = app.add_subcommand("report", "run the built-in cases and print one table");
  std::string rep_out;
  rep->add_option("--out", rep_out, "also write DIR/report.md with PNG figures (needs python3-matplotlib)");

  // Usage errors: one line on stderr, "accelmath: error: --sample: '-1' is not ... (see accelmath sweep --help)".
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    std::string cmd = "accelmath";  // and the subcommand being parsed, if any
    for (const CLI::App* sc : a->get_subcommands()) cmd += " " + sc->get_name();
    return "accelmath: error: " + std::string(e.what()) + " (see " + cmd + " --help)\n";
  });
  std::string names;  // every subcommand, for the message on an unknown or missing one
  bool known = false;
  for (const CLI::App* sc : app.get_subcommands([](const CLI::App*) { return true; })) {
    names += (names.empty() ? "" : ", ") + sc->get_name();
    if (argc > 1 && sc->get_name() == argv[1]) known = true;
  }
  if (argc < 2) return FlushStdout(Error("no subcommand given; expected one of: " + names + " (see accelmath --help)"));
  if (argv[1][0] != '-' && !known) {  // CLI11 would only say "A subcommand is required"
    return FlushStdout(Error("unknown subcommand '" + std::string(argv[1]) + "'; expected one of: " + names +
                             " (see accelmath --help)"));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return FlushStdout(app.exit(e));
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return FlushStdout(kBadInput);
  }
  int rc = kBadInput;
  try {
    rc = [&]() -> int {
      if (*run) return Run(op, ins, outs, row_length);
      if (*list) return List();
      if (*verify) return Verify(golden, actual, standard, vo, show);
      if (*sweep) return Sweep(sweep_op, sweep_all, threads, sample, seed, quiet, max_ulp, doc);
      if (*oc) {
        if (!sweep_all && !FindFunction(sweep_op)) return kBadInput;
        return OracleCheck(sweep_op, sweep_all, oc_samples, seed, oc_limit, quiet);
      }
      if (*quant) {
        const bool checkpoint = qa.in.size() >= 12 && qa.in.compare(qa.in.size() - 12, 12, ".safetensors") == 0;
        const std::string e = checkpoint ? form_check("quantize of a .safetensors checkpoint", {q_out}, {q_out_y, q_out_scale, q_axis, q_x_dtype})
                                         : form_check("quantize of a .npy (an --in not named *.safetensors)", {q_out_y, q_out_scale}, {q_out, q_include, q_exclude, q_gguf, q_quiet});
        if (!e.empty()) return Error(e + " (see accelmath quantize --help)");
        if (!checkpoint) return accelmath::cli::quantize_cmd(qa);
        cq.in = qa.in, cq.dst = qa.dst, cq.round = qa.round, cq.scale_alg = qa.scale_alg, cq.block = qa.block, cq.threads = qa.threads;
        return accelmath::cli::quantize_checkpoint(cq);
      }
      if (*dequant) {
        const bool checkpoint = d_in->count() != 0;
        const std::string e = checkpoint ? form_check("dequantize --in (a checkpoint)", {}, {d_y, d_scale, d_dst, d_axis, d_block, d_out_dtype})
                                         : form_check("dequantize of .npy files", {d_y, d_scale, d_dst}, {d_quiet});
        if (!e.empty()) return Error(e + " (see accelmath dequantize --help)");
        if (!checkpoint) return accelmath::cli::dequantize_cmd(da);
        cd.out = da.out, cd.threads = da.threads;
        return accelmath::cli::dequantize_checkpoint(cd);
      }
      if (*mxs) return accelmath::cli::mx_sweep(mx_dst, mx_round, mx_sample, seed, threads, quiet);
      if (*atab) return accelmath::cli::atomic_table(at_dtype, at_check, stdout);
      if (*aswp) return accelmath::cli::atomic_sweep(as_dtype, as_sample, seed, threads, quiet);
      if (*rep) {
        if (!rep_out.empty()) return accelmath::cli::report_with_figures(rep_out);
        const int a = accelmath::cli::report(stdout);
        const int b = accelmath::cli::mx_report(stdout);
        const int c = accelmath::cli::atomic_report(stdout);
        return a != 0 ? a : b != 0 ? b : c;
      }
      return kBadInput;
    }();
  } catch (const std::bad_alloc&) {
    rc = Error("out of memory (a smaller --sample or input may fit)");
  } catch (const std::system_error& e) {  // e.g. a thread the system refused (a process limit)
    rc = Error(std::string("the system refused a resource: ") + e.what() + " (try fewer --threads)");
  }
  return FlushStdout(rc);
}
