// `accelmath report`: the built-in cases, one table.
#pragma once

#include <cstdio>
#include <functional>

namespace accelmath::cli {

// Median over `reps` runs (after one warm-up) of the time of fn(), in seconds.
double median_seconds(const std::function<void()>& fn, int reps);

// Prints the report table to `out`; returns 0 when every row meets its accuracy promise.
int report(std::FILE* out);

}  // namespace accelmath::cli
