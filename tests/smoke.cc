#include <gtest/gtest.h>
#include "accelmath/accelmath.h"
#include "accuracy/oracle.h"
TEST(Smoke, Basic) {
  for (float p : {0.5f, 0.1f, 0.01f, 1e-10f, 1e-45f, 0.9f, 0.075f, 0.3f}) {
    float y = accelmath::scalar::ndtri(p), z = accelmath::scalar::ndtri_taskbook(p);
    float a; accelmath::ndtri(std::span<float>(&a,1), std::span<const float>(&p,1));
    printf("%g: %.9g %.9g %.9g oracle %.17g mpfr %.17g\n", p, y, a, z, accelmath::oracle::ndtri(p), accelmath::oracle::ndtri_mpfr(p));
  }
}
