// Error codes of accelmath's array functions. Array functions validate first and either do all
// of their work or none of it: a non-kOk Status means nothing was written.
#pragma once

namespace accelmath {

enum class Status : int {
  kOk = 0,
  // `count` is larger than the source or the destination span.
  kBufferTooSmall = 1,
  // Source and destination overlap without starting at the same address.
  kPartialOverlap = 2,
};

// A short English sentence describing `s`, e.g. for error messages.
const char* status_message(Status s) noexcept;

}  // namespace accelmath
