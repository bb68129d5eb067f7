// Device-readiness check: the scalar-lane instantiation of the ndtri kernels compiles as CUDA
// device code (a CTest runs nvcc on this file when nvcc is installed; nothing runs on a GPU here).
// Bit-identity with the CPU paths needs IEEE operations only: compile with -fmad=false (nvcc would
// otherwise contract a*b + c into fma) and without --use_fast_math.
#include "backend/scalar_lane.h"

#define ACCELMATH_KNS lane
#include "kernels/ndtri-inl.h"

__global__ void NdtriKernel(const float* p, float* x, float* x_taskbook, int n) {
  using namespace accelmath::lane;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  x[i] = DemoteTo(D<float>(), NdtriF64(D<double>(), PromoteTo(D<double>(), Vec<float>{p[i]}))).raw;
  x_taskbook[i] = NdtriTaskbook(D<float>(), Vec<float>{p[i]}).raw;
}
