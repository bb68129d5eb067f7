// `accelmath report`: the built-in cases, one table.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

namespace accelmath::cli {

// Median over `reps` runs (after one warm-up) of the time of fn(), in seconds.
double median_seconds(const std::function<void()>& fn, int reps);

// Prints the report table to `out`; returns 0 when every row meets its accuracy promise.
int report(std::FILE* out);

// `accelmath report --out DIR`: the same text (printed, and kept as DIR/report.txt), then the data of
// the figures in DIR/data/ (per function: inputs in every binade, the oracle, the library's results;
// bench_math's JSON at 1K and 64K when it is built beside this program; the atomic table's rows with
// their verdicts) and `python3 tools/report/figures.py DIR` (built in), which draws DIR/fig/*.png
// and writes DIR/report.md. Returns report()'s status, 2 when DIR cannot be written, 1 when the
// figures could not be drawn.
int report_with_figures(const std::string& dir);

}  // namespace accelmath::cli
