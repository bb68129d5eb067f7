// First include of every family dispatch file (src/dispatch/<family>.cc), once per Highway target,
// before the family's kernels: the kernels' namespace, Highway's operations, the drivers. It opens
// the target's attribute region (HWY_BEFORE_NAMESPACE) for the kernels; family-inl.h closes it.
// The includes before it come first, outside the attribute region, so that their inline code is
// compiled for every CPU rather than for the target of whichever family includes them first.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "accelmath/registry.h"
#include "accelmath/scalar.h"
#include "backend/prefetch.h"
#include "dispatch/contract.h"
#include "drivers/sum_tree.h"
#include "kernels/kernel_api.h"

#define ACCELMATH_KNS HWY_NAMESPACE
HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
using namespace hwy::HWY_NAMESPACE;  // NOLINT: the kernels call Highway's ops unqualified
}  // namespace accelmath::HWY_NAMESPACE
#include "drivers/eval-inl.h"
#include "drivers/map-inl.h"
#include "drivers/split-inl.h"
#include "drivers/rows-inl.h"
