// Umbrella header.
#pragma once

#include "accelmath/atomic.h"
#include "accelmath/math.h"
#include "accelmath/mx.h"
#include "accelmath/scalar.h"
#include "accelmath/status.h"
#include "accelmath/types.h"
#include "accelmath/verify.h"
