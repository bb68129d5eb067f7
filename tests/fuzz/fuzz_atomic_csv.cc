// libFuzzer harness: the atomic-table CSV parser and checker (`accelmath atomic-table --check`,
// src/cli/atomic_cmd.cc) on arbitrary text. The first byte picks the dtype (mod 8: the seven
// types, or an unknown one); the rest is the CSV. Invariants beyond "no crash": either an error
// message, or at least one row with 4 checks per operand (2 orders x 2 modes) and no more
// differences than checks; the same text gives the same answer twice.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/atomic_cmd.h"

namespace {
[[noreturn]] void Violation(const char* what) {
  std::fprintf(stderr, "fuzz_atomic_csv: invariant violated: %s\n", what);
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kTypes[] = {"half", "bf16", "float", "int8", "int16", "int32", "int64", "float64"};
  const std::string dtype = kTypes[data[0] % 8];
  const std::string csv(reinterpret_cast<const char*>(data) + 1, size - 1);
  const accelmath::cli::AtomicCsvCheck r = accelmath::cli::atomic_check_csv(dtype, csv);
  if (r.error.empty()) {
    if (dtype == "float64") Violation("accepted an unknown dtype");
    if (r.rows < 1) Violation("no error and no rows");
    if (r.checks < 4 * r.rows || r.checks % 4 != 0) Violation("fewer than 4 checks per row");
    if (r.differences > static_cast<std::size_t>(r.checks)) Violation("more differences than checks");
  } else if (r.error.find('\n') != std::string::npos) {
    Violation("a multi-line error message");
  }
  const accelmath::cli::AtomicCsvCheck again = accelmath::cli::atomic_check_csv(dtype, csv);
  if (again.rows != r.rows || again.checks != r.checks || again.differences != r.differences || again.error != r.error) {
    Violation("not deterministic");
  }
  return 0;
}
