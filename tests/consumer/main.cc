// Calls the installed accelmath through the C++ array API and the C ABI; exit 0 when both give
// exp's values (tests/install_consumer.sh).
#include <accelmath/accelmath.h>
#include <accelmath/c_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  const std::vector<float> x = {0.0f, 1.0f, -2.5f, 10.0f, 88.0f};
  std::vector<float> cxx(x.size()), c(x.size());
  if (accelmath::exp(cxx, x) != accelmath::Status::kOk) {
    std::puts("accelmath::exp failed");
    return 1;
  }
  if (accelmath_exp_f32(c.data(), x.data(), x.size()) != 0) {
    std::puts("accelmath_exp_f32 failed");
    return 1;
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    // exp promises 1 ulp; glibc's expf is correctly rounded, so 2 ulp is a generous margin.
    const float want = std::exp(x[i]);
    const float lo = std::nextafter(std::nextafter(want, 0.0f), 0.0f);
    const float hi = std::nextafter(std::nextafter(want, INFINITY), INFINITY);
    if (!(cxx[i] >= lo && cxx[i] <= hi) || std::memcmp(&cxx[i], &c[i], sizeof(float)) != 0) {
      std::printf("exp(%a): C++ %a, C %a, want %a\n", x[i], cxx[i], c[i], want);
      return 1;
    }
  }
  if (cxx[0] != 1.0f) {  // a special value the registry promises exactly
    std::printf("exp(0) = %a\n", cxx[0]);
    return 1;
  }
  std::puts("consumer: ok");
  return 0;
}
