// Reader and writer of safetensors files (the format of Hugging Face checkpoints), for the CLI's
// checkpoint quantize/dequantize. Layout: an 8-byte little-endian header length N, N bytes of JSON
// ({"__metadata__": {string: string}, name: {"dtype", "shape", "data_offsets": [begin, end]}, ...},
// offsets relative to the data section), then the data section.
// The reader takes hostile input and throws NpyError (one line naming the file, and the tensor
// where there is one; control characters escaped, quoted names and values cut short: io::printable)
// unless every rule holds: a regular file; N at most 100 MB and inside the file; JSON that parses,
// nested at most 128 deep, with no key twice in any object; each tensor's name at most 4096 bytes
// and its entry an object of exactly "dtype" (a known dtype), "shape" (non-negative integers) and
// "data_offsets" (two integers, begin <= end); its byte count (shape product times the dtype's
// size, overflow-checked) equal to end - begin; the tensors, sorted by offset, tiling the data
// section exactly (no gap, no overlap, nothing after the last one). The header is read one entry
// at a time (no DOM of the whole header), the file memory-mapped: nothing is copied until a
// tensor is used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace accelmath::io {

// The largest JSON header the reader accepts: the reference implementation's limit, so also the
// largest a written file may have and still be read (the CLI refuses to write a larger one).
inline constexpr uint64_t kMaxSafetensorsHeader = 100'000'000;
// The longest tensor name the reader takes, in bytes (what a writer must keep to, too). Longer names
// are refused: the CLI matches names with std::regex, whose libstdc++ matcher recurses per character
// (--include '.*weight' overflowed the stack on a 50,000-byte name). Model checkpoints' names are
// module paths of a few hundred bytes at most.
inline constexpr std::size_t kMaxSafetensorsName = 4096;

struct StTensor {
  std::string name;
  std::string dtype;  // as in the file: "F32", "BF16", "U8", ...
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  // byte offsets in the data section

  uint64_t count() const;           // elements (1 for shape [])
  std::string shape_string() const;  // "[2, 3]"
};

// Bytes per element of a safetensors dtype, 0 for a dtype this reader does not know (or sub-byte
// ones such as "F4", which it does not handle).
std::size_t st_item_size(const std::string& dtype);

class SafetensorsFile {
 public:
  explicit SafetensorsFile(const std::string& path);
  ~SafetensorsFile();
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;

  const std::string& path() const { return path_; }
  const std::vector<StTensor>& tensors() const { return tensors_; }  // in data order
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }  // in file order
  const unsigned char* data(const StTensor& t) const { return data_ + t.begin; }
  // Drops the pages that hold only tensor t from memory (they are read again if touched): the
  // resident size of a pass over the file stays near one tensor's, not the file's.
  void release(const StTensor& t) const;

 private:
  std::string path_;
  std::vector<StTensor> tensors_;
  std::vector<std::pair<std::string, std::string>> metadata_;
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  const unsigned char* data_ = nullptr;
};

// The 8-byte length and the JSON header of a file holding `tensors` in this order, their data
// contiguous from offset 0 (begin/end are assigned here from each tensor's dtype and shape), with
// `metadata` as "__metadata__" (left out when empty). The JSON is padded with spaces to a multiple
// of 8 bytes, so the data section starts 8-byte aligned.
std::string safetensors_header(std::vector<StTensor>& tensors,
                               const std::vector<std::pair<std::string, std::string>>& metadata);

}  // namespace accelmath::io
