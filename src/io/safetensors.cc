#include "io/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <set>

#include <nlohmann/json.hpp>

#include "io/npy.h"

namespace accelmath::io {
namespace {

using Json = nlohmann::ordered_json;

static_assert(std::endian::native == std::endian::little, "safetensors data are little-endian");

[[noreturn]] void Fail(const std::string& path, const std::string& what) { throw NpyError(printable(path + ": " + what)); }

constexpr uint64_t kMaxHeader = 100'000'000;  // the limit of the reference implementation
// JSON nested deeper than this is refused before it is built: nlohmann's DOM recurses per level
// (a header of 10^6 nested arrays overflowed the stack). 128 is serde_json's default recursion
// limit, which the reference implementation (Rust) parses with; a valid header nests 3 deep.
constexpr int kMaxDepth = 128;
// Longer tensor names are refused: the CLI matches names with std::regex, whose libstdc++ matcher
// recurses per character (--include '.*weight' overflowed the stack on a 50,000-byte name). Model
// checkpoints' names are module paths of a few hundred bytes at most.
constexpr std::size_t kMaxName = 4096;

// A tensor (or key) name and a JSON value as quoted in an error, cut short: both come from a
// header of up to 100 MB.
std::string Named(const std::string& name) {
  std::string q = printable(name, 256);
  q.insert(q.begin(), '\'');  // not "'" + ...: GCC 12 warns (-Wrestrict) on that form
  return q += '\'';
}
std::string Brief(const Json& j) { return printable(j.dump(), 64); }

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// A tensor entry's shape: an array of non-negative integers.
std::vector<int64_t> ParseShape(const Json& j, const std::string& path, const std::string& name) {
  if (!j.is_array()) Fail(path, "tensor " + Named(name) + ": \"shape\" is not an array");
  std::vector<int64_t> shape;
  for (const Json& d : j) {
    if (!d.is_number_unsigned() || d.get<uint64_t>() > uint64_t(INT64_MAX)) {
      Fail(path, "tensor " + Named(name) + ": \"shape\" holds " + Brief(d) + ", not a non-negative integer");
    }
    shape.push_back(d.get<int64_t>());
  }
  return shape;
}

}  // namespace

uint64_t StTensor::count() const {
  uint64_t n = 1;
  for (int64_t d : shape) n *= uint64_t(d);
  return n;
}

std::string StTensor::shape_string() const {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::size_t st_item_size(const std::string& dtype) {
  static const std::pair<const char*, std::size_t> kTypes[] = {
      {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"F8_E8M0", 1}, {"I16", 2}, {"U16", 2},
      {"F16", 2},  {"BF16", 2}, {"I32", 4}, {"U32", 4},     {"F32", 4},     {"F64", 8},     {"I64", 8}, {"U64", 8}};
  for (const auto& [name, size] : kTypes) {
    if (dtype == name) return size;
  }
  return 0;
}

SafetensorsFile::SafetensorsFile(const std::string& path) : path_(path) {
  const Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
  if (f.fd < 0) Fail(path, "cannot open: " + std::string(std::strerror(errno)));
  struct stat st;
  if (::fstat(f.fd, &st) != 0) Fail(path, "cannot open: " + std::string(std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) Fail(path, "cannot read: not a regular file");
  const uint64_t size = uint64_t(st.st_size);
  if (size < 8) Fail(path, "not a safetensors file: " + std::to_string(size) + " bytes, shorter than the 8-byte header length");
  map_size_ = std::size_t(size);
  map_ = ::mmap(nullptr, map_size_, PROT_READ, MAP_PRIVATE, f.fd, 0);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    Fail(path, "cannot map: " + std::string(std::strerror(errno)));
  }
  try {
    const auto* bytes = static_cast<const unsigned char*>(map_);
    uint64_t n = 0;
    std::memcpy(&n, bytes, 8);
    if (n > size - 8) {
      Fail(path, "truncated or not a safetensors file: the header length says " + std::to_string(n) + " bytes, " +
                     std::to_string(size - 8) + " follow");
    }
    if (n > kMaxHeader) Fail(path, "corrupt header: " + std::to_string(n) + " bytes long (100 MB at most)");
    // Duplicate keys: nlohmann keeps the last silently; a stack of key sets per open object refuses them.
    std::vector<std::set<std::string>> keys;
    std::string duplicate;
    const Json::parser_callback_t check = [&](int depth, Json::parse_event_t event, Json& parsed) {
      if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) && depth >= kMaxDepth) {
        Fail(path, "corrupt header: JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
      }
      if (event == Json::parse_event_t::object_start) {
        keys.emplace_back();
      } else if (event == Json::parse_event_t::object_end) {
        keys.pop_back();
      } else if (event == Json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second &&
                 duplicate.empty()) {
        duplicate = parsed.get<std::string>();
      }
      return true;
    };
    Json header;
    try {
      header = Json::parse(bytes + 8, bytes + 8 + n, check);
    } catch (const Json::exception& e) {
      std::string what = e.what();
      std::replace(what.begin(), what.end(), '\n', ' ');
      Fail(path, "corrupt header: not valid JSON (" + what + ")");
    }
    if (!duplicate.empty()) Fail(path, "corrupt header: the key " + Named(duplicate) + " appears twice in one object");
    if (!header.is_object()) Fail(path, "corrupt header: not a JSON object");
    for (const auto& [name, entry] : header.items()) {
      if (name == "__metadata__") {
        if (!entry.is_object()) Fail(path, "corrupt header: \"__metadata__\" is not an object");
        for (const auto& [k, v] : entry.items()) {
          if (!v.is_string()) Fail(path, "corrupt header: \"__metadata__\" entry " + Named(k) + " is not a string");
          metadata_.emplace_back(k, v.get<std::string>());
        }
        continue;
      }
      if (name.size() > kMaxName) {
        Fail(path, "tensor " + Named(name) + ": a name of " + std::to_string(name.size()) + " bytes (" + std::to_string(kMaxName) +
                       " at most)");
      }
      if (!entry.is_object() || entry.size() != 3 || !entry.contains("dtype") || !entry.contains("shape") ||
          !entry.contains("data_offsets")) {
        Fail(path, "tensor " + Named(name) + ": expected an object of exactly \"dtype\", \"shape\" and \"data_offsets\"");
      }
      StTensor t;
      t.name = name;
      if (!entry["dtype"].is_string()) Fail(path, "tensor " + Named(name) + ": \"dtype\" is not a string");
      t.dtype = entry["dtype"].get<std::string>();
      const std::size_t item = st_item_size(t.dtype);
      if (item == 0) Fail(path, "tensor " + Named(name) + ": unsupported dtype " + Named(t.dtype));
      t.shape = ParseShape(entry["shape"], path, name);
      const Json& off = entry["data_offsets"];
      if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned() ||
          off[0].get<uint64_t>() > off[1].get<uint64_t>()) {
        Fail(path, "tensor " + Named(name) + ": \"data_offsets\" must be [begin, end] with 0 <= begin <= end, not " + Brief(off));
      }
      t.begin = off[0].get<uint64_t>(), t.end = off[1].get<uint64_t>();
      uint64_t want = item;
      for (int64_t d : t.shape) {
        if (__builtin_mul_overflow(want, uint64_t(d), &want)) Fail(path, "tensor " + Named(name) + ": shape " + printable(t.shape_string(), 256) + " is too large");
      }
      if (want != t.end - t.begin) {
        Fail(path, "tensor " + Named(name) + ": shape " + printable(t.shape_string(), 256) + " of " + t.dtype + " needs " + std::to_string(want) +
                       " bytes, its data_offsets span " + std::to_string(t.end - t.begin));
      }
      tensors_.push_back(std::move(t));
    }
    std::stable_sort(tensors_.begin(), tensors_.end(), [](const StTensor& a, const StTensor& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    const uint64_t data_size = size - 8 - n;
    uint64_t at = 0;
    for (const StTensor& t : tensors_) {
      if (t.begin != at) {
        Fail(path, "tensor " + Named(t.name) + ": data_offsets [" + std::to_string(t.begin) + ", " + std::to_string(t.end) + "] " +
                       (t.begin < at ? "overlap the previous tensor" : "leave a gap after the previous tensor") + " (expected it at " +
                       std::to_string(at) + ")");
      }
      if (t.end > data_size) {
        Fail(path, "truncated: tensor " + Named(t.name) + " ends at byte " + std::to_string(t.end) + " of the data, which holds " +
                       std::to_string(data_size));
      }
      at = t.end;
    }
    if (at != data_size) Fail(path, "corrupt file: " + std::to_string(data_size - at) + " bytes after the last tensor");
    data_ = bytes + 8 + n;
  } catch (...) {
    ::munmap(map_, map_size_);
    map_ = nullptr;
    throw;
  }
}

void SafetensorsFile::release(const StTensor& t) const {
  const auto page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const uintptr_t lo = (uintptr_t(data_ + t.begin) + page - 1) / page * page, hi = uintptr_t(data_ + t.end) / page * page;
  if (lo < hi) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);  // advice: its failure changes nothing
}

SafetensorsFile::~SafetensorsFile() {
  if (map_ != nullptr) ::munmap(map_, map_size_);
}

std::string safetensors_header(std::vector<StTensor>& tensors,
                               const std::vector<std::pair<std::string, std::string>>& metadata) {
  Json header = Json::object();
  if (!metadata.empty()) {
    Json m = Json::object();
    for (const auto& [k, v] : metadata) m[k] = v;
    header["__metadata__"] = std::move(m);
  }
  uint64_t at = 0;
  for (StTensor& t : tensors) {
    t.begin = at;
    t.end = at += t.count() * st_item_size(t.dtype);
    header[t.name] = Json{{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {t.begin, t.end}}};
  }
  std::string json = header.dump();
  json.append((8 - json.size() % 8) % 8, ' ');
  std::string out(8, '\0');
  const uint64_t n = json.size();
  std::memcpy(out.data(), &n, 8);
  return out + json;
}

}  // namespace accelmath::io
