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

// Objects as std::map, O(log n) a key (nlohmann::ordered_json's are vectors searched per key); the
// header's order is the order HeaderReader hands its entries over.
using Json = nlohmann::json;

static_assert(std::endian::native == std::endian::little, "safetensors data are little-endian");

[[noreturn]] void Fail(const std::string& path, const std::string& what) { throw NpyError(printable(path + ": " + what)); }

// JSON nested deeper than this is refused (HeaderReader stops there): a header of 10^6
// nested arrays overflowed the stack in nlohmann's callback parser, which recursed per level. 128
// is serde_json's default recursion limit, which the reference implementation (Rust) parses with;
// a valid header nests 3 deep.
constexpr int kMaxDepth = 128;

// A tensor (or key) name and a JSON value as quoted in an error, cut short: both come from a
// header of up to 100 MB.
std::string Named(const std::string& name) { return quoted(name, 256); }
std::string Brief(const Json& j) { return printable(j.dump(), 64); }

// One pass over the header with nlohmann's SAX interface (not its parse callback, which scans the
// parent object at each object's end: a header of n tensors cost n^2, 40,000 empty tensors 7 s to
// quantize and 22 s to dequantize on an Intel Xeon guest; nor one DOM of the whole header, which
// took 293 MB to read an 18 MB header of 300,000 tensors on a Zen 5 guest, 104 MB this way). It
// checks the structure as it goes: an object at the top ("not a JSON object" otherwise), nesting at
// most kMaxDepth (sax_parse stops past it), no key twice in one object (nlohmann keeps the last
// silently: a stack of key sets, one per open object). The value of each top-level key is built as
// a DOM of its own, handed to `entry` (name, value, and for "__metadata__" its keys in file order:
// the DOM's objects are sorted) and dropped. `entry` and the checks throw (Fail) at the first
// problem in file order; a syntax error leaves `error` set and sax_parse false.
template <class Entry>
struct HeaderReader : nlohmann::json_sax<Json> {
  HeaderReader(const std::string& p, const Entry& e) : path(p), entry(e) {}
  const std::string& path;
  const Entry& entry;
  int depth = 0;  // open containers, the header object included
  std::vector<std::set<std::string>> keys;  // one per open object
  std::string name, key_, error;  // the top-level key; the key of the next member of an inner object
  Json value;
  std::vector<Json*> open;  // the containers of `value` being built, innermost last
  std::vector<std::string> meta;

  // Puts v into the innermost open container, or hands it over as a whole entry.
  template <class T>
  Json* put(T&& v) {
    if (open.empty()) {
      value = Json(std::forward<T>(v));
      return &value;
    }
    Json& c = *open.back();
    return c.is_array() ? &c.emplace_back(std::forward<T>(v)) : &(c[key_] = std::forward<T>(v));
  }
  void top_is_object(bool yes) {
    if (depth == 0 && !yes) Fail(path, "corrupt header: not a JSON object");
  }
  bool scalar(Json v) {
    top_is_object(false);
    put(std::move(v));
    if (open.empty()) done();
    return true;
  }
  void done() {
    entry(name, value, meta);
    value = Json();
  }
  bool start(Json v, bool object) {
    top_is_object(object);
    if (object) keys.emplace_back();
    if (depth > 0) open.push_back(put(std::move(v)));  // depth 0: the header object itself
    return ++depth <= kMaxDepth;
  }
  bool end(bool object) {
    if (object) keys.pop_back();
    if (--depth > 0) {
      open.pop_back();
      if (open.empty()) done();
    }
    return true;
  }
  bool start_object(std::size_t) override { return start(Json::object(), true); }
  bool end_object() override { return end(true); }
  bool start_array(std::size_t) override { return start(Json::array(), false); }
  bool end_array() override { return end(false); }
  bool key(string_t& k) override {
    if (!keys.back().insert(k).second) Fail(path, "corrupt header: the key " + Named(k) + " appears twice in one object");
    if (depth == 1) {
      name = k;
      meta.clear();
    } else {
      if (depth == 2 && name == "__metadata__") meta.push_back(k);
      key_ = k;
    }
    return true;
  }
  bool null() override { return scalar(nullptr); }
  bool boolean(bool b) override { return scalar(b); }
  bool number_integer(number_integer_t v) override { return scalar(v); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(v); }
  bool number_float(number_float_t v, const string_t&) override { return scalar(v); }
  bool string(string_t& v) override { return scalar(std::move(v)); }
  bool binary(binary_t&) override { return true; }  // JSON text has none
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = e.what();
    return false;
  }
};

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
    if (n > kMaxSafetensorsHeader) Fail(path, "corrupt header: " + std::to_string(n) + " bytes long (100 MB at most)");
    const char* text = reinterpret_cast<const char*>(bytes + 8);
    auto add = [&](const std::string& name, const Json& entry, const std::vector<std::string>& meta) {
      if (name == "__metadata__") {
        if (!entry.is_object()) Fail(path, "corrupt header: \"__metadata__\" is not an object");
        for (const std::string& k : meta) {
          const Json& v = entry.at(k);
          if (!v.is_string()) Fail(path, "corrupt header: \"__metadata__\" entry " + Named(k) + " is not a string");
          metadata_.emplace_back(k, v.get<std::string>());
        }
        return;
      }
      if (name.size() > kMaxSafetensorsName) {
        Fail(path, "tensor " + Named(name) + ": a name of " + std::to_string(name.size()) + " bytes (" + std::to_string(kMaxSafetensorsName) +
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
        Fail(path, "tensor " + Named(name) + ": \"data_offsets\" must be [begin, end] with 0 <= begin <= end, not " +
                       Brief(off));
      }
      t.begin = off[0].get<uint64_t>(), t.end = off[1].get<uint64_t>();
      uint64_t want = item;
      for (int64_t d : t.shape) {
        if (__builtin_mul_overflow(want, uint64_t(d), &want)) {
          Fail(path, "tensor " + Named(name) + ": shape " + printable(t.shape_string(), 256) + " is too large");
        }
      }
      if (want != t.end - t.begin) {
        Fail(path, "tensor " + Named(name) + ": shape " + printable(t.shape_string(), 256) + " of " + t.dtype + " needs " +
                       std::to_string(want) + " bytes, its data_offsets span " + std::to_string(t.end - t.begin));
      }
      tensors_.push_back(std::move(t));
    };
    // Two things nlohmann's reader takes that JSON (RFC 8259) and the reference reader do not: a UTF-8
    // byte order mark before the text (skipped) and a NUL byte (read as the end of the input, so that
    // anything after one went unread).
    if (n >= 3 && std::memcmp(text, "\xEF\xBB\xBF", 3) == 0) Fail(path, "corrupt header: it starts with a UTF-8 byte order mark");
    if (const void* nul = std::memchr(text, 0, n)) {
      Fail(path, "corrupt header: a NUL byte at byte " + std::to_string(static_cast<const char*>(nul) - text) + " of its JSON");
    }
    HeaderReader<decltype(add)> reader(path, add);
    if (!Json::sax_parse(text, text + n, &reader)) {
      if (reader.depth > kMaxDepth) Fail(path, "corrupt header: JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
      std::replace(reader.error.begin(), reader.error.end(), '\n', ' ');
      Fail(path, "corrupt header: not valid JSON (" + printable(reader.error, 300) + ")");  // cut: it quotes the last token
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
  // The JSON text written entry by entry, in the given order and in linear time (a JSON object
  // would sort the keys, an ordered one costs n^2); keys and strings escaped by the JSON library.
  auto quote = [](const std::string& s) { return Json(s).dump(); };
  std::string json = "{";
  auto add = [&](const std::string& key, const std::string& value) {
    if (json.size() > 1) json += ',';
    json += quote(key);
    json += ':';
    json += value;
  };
  if (!metadata.empty()) {
    std::string m = "{";
    for (const auto& [k, v] : metadata) m += (m.size() > 1 ? "," : "") + quote(k) + ':' + quote(v);
    add("__metadata__", m + '}');
  }
  uint64_t at = 0;
  for (StTensor& t : tensors) {
    t.begin = at;
    t.end = at += t.count() * st_item_size(t.dtype);
    add(t.name, "{\"dtype\":" + quote(t.dtype) + ",\"shape\":" + Json(t.shape).dump() + ",\"data_offsets\":[" +
                    std::to_string(t.begin) + ',' + std::to_string(t.end) + "]}");
  }
  json += '}';
  json.append((8 - json.size() % 8) % 8, ' ');
  std::string out(8, '\0');
  const uint64_t n = json.size();
  std::memcpy(out.data(), &n, 8);
  return out + json;
}

}  // namespace accelmath::io
