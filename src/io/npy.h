// Minimal reader/writer of NumPy .npy files (format versions 1.0, 2.0, 3.0), for the CLI.
// Errors throw NpyError whose message is one line naming the file and the problem.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace accelmath::io {

struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NpyArray {
  std::string descr;  // NumPy dtype string, e.g. "<f4"
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::vector<unsigned char> data;  // raw little-endian element bytes

  std::size_t count() const;
  std::string shape_string() const;  // "(2, 3)"
};

NpyArray read_npy(const std::string& path);

// Writes atomically: a temporary file in the same folder, renamed over `path` when complete.
void write_npy(const std::string& path, const NpyArray& array);

// Element values as doubles, for descr <f2, <f4, <f8 (NpyError otherwise).
std::vector<double> to_doubles(const NpyArray& a, const std::string& path);

}  // namespace accelmath::io
