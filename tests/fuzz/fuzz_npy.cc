// libFuzzer harness: the .npy reader (src/io/npy.cc) on arbitrary file contents.
// The input bytes are written to a temporary file and read with accelmath::io::read_npy. Beyond
// "no crash, no sanitizer report", when it returns:
//  - the descr is a simple dtype whose item size, times count(), equals data.size() without
//    overflow (a wrapped product is a failure, not an accepted array);
//  - the header in the file names that descr (byte order aside for '|', '=', '<' and one-byte
//    items) and the same dims, and the data are exactly the bytes after the header;
// and the only exception it throws is accelmath::io::NpyError (libFuzzer reports any other).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "io/npy.h"

namespace {

[[noreturn]] void Violation(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_npy: invariant violated: %s (%s)\n", what, detail.c_str());
  std::abort();
}

const std::string& TempPath() {
  static const std::string path = [] {
    // Memory-backed /dev/shm when there is one: on a disk-backed /tmp each write of the input
    // costs milliseconds, 50 times the reader's own time.
    const char* dir = std::getenv("TMPDIR");
    if (::access("/dev/shm", W_OK) == 0) dir = "/dev/shm";
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/fuzz_npy.XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) std::abort();
    ::close(fd);
    std::atexit([] { std::remove(TempPath().c_str()); });
    return tmpl;
  }();
  return path;
}

// Item size of a simple descr ("<f4", "|u1"), or 0.
std::size_t ItemSize(const std::string& d) {
  if (d.size() < 3 || std::string("<>|=").find(d[0]) == std::string::npos || std::string("fiub").find(d[1]) == std::string::npos) return 0;
  std::size_t n = 0;
  for (std::size_t i = 2; i < d.size(); ++i) {
    if (d[i] < '0' || d[i] > '9') return 0;
    if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, std::size_t(d[i] - '0'), &n)) return 0;
  }
  return n;
}

void Check(const std::vector<unsigned char>& bytes, const accelmath::io::NpyArray& a) {
  const std::size_t item = ItemSize(a.descr);
  if (item == 0) Violation("accepted a descr without a valid item size", a.descr);
  std::size_t count = 1;
  for (std::size_t d : a.shape) {
    if (__builtin_mul_overflow(count, d, &count)) Violation("accepted a shape whose element count overflows", a.shape_string());
  }
  if (count != a.count()) Violation("count() differs from the product of the dims", a.shape_string());
  std::size_t want;
  if (__builtin_mul_overflow(count, item, &want)) Violation("accepted a shape whose byte size overflows", a.shape_string() + " " + a.descr);
  if (a.data.size() != want) {
    Violation("data size is not count() x itemsize", std::to_string(a.data.size()) + " vs " + std::to_string(want));
  }
  // The file's own header: version, length, text.
  if (bytes.size() < 10) Violation("accepted a file shorter than the preamble", "");
  const int major = bytes[6];
  std::size_t len = 0, off = 0;
  if (major == 1) len = bytes[8] | (std::size_t(bytes[9]) << 8), off = 10;
  else if ((major == 2 || major == 3) && bytes.size() >= 12) len = bytes[8] | (std::size_t(bytes[9]) << 8) | (std::size_t(bytes[10]) << 16) | (std::size_t(bytes[11]) << 24), off = 12;
  else Violation("accepted an unknown format version", std::to_string(major));
  if (off + len > bytes.size()) Violation("accepted a header longer than the file", "");
  const std::string header(bytes.begin() + long(off), bytes.begin() + long(off + len));
  // The descr as the header spells it, up to the byte order: '|', '=' and '<' all read as little-
  // endian here; big-endian ('>') only for one-byte items, which have no byte order.
  bool named = false;
  for (char order : std::string("<>|=")) {
    if (header.find(std::string("'") + order + a.descr.substr(1) + "'") == std::string::npos) continue;
    if (order == '>' && item > 1 && a.descr[0] != '>') continue;
    named = true;
  }
  if (!named) Violation("descr not in the header", a.descr);
  if (a.descr[0] == '>' && item > 1) Violation("accepted big-endian data without converting it", a.descr);
  if (bytes.size() - off - len != a.data.size() ||
      (!a.data.empty() && std::memcmp(a.data.data(), bytes.data() + off + len, a.data.size()) != 0)) {
    Violation("data are not the bytes after the header", "");
  }
  // The shape entry's digits, dim by dim.
  const std::size_t k = header.find("'shape'");
  if (k == std::string::npos) Violation("no 'shape' in the header", "");
  const std::size_t open = header.find('(', k), close = header.find(')', k);
  if (open == std::string::npos || close == std::string::npos || close < open) Violation("no shape tuple in the header", "");
  std::vector<std::size_t> dims;
  for (std::size_t i = open + 1; i < close;) {
    if (header[i] >= '0' && header[i] <= '9') {
      std::size_t v = 0;
      while (i < close && header[i] >= '0' && header[i] <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, std::size_t(header[i] - '0'), &v)) {
          Violation("accepted a dim that does not fit in size_t", header.substr(open, close - open + 1));
        }
        ++i;
      }
      dims.push_back(v);
    } else {
      ++i;
    }
  }
  if (dims != a.shape) Violation("shape differs from the header's", header.substr(open, close - open + 1) + " vs " + a.shape_string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = TempPath();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
  }
  try {
    const accelmath::io::NpyArray a = accelmath::io::read_npy(path);
    Check(std::vector<unsigned char>(data, data + size), a);
  } catch (const accelmath::io::NpyError&) {
    // the one documented failure
  }
  return 0;
}
