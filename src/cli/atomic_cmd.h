// The atomic subcommands of the accelmath CLI: atomic-table, atomic-sweep, and the report line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace accelmath::cli {

// The boundary table of one type (half, bf16, float, int8, int16, int32, int64), computed by the
// library's atomic add/max/min: the columns of ../shared/spec/atomic-boundary.csv, one row per
// operand pair of the type's boundary values (MIN, MAX, 0, -0, NaN, inf, -inf where it has them).
// With `check` (a CSV file of the same columns; '/' may list several operands), every row of that
// file, in both operand orders, is compared with the library instead; exit 1 on a difference.
int atomic_table(const std::string& dtype, const std::string& check, std::FILE* out);

// The parse-and-compare step of atomic_table's `check` on CSV text (no file, no output), for the
// fuzzer (tests/fuzz/) and tests: rows and checks done, differences found, and `error` set (then
// the counts are partial) for an unknown dtype or a malformed file, exactly as --check reports it.
struct AtomicCsvCheck {
  int rows = 0, checks = 0;
  std::size_t differences = 0;
  std::string error;
};
AtomicCsvCheck atomic_check_csv(const std::string& dtype, const std::string& csv);

// Every (a, b) pair of float16 or bfloat16 (2^32 each), or `sample` random pairs plus the boundary
// values of any type, through the library's array API in every op and mode, against the
// independent model (tools/accuracy/atomic_reference.cc, MPFR). Exit 1 on any difference. A
// progress line on stderr (cli/progress.h) unless `quiet`.
int atomic_sweep(const std::string& dtype, std::uint64_t sample, std::uint64_t seed, unsigned threads,
                 bool quiet = false);

// The report line: the float16 table against the published one (built in), plus a short
// contended-update check.
int atomic_report(std::FILE* out);
// The published float16 table's rows (CSV, its columns) with two more: pass_inf_nan and
// pass_saturation (1: the library gives the row's result for every operand listed, in both orders);
// for `accelmath report --out`. Returns 1 if the built-in table cannot be read.
int atomic_report_rows(std::FILE* out);

}  // namespace accelmath::cli
