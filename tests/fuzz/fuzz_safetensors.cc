// libFuzzer harness: the safetensors reader (src/io/safetensors.cc) on arbitrary file contents.
// The input bytes are written to a temporary file and opened with accelmath::io::SafetensorsFile.
// Beyond "no crash, no sanitizer report" (JSON nested a million deep and a header of a million
// tensors were a stack overflow and hours of work before the depth limit and the linear-time scan):
//  - the only exception is accelmath::io::NpyError, whose message is one line (no control
//    character) and short (quoted names and values are cut: io::printable);
//  - when it returns: the tensors, in data order, tile the data section exactly (no gap, no
//    overlap, nothing after the last), each of a known dtype with count() x item size = end - begin,
//    no name twice, none over 4096 bytes, no metadata key twice;
//  - io::safetensors_header of those tensors and that metadata, followed by the same data section,
//    reads back as the same tensors (names, dtypes, shapes, offsets) and metadata, in order.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "io/npy.h"
#include "io/safetensors.h"

namespace {

using accelmath::io::SafetensorsFile;
using accelmath::io::StTensor;

[[noreturn]] void Violation(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_safetensors: invariant violated: %s (%s)\n", what, detail.substr(0, 200).c_str());
  std::abort();
}

// A temporary file on /dev/shm where there is one (as fuzz_npy: a disk-backed write costs more than
// the reader), removed at exit.
std::string TempPath(const char* tag) {
  const char* dir = std::getenv("TMPDIR");
  if (::access("/dev/shm", W_OK) == 0) dir = "/dev/shm";
  std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/fuzz_safetensors_" + tag + ".XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) std::abort();
  ::close(fd);
  return tmpl;
}
const std::string& InputPath() {
  static const std::string path = TempPath("in");
  return path;
}
const std::string& RoundTripPath() {
  static const std::string path = TempPath("rt");
  return path;
}
struct Cleanup {
  ~Cleanup() {
    std::remove(InputPath().c_str());
    std::remove(RoundTripPath().c_str());
  }
} cleanup;

void Write(const std::string& path, const void* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

void CheckMessage(const std::string& msg) {
  for (unsigned char c : msg) {
    if (c < 0x20 || c == 0x7F) Violation("an error message holds a control character", msg);
  }
  // The path, the reader's own words, and quoted names (256 bytes), dtypes, values (64) and shapes (256).
  if (msg.size() > InputPath().size() + 1200) Violation("an error message of more than 1200 bytes", msg);
}

void CheckFile(const SafetensorsFile& f, uint64_t data_size) {
  uint64_t at = 0;
  std::set<std::string> names, keys;
  for (const StTensor& t : f.tensors()) {
    const std::size_t item = accelmath::io::st_item_size(t.dtype);
    if (item == 0) Violation("accepted an unknown dtype", t.dtype);
    if (t.name.size() > 4096) Violation("accepted a name over 4096 bytes", t.name);
    if (!names.insert(t.name).second) Violation("accepted a name twice", t.name);
    if (t.begin != at || t.end < t.begin) Violation("tensors do not tile the data section", t.name);
    uint64_t bytes = item;
    for (int64_t d : t.shape) {
      if (d < 0 || __builtin_mul_overflow(bytes, uint64_t(d), &bytes)) Violation("accepted a shape that overflows", t.shape_string());
    }
    if (bytes != t.end - t.begin) Violation("count x item size is not end - begin", t.name);
    at = t.end;
  }
  if (at != data_size) Violation("the tensors do not end where the data section does", std::to_string(at));
  for (const auto& [k, v] : f.metadata()) {
    if (!keys.insert(k).second) Violation("accepted a metadata key twice", k);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Write(InputPath(), data, size);
  try {
    const SafetensorsFile f(InputPath());
    uint64_t n = 0;
    std::memcpy(&n, data, 8);  // accepted: at least 8 bytes
    const uint64_t data_size = size - 8 - n;
    CheckFile(f, data_size);
    // The writer on what was read: the same tensors and metadata come back.
    std::vector<StTensor> tensors = f.tensors();
    std::string out = accelmath::io::safetensors_header(tensors, f.metadata());
    out.append(reinterpret_cast<const char*>(data) + 8 + n, data_size);
    Write(RoundTripPath(), out.data(), out.size());
    const SafetensorsFile g(RoundTripPath());
    if (g.metadata() != f.metadata()) Violation("the written metadata reads back different", "");
    if (g.tensors().size() != f.tensors().size()) Violation("the written header reads back another tensor count", "");
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const StTensor &a = f.tensors()[i], &b = g.tensors()[i];
      if (a.name != b.name || a.dtype != b.dtype || a.shape != b.shape || a.begin != b.begin || a.end != b.end) {
        Violation("the written header reads back another tensor", a.name);
      }
    }
  } catch (const accelmath::io::NpyError& e) {
    CheckMessage(e.what());  // the one documented failure
  }
  return 0;
}
