// CUDA's float math functions under -use_fast_math (bench/CMakeLists.txt sets the flag for this file
// only): what bench_cuda reports as "fast-math".
#include "cuda_functions.h"

namespace accelmath_bench::fast {
ACCELMATH_CUDA_BENCH_FUNCTIONS(ACCELMATH_CUDA_BENCH_DEFINE)
}  // namespace accelmath_bench::fast
