// `accelmath report`: the built-in cases, one table.
#pragma once

#include <cstdio>

namespace accelmath::cli {

// Prints the report table to `out`; returns 0 when every row meets its accuracy promise.
int report(std::FILE* out);

}  // namespace accelmath::cli
