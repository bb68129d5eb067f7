#include "accelmath/status.h"

namespace accelmath {

const char* status_message(Status s) noexcept {
  switch (s) {
    case Status::kOk:
      return "ok";
    case Status::kBufferTooSmall:
      return "count exceeds the source or destination length";
    case Status::kPartialOverlap:
      return "source and destination overlap without being the same buffer";
    case Status::kSizeMismatch:
      return "arrays that must have the same length differ in length";
    case Status::kIndexOutOfRange:
      return "an index is negative or not less than the destination length";
    case Status::kMisaligned:
      return "the destination is not aligned for atomic access to its element type";
    case Status::kOverlap:
      return "a source or index array overlaps the destination";
    case Status::kInvalidArgument:
      return "an argument is outside its documented set of values";
    case Status::kNullPointer:
      return "a pointer argument is null while its element count is not zero";
    case Status::kNotDeviceMemory:
      return "a pointer given to the CUDA API is not memory the GPU can access";
    case Status::kDeviceError:
      return "a CUDA call failed (no usable GPU, or a kernel launch was refused)";
  }
  return "unknown status";
}

}  // namespace accelmath
