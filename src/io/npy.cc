#include "io/npy.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace accelmath::io {
namespace {

[[noreturn]] void Fail(const std::string& path, const std::string& what) { throw NpyError(path + ": " + what); }

std::size_t ItemSize(const std::string& descr) {
  // Simple dtypes only: byte order char, kind char, size digits ("<f4", "|u1").
  if (descr.size() < 3 || std::string("<>|=").find(descr[0]) == std::string::npos) return 0;
  if (std::string("fiub").find(descr[1]) == std::string::npos) return 0;
  std::size_t n = 0;
  for (std::size_t i = 2; i < descr.size(); ++i) {
    if (descr[i] < '0' || descr[i] > '9') return 0;
    n = n * 10 + std::size_t(descr[i] - '0');
  }
  return n;
}

// Value text of `key` in the header dict, up to the next top-level comma or closing brace.
std::string DictValue(const std::string& header, const std::string& key, const std::string& path) {
  const std::string k1 = "'" + key + "'";
  std::size_t pos = header.find(k1);
  if (pos == std::string::npos) Fail(path, "corrupt .npy header: no '" + key + "' entry");
  pos = header.find(':', pos + k1.size());
  if (pos == std::string::npos) Fail(path, "corrupt .npy header near '" + key + "'");
  ++pos;
  while (pos < header.size() && header[pos] == ' ') ++pos;
  int depth = 0;
  std::size_t end = pos;
  for (; end < header.size(); ++end) {
    const char c = header[end];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
  }
  if (end >= header.size()) Fail(path, "corrupt .npy header near '" + key + "'");
  std::string v = header.substr(pos, end - pos);
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

}  // namespace

std::size_t NpyArray::count() const {
  std::size_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}

std::string NpyArray::shape_string() const {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

NpyArray read_npy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) Fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) Fail(path, "not a .npy file (bad magic)");
  const int major = bytes[6];
  std::size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = bytes[8] | (std::size_t(bytes[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) Fail(path, "truncated .npy header");
    header_len = bytes[8] | (std::size_t(bytes[9]) << 8) | (std::size_t(bytes[10]) << 16) | (std::size_t(bytes[11]) << 24);
    offset = 12;
  } else {
    Fail(path, "unsupported .npy format version " + std::to_string(major));
  }
  if (bytes.size() < offset + header_len) Fail(path, "truncated .npy header");
  const std::string header(bytes.begin() + long(offset), bytes.begin() + long(offset + header_len));
  if (header.find('{') == std::string::npos || header.find('}') == std::string::npos) Fail(path, "corrupt .npy header");

  NpyArray a;
  std::string descr = DictValue(header, "descr", path);
  if (descr.size() < 2 || descr.front() != '\'' || descr.back() != '\'') Fail(path, "unsupported dtype " + descr);
  a.descr = descr.substr(1, descr.size() - 2);
  const std::size_t item = ItemSize(a.descr);
  if (item == 0) Fail(path, "unsupported dtype '" + a.descr + "'");
  const std::string fo = DictValue(header, "fortran_order", path);
  if (fo != "False" && fo != "True") Fail(path, "corrupt .npy header: fortran_order is " + fo);
  a.fortran_order = fo == "True";
  const std::string shape = DictValue(header, "shape", path);
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') Fail(path, "corrupt .npy header: shape " + shape);
  std::size_t i = 1;
  while (i < shape.size() - 1) {
    while (i < shape.size() - 1 && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i >= shape.size() - 1) break;
    std::size_t dim = 0, digits = 0;
    while (i < shape.size() - 1 && shape[i] >= '0' && shape[i] <= '9') dim = dim * 10 + std::size_t(shape[i++] - '0'), ++digits;
    if (digits == 0) Fail(path, "corrupt .npy header: shape " + shape);
    a.shape.push_back(dim);
  }
  const std::size_t want = a.count() * item;
  const std::size_t have = bytes.size() - offset - header_len;
  if (have < want) Fail(path, "truncated data: " + std::to_string(have) + " bytes for shape " + a.shape_string() + " of '" + a.descr + "' (" + std::to_string(want) + " needed)");
  if (have > want) Fail(path, "corrupt .npy file: " + std::to_string(have - want) + " bytes after the data");
  a.data.assign(bytes.begin() + long(offset + header_len), bytes.end());
  return a;
}

void write_npy(const std::string& path, const NpyArray& a) {
  std::string dict = "{'descr': '" + a.descr + "', 'fortran_order': " + (a.fortran_order ? "True" : "False") +
                     ", 'shape': " + a.shape_string() + ", }";
  std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  if (dict.size() > 65535) Fail(path, "header too long");
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) Fail(path, std::string("cannot write: ") + std::strerror(errno));
    const unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(dict.size() & 0xFF),
                                   static_cast<unsigned char>(dict.size() >> 8)};
    f.write(reinterpret_cast<const char*>(pre), 10);
    f.write(dict.data(), std::streamsize(dict.size()));
    f.write(reinterpret_cast<const char*>(a.data.data()), std::streamsize(a.data.size()));
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      Fail(path, "write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    std::remove(tmp.c_str());
    Fail(path, "cannot write: " + err);
  }
}

std::vector<double> to_doubles(const NpyArray& a, const std::string& path) {
  const std::size_t n = a.count();
  std::vector<double> out(n);
  const unsigned char* d = a.data.data();
  if (a.descr == "<f4") {
    for (std::size_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, d + 4 * i, 4);
      out[i] = v;
    }
  } else if (a.descr == "<f8") {
    std::memcpy(out.data(), d, 8 * n);
  } else if (a.descr == "<f2") {
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned h = d[2 * i] | (unsigned(d[2 * i + 1]) << 8);
      const int e = (h >> 10) & 0x1F;
      const double m = h & 0x3FF;
      double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m == 0 ? INFINITY : NAN) : std::ldexp(1024 + m, e - 25);
      out[i] = (h & 0x8000) ? -v : v;
    }
  } else {
    Fail(path, "dtype '" + a.descr + "' is not a floating-point type (need float16, float32 or float64)");
  }
  return out;
}

}  // namespace accelmath::io
