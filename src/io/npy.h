// Minimal reader/writer of NumPy .npy files (format versions 1.0, 2.0, 3.0), for the CLI.
// Errors throw NpyError whose message is one line naming the file and the problem.
// The reader takes hostile input: it accepts only regular files, parses the header strictly (a
// Python dict of exactly 'descr', 'fortran_order' and 'shape'; the shape a tuple of non-negative
// integers), checks every size for overflow and requires the data to fill the rest of the file
// exactly before it allocates anything.
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

// Bool, integer and float dtypes of 1, 2, 4 or 8 bytes, not big-endian (descr as in the file:
// '<f4', '<u2', '|u1', ...); every other dtype is refused.
NpyArray read_npy(const std::string& path);

// Every output file of one command, written all or nothing. The constructor checks each path up
// front and throws NpyError naming the path and the rule it breaks: its folder exists and is
// writable, the path is not a directory (nor a device, FIFO or socket), no two paths name the same
// file. write(i, a) writes output i to a new temporary file in that folder (mkstemp: exclusive
// create, an unpredictable name, so nothing planted there is followed); commit() renames every
// temporary over its path once all are written; the destructor removes what was not committed, so
// an error before commit() leaves every existing output as it was.
class OutputSet {
 public:
  explicit OutputSet(std::vector<std::string> paths);
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  void write(std::size_t i, const NpyArray& array);
  void commit();

 private:
  std::vector<std::string> paths_, temps_;  // temps_[i]: output i's written temporary, "" if none
};

// One output through an OutputSet: a temporary file in the same folder, renamed over `path` when complete.
void write_npy(const std::string& path, const NpyArray& array);

// Element values as doubles, for descr <f2, <f4, <f8 (NpyError otherwise).
std::vector<double> to_doubles(const NpyArray& a, const std::string& path);

}  // namespace accelmath::io
