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
  // Two arrays that must have the same length do not (atomic: dst and src; scatter: index and src).
  kSizeMismatch = 3,
  // A scatter index is negative or not less than the destination's length.
  kIndexOutOfRange = 4,
  // The destination is not aligned as its element type's atomic operations require.
  kMisaligned = 5,
  // A source or index array shares memory with the destination (atomic operations).
  kOverlap = 6,
  // An enumeration argument has a value outside its documented set (e.g. an atomic Mode).
  kInvalidArgument = 7,
  // A pointer argument is null while its element count is not zero (the C ABI, accelmath/c_api.h).
  kNullPointer = 8,
  // A pointer given to the CUDA API (accelmath/cuda.h) is not memory the GPU can access.
  kNotDeviceMemory = 9,
  // A CUDA call failed: no usable GPU or driver, or a kernel launch was refused (accelmath/cuda.h).
  kDeviceError = 10,
};

// A short English sentence describing `s`, e.g. for error messages.
const char* status_message(Status s) noexcept;

}  // namespace accelmath
