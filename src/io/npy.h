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

// s with each control character (bytes below 0x20, and 0x7F) written as \n, \r, \t or \xHH, so that
// a message quoting a file's contents (a tensor name, a dtype, a file name) stays one line; cut to
// its first `limit` bytes where longer, "..." marking the cut (a value from a 100 MB header must
// not make a 100 MB message). The readers' errors and the CLI's error lines go through it.
std::string printable(const std::string& s, std::size_t limit = std::string::npos);
// printable(s, limit) in single quotes: a name or value from a file, as an error quotes it.
std::string quoted(const std::string& s, std::size_t limit);

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
  // Output i written in pieces (any format, e.g. a safetensors file larger than memory): begin(i)
  // creates its temporary, append(i, ...) adds bytes to it, commit() completes it like the others.
  void begin(std::size_t i);
  void append(std::size_t i, const void* data, std::size_t n);
  void commit();

 private:
  void Discard(std::size_t i);  // removes output i's temporary, if any
  std::vector<std::string> paths_, temps_;  // temps_[i]: output i's written temporary, "" if none
  std::vector<int> fds_;                    // fds_[i]: output i's open temporary (begin), -1 if none
};

// One output through an OutputSet: a temporary file in the same folder, renamed over `path` when complete.
void write_npy(const std::string& path, const NpyArray& array);

// Element values as doubles, for descr <f2, <f4, <f8 (NpyError otherwise).
std::vector<double> to_doubles(const NpyArray& a, const std::string& path);

}  // namespace accelmath::io
