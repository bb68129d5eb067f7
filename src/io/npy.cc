#include "io/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

namespace accelmath::io {
namespace {

[[noreturn]] void Fail(const std::string& path, const std::string& what) { throw NpyError(printable(path + ": " + what)); }

static_assert(std::endian::native == std::endian::little, "the .npy data is handled as little-endian");

// The dtypes read and written: byte order char, kind char, size ("<f4", "|u1"); 0 for any other.
std::size_t ItemSize(const std::string& descr) {
  if (descr.size() != 3 || std::string("<>|=").find(descr[0]) == std::string::npos) return 0;
  for (const char* t : {"b1", "i1", "u1", "i2", "u2", "f2", "i4", "u4", "f4", "i8", "u8", "f8"}) {
    if (descr.compare(1, 2, t) == 0) return std::size_t(t[1] - '0');
  }
  return 0;
}

std::string Errno(int e) { return std::strerror(e); }

// A file descriptor closed on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Reads exactly n bytes; false if the file ends first.
bool ReadAll(int fd, void* p, std::size_t n, const std::string& path) {
  auto* c = static_cast<unsigned char*>(p);
  while (n > 0) {
    const ssize_t k = ::read(fd, c, std::min<std::size_t>(n, std::size_t{1} << 30));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) Fail(path, "cannot read: " + Errno(errno));
    if (k == 0) return false;
    c += k, n -= std::size_t(k);
  }
  return true;
}

bool WriteAll(int fd, const void* p, std::size_t n) {
  const auto* c = static_cast<const unsigned char*>(p);
  while (n > 0) {
    const ssize_t k = ::write(fd, c, std::min<std::size_t>(n, std::size_t{1} << 30));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k, n -= std::size_t(k);
  }
  return true;
}

// The header dict, parsed strictly (NumPy's own reader takes a Python literal and then checks
// it): exactly the keys 'descr' (a string), 'fortran_order' (True or False) and 'shape' (a tuple
// of non-negative integers, each at most 2^63 - 1), each once, in any order, with an optional
// trailing comma; Python whitespace between the tokens; strings in single quotes, as NumPy and
// the other .npy writers write them.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : h_(text), path_(path) {}

  NpyArray Parse() {
    NpyArray a;
    bool seen[3] = {false, false, false};
    Space();
    if (!Take('{')) Bad("the header is not a dict");
    for (Space(); !Take('}'); Space()) {
      const std::string key = String("a quoted key");
      Space();
      if (!Take(':')) Bad("no ':' after the key '" + key + "'");
      Space();
      int k;
      if (key == "descr") {
        k = 0;
        if (Peek('[') || Peek('{')) Fail(path_, "unsupported dtype: structured (record) arrays are not supported");
        a.descr = String("the descr string");
      } else if (key == "fortran_order") {
        k = 1;
        if (h_.compare(i_, 4, "True") == 0) a.fortran_order = true, i_ += 4;
        else if (h_.compare(i_, 5, "False") == 0) a.fortran_order = false, i_ += 5;
        else Bad("fortran_order is " + Token() + " (need True or False)");
      } else if (key == "shape") {
        k = 2;
        Shape(&a.shape);
      } else {
        Bad("unknown key '" + key + "' (a .npy header has exactly descr, fortran_order and shape)");
      }
      if (seen[k]) Bad("the key '" + key + "' appears twice");
      seen[k] = true;
      Space();
      if (Take(',')) continue;
      if (!Peek('}')) Bad("expected ',' or '}' after the '" + key + "' entry, found " + Token());
    }
    Space();
    if (i_ != h_.size()) Bad("text after the closing '}'");
    const char* names[3] = {"descr", "fortran_order", "shape"};
    for (int k = 0; k < 3; ++k) {
      if (!seen[k]) Bad(std::string("no '") + names[k] + "' entry");
    }
    return a;
  }

 private:
  [[noreturn]] void Bad(const std::string& why) { Fail(path_, "corrupt .npy header: " + why); }
  bool Peek(char c) const { return i_ < h_.size() && h_[i_] == c; }
  bool Take(char c) {
    if (!Peek(c)) return false;
    ++i_;
    return true;
  }
  void Space() {
    while (i_ < h_.size() && h_[i_] != '\0' && std::strchr(" \t\n\r\f\v", h_[i_])) ++i_;
  }
  // The text from here to the next delimiter, for messages.
  std::string Token() const {
    std::size_t e = i_;
    while (e < h_.size() && e - i_ < 40 && !std::strchr(",}\n", h_[e])) ++e;
    if (e == i_) return "nothing";
    std::string t(1, '\'');
    t.append(h_, i_, e - i_).push_back('\'');
    return t;
  }
  // A string literal in single quotes, printable ASCII without escapes.
  std::string String(const char* what) {
    if (!Peek('\'')) Bad(std::string("expected ") + what + " in single quotes, found " + Token());
    const char q = h_[i_++];
    const std::size_t start = i_;
    while (i_ < h_.size() && h_[i_] != q) {
      const unsigned char c = static_cast<unsigned char>(h_[i_]);
      if (c < 0x20 || c > 0x7E || c == '\\') Bad(std::string("unsupported character in ") + what);
      ++i_;
    }
    if (i_ == h_.size()) Bad(std::string("unterminated string (") + what + ")");
    return h_.substr(start, i_++ - start);
  }
  void Shape(std::vector<std::size_t>* shape) {
    const std::size_t start = i_;
    auto bad = [&](const std::string& why) {
      const std::size_t e = h_.find(')', start);
      const std::string text = e == std::string::npos || e - start > 80 ? h_.substr(start, 40) + "..." : h_.substr(start, e + 1 - start);
      Bad("shape " + text + " " + why);
    };
    if (!Take('(')) bad("is not a tuple");
    Space();
    if (Take(')')) return;  // () : a 0-d array
    bool comma = false;
    for (;;) {
      if (Peek('-')) bad("has a negative dimension");
      if (i_ >= h_.size() || h_[i_] < '0' || h_[i_] > '9') bad("is not a tuple of non-negative integers");
      if (h_[i_] == '0' && i_ + 1 < h_.size() && h_[i_ + 1] >= '0' && h_[i_ + 1] <= '9') bad("is not a tuple of non-negative integers");
      std::uint64_t d = 0;
      while (i_ < h_.size() && h_[i_] >= '0' && h_[i_] <= '9') {
        const unsigned digit = unsigned(h_[i_++] - '0');
        if (d > (std::uint64_t{INT64_MAX} - digit) / 10) bad("has a dimension too large (NumPy's limit is 2^63 - 1)");
        d = d * 10 + digit;
      }
      shape->push_back(std::size_t(d));
      Space();
      if (Take(')')) {
        if (!comma) bad("is not a tuple (a 1-tuple needs its comma: (n,))");
        return;
      }
      if (!Take(',')) bad("is not a tuple of non-negative integers");
      comma = true;
      Space();
      if (Take(')')) return;
    }
  }

  const std::string& h_;
  const std::string& path_;
  std::size_t i_ = 0;
};

// Bytes of an array of this dtype and shape, as NumPy checks it: the product of the nonzero
// dimensions times the item size must not exceed 2^63 - 1 (whether or not a zero dimension
// makes the array empty); false if it does.
bool DataBytes(const std::vector<std::size_t>& shape, std::size_t item, std::uint64_t* bytes) {
  std::uint64_t n = item;
  bool empty = false;
  for (std::size_t d : shape) {
    if (d == 0) empty = true;
    else if (__builtin_mul_overflow(n, std::uint64_t{d}, &n) || n > std::uint64_t{INT64_MAX}) return false;
  }
  *bytes = empty ? 0 : n;
  return true;
}

mode_t Umask() {
  const mode_t m = ::umask(0);
  ::umask(m);
  return m;
}

}  // namespace

std::string printable(const std::string& s, std::size_t limit) {
  std::string out;
  const std::size_t n = std::min(s.size(), limit);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != 0x7F) {
      out += static_cast<char>(c);
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    }
  }
  if (n < s.size()) out += "...";
  return out;
}

std::string quoted(const std::string& s, std::size_t limit) {
  std::string q = printable(s, limit);
  q.insert(q.begin(), '\'');  // not "'" + ...: GCC 12 warns (-Wrestrict) on that form
  return q += '\'';
}

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
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below like every file that
  // is not a regular one (a directory, /dev/zero, a socket), which could not keep the header's promise.
  const Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
  if (f.fd < 0) Fail(path, "cannot open: " + Errno(errno));
  struct stat st;
  if (::fstat(f.fd, &st) != 0) Fail(path, "cannot open: " + Errno(errno));
  if (S_ISDIR(st.st_mode)) Fail(path, "cannot read: is a directory, not a .npy file");
  if (!S_ISREG(st.st_mode)) Fail(path, "cannot read: not a regular file (a device, FIFO or socket), not a .npy file");
  const std::uint64_t size = std::uint64_t(st.st_size);
  unsigned char pre[12];
  if (size < 10 || !ReadAll(f.fd, pre, 10, path) || std::memcmp(pre, "\x93NUMPY", 6) != 0) {
    Fail(path, "not a .npy file (bad magic)");
  }
  const int major = pre[6];
  std::uint64_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = pre[8] | (std::uint64_t{pre[9]} << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12 || !ReadAll(f.fd, pre + 10, 2, path)) Fail(path, "truncated .npy header");
    header_len = pre[8] | (std::uint64_t{pre[9]} << 8) | (std::uint64_t{pre[10]} << 16) | (std::uint64_t{pre[11]} << 24);
    offset = 12;
  } else {
    Fail(path, "unsupported .npy format version " + std::to_string(major));
  }
  if (header_len > size - offset) {
    Fail(path, "truncated .npy header: " + std::to_string(header_len) + " bytes announced, " +
                   std::to_string(size - offset) + " in the file");
  }
  if (header_len > (std::uint64_t{1} << 20)) Fail(path, "corrupt .npy header: " + std::to_string(header_len) + " bytes long (1 MiB at most)");
  std::string header(header_len, '\0');
  if (!ReadAll(f.fd, header.data(), header_len, path)) Fail(path, "truncated .npy header (the file shrank while read)");

  NpyArray a = HeaderParser(header, path).Parse();
  const std::size_t item = ItemSize(a.descr);
  if (item == 0) Fail(path, "unsupported dtype " + quoted(a.descr, 64));
  if (a.descr[0] == '>' && item > 1) {
    Fail(path, "dtype " + quoted(a.descr, 64) + " is big-endian, which is not supported (save the array little-endian: a.astype('<" +
                   a.descr.substr(1) + "'))");
  }
  std::uint64_t want = 0;
  if (!DataBytes(a.shape, item, &want)) {
    Fail(path, "corrupt .npy header: shape " + a.shape_string() + " of '" + a.descr +
                   "' is too large (its size in bytes exceeds 2^63 - 1)");
  }
  const std::uint64_t have = size - offset - header_len;
  if (have < want) Fail(path, "truncated data: " + std::to_string(have) + " bytes for shape " + a.shape_string() + " of '" + a.descr + "' (" + std::to_string(want) + " needed)");
  if (have > want) Fail(path, "corrupt .npy file: " + std::to_string(have - want) + " bytes after the data");
  a.data.resize(std::size_t(want));
  if (!ReadAll(f.fd, a.data.data(), a.data.size(), path)) Fail(path, "truncated data (the file shrank while read)");
  unsigned char extra;
  if (ReadAll(f.fd, &extra, 1, path)) Fail(path, "corrupt .npy file: bytes after the data (the file grew while read)");
  return a;
}

OutputSet::OutputSet(std::vector<std::string> paths)
    : paths_(std::move(paths)), temps_(paths_.size()), fds_(paths_.size(), -1) {
  namespace fs = std::filesystem;
  std::vector<fs::path> canonical;
  std::vector<std::pair<dev_t, ino_t>> ids;  // (0, 0): does not exist yet
  for (const std::string& p : paths_) {
    if (p.empty()) throw NpyError("cannot write an output with an empty file name");
    const fs::path fp(p);
    if (!fp.has_filename()) Fail(p, "cannot write: the path names a folder, not a file");
    const fs::path dir = fp.has_parent_path() ? fp.parent_path() : fs::path(".");
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0) {
      Fail(p, "cannot write: folder '" + dir.string() + "': " + (errno == ENOENT ? std::string("does not exist") : Errno(errno)));
    }
    if (!S_ISDIR(st.st_mode)) Fail(p, "cannot write: '" + dir.string() + "' is not a folder");
    if (::access(dir.c_str(), W_OK | X_OK) != 0) Fail(p, "cannot write: folder '" + dir.string() + "' is not writable: " + Errno(errno));
    std::pair<dev_t, ino_t> id{0, 0};
    if (::stat(p.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) Fail(p, "cannot write: the output path is a directory");
      if (!S_ISREG(st.st_mode)) Fail(p, "cannot write: the output path exists and is not a regular file (a device, FIFO or socket)");
      id = {st.st_dev, st.st_ino};
    } else if (errno != ENOENT) {
      Fail(p, "cannot write: " + Errno(errno));
    }
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fp, ec);
    if (ec) c = fs::absolute(fp, ec).lexically_normal();
    for (std::size_t j = 0; j < canonical.size(); ++j) {
      if (c == canonical[j] || (id.second != 0 && id == ids[j])) {
        Fail(p, "cannot write: names the same file as the output " + paths_[j] + " (each output needs its own file)");
      }
    }
    canonical.push_back(c);
    ids.push_back(id);
  }
}

OutputSet::~OutputSet() {
  for (std::size_t i = 0; i < paths_.size(); ++i) Discard(i);
}

void OutputSet::Discard(std::size_t i) {
  if (fds_[i] >= 0) ::close(fds_[i]);
  fds_[i] = -1;
  if (!temps_[i].empty()) ::unlink(temps_[i].c_str());
  temps_[i].clear();
}

void OutputSet::begin(std::size_t i) {
  const std::string& path = paths_.at(i);
  Discard(i);
  std::string name = path + ".tmp.XXXXXX";  // mkostemp, as in write()
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) Fail(path, "cannot write: " + Errno(errno));
  temps_[i] = name;
  fds_[i] = fd;
}

void OutputSet::append(std::size_t i, const void* data, std::size_t n) {
  if (fds_.at(i) < 0) Fail(paths_[i], "internal error: append before begin");
  errno = 0;
  if (!WriteAll(fds_[i], data, n)) {
    const int e = errno;
    Discard(i);
    Fail(paths_[i], "cannot write: " + (e ? Errno(e) : std::string("write failed")));
  }
}

void OutputSet::write(std::size_t i, const NpyArray& a) {
  const std::string& path = paths_.at(i);
  std::uint64_t bytes = 0;
  const std::size_t item = ItemSize(a.descr);
  if (item == 0 || !DataBytes(a.shape, item, &bytes) || bytes != a.data.size()) {
    Fail(path, "internal error: " + std::to_string(a.data.size()) + " data bytes for shape " + a.shape_string() + " of '" + a.descr + "'");
  }
  std::string dict = "{'descr': '" + a.descr + "', 'fortran_order': " + (a.fortran_order ? "True" : "False") +
                     ", 'shape': " + a.shape_string() + ", }";
  const std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  if (dict.size() > 65535) Fail(path, "cannot write: header too long");
  Discard(i);
  // mkostemp: O_CREAT | O_EXCL with a random suffix, so a file or link planted under a guessed name
  // is never opened; the file is created 0600, and given the usual 0666 & ~umask once complete.
  std::string name = path + ".tmp.XXXXXX";
  const Fd f{::mkostemp(name.data(), O_CLOEXEC)};
  if (f.fd < 0) Fail(path, "cannot write: " + Errno(errno));
  temps_[i] = name;
  const unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(dict.size() & 0xFF),
                                 static_cast<unsigned char>(dict.size() >> 8)};
  errno = 0;
  if (!WriteAll(f.fd, pre, sizeof pre) || !WriteAll(f.fd, dict.data(), dict.size()) ||
      !WriteAll(f.fd, a.data.data(), a.data.size()) || ::fchmod(f.fd, 0666 & ~Umask()) != 0 || ::fsync(f.fd) != 0) {
    const int e = errno;
    ::unlink(name.c_str());
    temps_[i].clear();
    Fail(path, "cannot write: " + (e ? Errno(e) : std::string("write failed")));
  }
}

void OutputSet::commit() {
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    if (temps_[i].empty()) Fail(paths_[i], "internal error: output not written");
    if (fds_[i] < 0) continue;
    errno = 0;
    const bool ok = ::fchmod(fds_[i], 0666 & ~Umask()) == 0 && ::fsync(fds_[i]) == 0;
    const int e = errno;
    ::close(fds_[i]);
    fds_[i] = -1;
    if (!ok) Fail(paths_[i], "cannot write: " + (e ? Errno(e) : std::string("write failed")));
  }
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    if (::rename(temps_[i].c_str(), paths_[i].c_str()) != 0) Fail(paths_[i], "cannot write: " + Errno(errno));
    temps_[i].clear();
  }
}

void write_npy(const std::string& path, const NpyArray& a) {
  OutputSet out({path});
  out.write(0, a);
  out.commit();
}

std::vector<double> to_doubles(const NpyArray& a, const std::string& path) {
  const std::size_t n = a.count();
  const std::size_t item = ItemSize(a.descr);
  if (item == 0 || a.data.size() != n * item) Fail(path, "internal error: data size does not match shape " + a.shape_string());
  std::vector<double> out(n);
  if (n == 0) return out;  // (no memcpy from the null data() of an empty array)
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
    Fail(path, "dtype " + quoted(a.descr, 64) + " is not a floating-point type (need float16, float32 or float64)");
  }
  return out;
}

}  // namespace accelmath::io
