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
  }
  return "unknown status";
}

}  // namespace accelmath
