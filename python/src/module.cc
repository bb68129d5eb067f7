// accelmath._core: the Python extension (nanobind). docs/python.md describes what users see.
//
// Every function of the registry (accelmath/ops.def) becomes a Python function by one loop over
// accelmath::functions(): nothing here names a math function. Its arguments follow the row's shape
// (FunctionInfo::inputs, input_type, output_type): accelmath.<name>(x, out=None) for one input,
// (x1, x2, out=None) for two (atan2, pow), (x, y, z[, w], out=None) for three or four (fma, norm3d),
// (x, n, out=None) for ldexp (n: int32, or a Python int for every element), (a, out=None) for a
// function of rows (norm: the last axis of a is the row; the result has a.shape[:-1]). Results are
// float32, int32 (ilogb, frexp's exponent) or bool (isnan: the uint8 0/1 of the C++ API are bool's
// bytes); two results come back as a tuple. Each call
//  - imports every array (and out) without a copy, through the buffer protocol or DLPack (NumPy
//    arrays, CPU torch tensors), and checks them before anything is written: the element type, on
//    the CPU, out writable and of the result's shape; errors are TypeError/ValueError messages that
//    start with the argument's name;
//  - calls the array function once over the whole buffers when every operand is dense in the same
//    order (C or Fortran; rows: C), and otherwise walks them in C order, about 1024 results at a
//    time, through buffers (any strides, negative ones included); an out that shares memory with an
//    input other than as the very same view makes that input be copied first, so the result is as if
//    the inputs were read whole before anything is written;
//  - releases the GIL while it computes (arrays of kReleaseGil = 4096 elements or more).
// Results are the array function's own, so bit-identical to the C++ API on every SIMD target.
//
// MX and the precision checker get thin bindings that the Python modules accelmath.mx and
// accelmath (verify) wrap: they take C-contiguous arrays and return dicts/tuples of NumPy arrays.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "accelmath/mx.h"
#include "accelmath/registry.h"
#include "accelmath/verify.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using Writable = nb::ndarray<>;
using Readable = nb::ndarray<nb::ro>;
using accelmath::ElementType;
using accelmath::FunctionInfo;
using accelmath::Shape;

// numpy.empty, numpy.float32, numpy.int32, numpy.bool_ and numpy.integer, looked up once at import;
// never released (their references must not be dropped after the interpreter has finalised).
nb::handle g_np_empty, g_np_float32, g_np_int32, g_np_bool, g_np_integer;

std::string TypeName(nb::handle obj) {
  nb::object dtype = nb::getattr(obj, "dtype", nb::none());
  std::string type = nb::type_name(obj.type()).c_str();
  if (!dtype.is_none()) return type + " of dtype " + nb::str(dtype).c_str();
  return type;
}

// True when obj is a torch.Tensor (then torch is imported already).
bool IsTorchTensor(nb::handle obj) {
  const std::string module = nb::str(nb::getattr(obj.type(), "__module__", nb::str(""))).c_str();
  return module.rfind("torch", 0) == 0;
}

std::string ShapeText(std::span<const int64_t> s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// The element types an argument takes: float32, int32, or (results of predicates) bool or uint8.
enum class Kind { kF32, kI32, kBool };
Kind KindOf(ElementType t) { return t == ElementType::kF32 ? Kind::kF32 : t == ElementType::kI32 ? Kind::kI32 : Kind::kBool; }
const char* KindName(Kind k) { return k == Kind::kF32 ? "float32" : k == Kind::kI32 ? "int32" : "bool (or uint8)"; }
size_t KindSize(Kind k) { return k == Kind::kBool ? 1 : 4; }

// Whether a buffer-protocol format string (struct module syntax) is of the kind.
bool FormatIs(std::string_view format, Py_ssize_t itemsize, Kind k) {
  if (!format.empty() && (format[0] == '<' || format[0] == '=' || format[0] == '@')) format.remove_prefix(1);
  switch (k) {
    case Kind::kF32: return itemsize == 4 && format == "f";
    case Kind::kI32: return itemsize == 4 && (format == "i" || format == "l");
    case Kind::kBool: return itemsize == 1 && (format == "?" || format == "B");
  }
  return false;
}

bool DTypeIs(nb::dlpack::dtype t, Kind k) {
  switch (k) {
    case Kind::kF32: return t == nb::dtype<float>();
    case Kind::kI32: return t == nb::dtype<int32_t>();
    case Kind::kBool: return t == nb::dtype<bool>() || t == nb::dtype<uint8_t>();
  }
  return false;
}

// One array as the kernels see it: data, element size, shape and strides in elements.
struct View {
  char* data = nullptr;
  size_t size = 4;  // bytes an element
  std::span<const int64_t> shape, stride;

  // Dense in C order (order 'C') or Fortran order ('F'); dims of extent 1 have any stride.
  bool Dense(char order) const {
    int64_t expect = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
      const size_t i = order == 'C' ? shape.size() - 1 - k : k;
      if (shape[i] != 1 && stride[i] != expect) return false;
      expect *= shape[i];
    }
    return true;
  }
  size_t Count() const {
    size_t n = 1;
    for (int64_t d : shape) n *= static_cast<size_t>(d);
    return n;
  }
  // The bytes the view can touch, [lo, hi); empty views touch none.
  std::pair<uintptr_t, uintptr_t> Extent() const {
    if (Count() == 0) return {0, 0};
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
      const int64_t span = (shape[i] - 1) * stride[i];
      (span < 0 ? lo : hi) += span;
    }
    const auto base = reinterpret_cast<uintptr_t>(data);
    const auto es = static_cast<int64_t>(size);
    return {base + lo * es, base + (hi + 1) * es};
  }
  bool SameAs(const View& o) const {
    if (data != o.data || size != o.size || shape.size() != o.shape.size()) return false;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] != o.shape[i] || (shape[i] != 1 && stride[i] != o.stride[i])) return false;
    }
    return true;
  }
};

// One array argument of an element kind, imported without a copy: through the buffer protocol
// (NumPy arrays, the fast path: about 0.1 us) or else DLPack (CPU torch tensors, through nanobind).
// Checked before anything is written; errors name the argument.
class Operand {
 public:
  Operand(nb::handle obj, const std::string& arg, bool writable, Kind kind) : obj_(obj), size_(KindSize(kind)) {
    if (PyObject_CheckBuffer(obj.ptr())) {
      const int flags = PyBUF_STRIDES | PyBUF_FORMAT;
      if (PyObject_GetBuffer(obj.ptr(), &buffer_.view, flags | (writable ? PyBUF_WRITABLE : 0)) == 0) {
        buffer_.held = true;  // released by ~Buffer, also when a check below throws
        const std::string_view format = buffer_.view.format ? buffer_.view.format : "B";
        if (!FormatIs(format, buffer_.view.itemsize, kind)) {
          throw nb::type_error((arg + ": expected " + KindName(kind) + ", got " + TypeName(obj)).c_str());
        }
        const auto es = static_cast<Py_ssize_t>(size_);
        for (int i = 0; i < buffer_.view.ndim; ++i) {
          if (buffer_.view.strides[i] % es != 0) {
            throw nb::value_error((arg + ": a stride of " + std::to_string(buffer_.view.strides[i]) +
                                   " bytes is not a whole number of " + KindName(kind) + " elements").c_str());
          }
          shape_[i] = buffer_.view.shape[i];
          stride_[i] = buffer_.view.strides[i] / es;
        }
        ndim_ = static_cast<size_t>(buffer_.view.ndim);
        data_ = static_cast<char*>(buffer_.view.buf);
        return;
      }
      PyErr_Clear();
      if (writable && PyObject_GetBuffer(obj.ptr(), &buffer_.view, flags) == 0) {
        PyBuffer_Release(&buffer_.view);
        throw nb::value_error((arg + ": the array is read-only").c_str());
      }
      PyErr_Clear();
    }
    bool imported = false;
    nb::handle source = obj;
    if (kind == Kind::kBool && IsTorchTensor(obj)) {
      nb::module_ torch = nb::module_::import_("torch");
      if (nb::getattr(obj, "dtype", nb::none()).is(torch.attr("bool"))) {
        // DLPack (torch 1.13) has no bool: the tensor's bytes as uint8, a view that shares them.
        held_ = obj.attr("view")(torch.attr("uint8"));
        source = held_;
      }
    }
    if (writable) {
      Writable w;
      imported = nb::try_cast(source, w, false);
      dl_ = Readable(w);
    } else {
      imported = nb::try_cast(source, dl_, false);
    }
    if (!imported) {
      throw nb::type_error((arg + ": expected a " + (writable ? "writable " : "") + KindName(kind) +
                            " array (NumPy array or CPU tensor), got " + TypeName(obj) +
                            (IsTorchTensor(obj) ? " (a tensor that requires grad needs .detach())" : ""))
                               .c_str());
    }
    if (dl_.device_type() != nb::device::cpu::value) {
      throw nb::value_error((arg + ": the array is not in CPU memory (accelmath runs on the CPU)").c_str());
    }
    if (!DTypeIs(dl_.dtype(), kind)) throw nb::type_error((arg + ": expected " + KindName(kind) + ", got " + TypeName(obj)).c_str());
    ndim_ = dl_.ndim();
    if (ndim_ > 64) throw nb::value_error((arg + ": more than 64 dimensions").c_str());
    std::copy_n(dl_.shape_ptr(), ndim_, shape_);
    std::copy_n(dl_.stride_ptr(), ndim_, stride_);
    data_ = static_cast<char*>(const_cast<void*>(dl_.data()));
    torch_ = IsTorchTensor(obj);
    if (writable && torch_ && nb::cast<bool>(obj.attr("requires_grad"))) {
      throw nb::value_error((arg + ": the tensor requires grad, and accelmath's functions are not differentiable "
                                   "(write into a tensor without grad, or under torch.no_grad() into a detached one)").c_str());
    }
  }
  // An int32 array of `shape` (C order) filled with one value: ldexp's n given as a Python int.
  Operand(std::span<const int64_t> shape, int32_t value) : size_(4), ndim_(shape.size()) {
    size_t n = 1;
    for (size_t i = 0; i < ndim_; ++i) shape_[i] = shape[i], n *= static_cast<size_t>(shape[i]);
    int64_t stride = 1;
    for (size_t i = ndim_; i-- > 0;) stride_[i] = stride, stride *= shape_[i];
    fill_.assign(std::max<size_t>(n, 1), value);
    data_ = reinterpret_cast<char*>(fill_.data());
  }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;

  View view() const { return {data_, size_, {shape_, ndim_}, {stride_, ndim_}}; }
  std::span<const int64_t> shape() const { return {shape_, ndim_}; }
  bool torch() const { return torch_; }
  nb::handle object() const { return obj_; }

 private:
  nb::handle obj_;
  size_t size_;
  struct Buffer {
    Py_buffer view{};
    bool held = false;
    ~Buffer() {
      if (held) PyBuffer_Release(&view);
    }
  } buffer_;
  bool torch_ = false;
  nb::object held_;  // a torch bool tensor's uint8 view, alive as long as dl_ points into it
  Readable dl_;
  char* data_ = nullptr;
  size_t ndim_ = 0;
  int64_t shape_[64], stride_[64];  // 64: the most dimensions NumPy and the buffer protocol allow
  std::vector<int32_t> fill_;
};

// A new array of `shape` and kind, like `like`: a torch tensor when `like` is one, else a NumPy
// array in Fortran order when `like` is Fortran-ordered and `fortran` allows it (so that the call
// stays one pass), C order otherwise.
nb::object NewArray(const Operand& like, std::span<const int64_t> shape, Kind kind, bool fortran) {
  nb::object s = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(shape.size())));
  for (size_t i = 0; i < shape.size(); ++i) PyTuple_SET_ITEM(s.ptr(), i, PyLong_FromLongLong(shape[i]));
  if (like.torch()) {
    nb::module_ torch = nb::module_::import_("torch");
    const char* name = kind == Kind::kF32 ? "float32" : kind == Kind::kI32 ? "int32" : "bool";
    return torch.attr("empty")(s, "dtype"_a = torch.attr(name));
  }
  nb::handle dtype = kind == Kind::kF32 ? g_np_float32 : kind == Kind::kI32 ? g_np_int32 : g_np_bool;
  const View v = like.view();
  if (fortran && shape.size() > 1 && v.Dense('F') && !v.Dense('C')) return g_np_empty(s, dtype, "F");
  return g_np_empty(s, dtype);
}

bool Overlap(const View& a, const View& b) {
  const auto [alo, ahi] = a.Extent();
  const auto [blo, bhi] = b.Extent();
  return alo < bhi && blo < ahi;
}

// Visits the elements of a view in C order, a run of the innermost dimension at a time.
class Walker {
 public:
  explicit Walker(const View& v) : v_(v), index_(v.shape.size(), 0) {}
  // Copies the next k elements out of (Gather) or into (Scatter) buf.
  void Gather(void* buf, size_t k) { Move(static_cast<char*>(buf), k, true); }
  void Scatter(const void* buf, size_t k) { Move(static_cast<char*>(const_cast<void*>(buf)), k, false); }

 private:
  void Move(char* buf, size_t k, bool gather) {
    const size_t nd = v_.shape.size(), es = v_.size;
    if (nd == 0) {  // a 0-d array: one element
      if (k) gather ? std::memcpy(buf, v_.data, es) : std::memcpy(v_.data, buf, es);
      return;
    }
    const int64_t inner = v_.shape[nd - 1], step = v_.stride[nd - 1] * static_cast<int64_t>(es);
    while (k > 0) {
      int64_t offset = 0;
      for (size_t i = 0; i < nd; ++i) offset += index_[i] * v_.stride[i];
      const size_t run = std::min<size_t>(k, static_cast<size_t>(inner - index_[nd - 1]));
      char* p = v_.data + offset * static_cast<int64_t>(es);
      if (es == 4) {
        for (size_t j = 0; j < run; ++j) std::memcpy(gather ? buf + 4 * j : p + static_cast<int64_t>(j) * step,
                                                     gather ? p + static_cast<int64_t>(j) * step : buf + 4 * j, 4);
      } else {
        for (size_t j = 0; j < run; ++j) {
          char* q = p + static_cast<int64_t>(j) * step;
          gather ? (buf[j] = *q) : (*q = buf[j]);
        }
      }
      buf += run * es, k -= run;
      index_[nd - 1] += static_cast<int64_t>(run);
      for (size_t i = nd - 1; i > 0 && index_[i] == v_.shape[i]; --i) index_[i] = 0, ++index_[i - 1];
    }
  }
  View v_;
  std::vector<int64_t> index_;
};

void Check(accelmath::Status s) {
  if (s != accelmath::Status::kOk) throw std::runtime_error(accelmath::status_message(s));
}

// f over xs (its inputs; rows: xs[0] of shape (..., row_length)) into outs (its results, of the
// inputs' shape; rows: (...)); `results` results. The caller has released the GIL.
void Apply(const FunctionInfo& f, View* xs, const View* outs, size_t results, size_t row_length) {
  const int k = f.inputs(), m = f.outputs();
  const bool rows = f.shape == Shape::kRows;
  std::vector<char> copies[4];
  std::vector<int64_t> c_strides[4];
  for (int a = 0; a < k; ++a) {
    bool copy_x = false;
    for (int j = 0; j < m; ++j) copy_x |= Overlap(xs[a], outs[j]) && !xs[a].SameAs(outs[j]);
    if (copy_x) {  // read the input whole before anything is written; the copy is dense in C order
      const size_t n = xs[a].Count();
      copies[a].resize(n * xs[a].size);
      Walker(xs[a]).Gather(copies[a].data(), n);
      c_strides[a].resize(xs[a].shape.size());
      int64_t stride = 1;
      for (size_t i = xs[a].shape.size(); i-- > 0;) c_strides[a][i] = stride, stride *= xs[a].shape[i];
      xs[a] = {copies[a].data(), xs[a].size, xs[a].shape, c_strides[a]};
    }
  }
  for (char order : {'C', 'F'}) {
    if (rows && order == 'F') break;  // a row is a run of the last axis: C order only
    bool dense = true;
    for (int a = 0; a < k; ++a) dense = dense && xs[a].Dense(order);
    for (int j = 0; j < m; ++j) dense = dense && outs[j].Dense(order);
    if (dense) {  // one call over the whole buffers
      const void* in[4] = {xs[0].data, k > 1 ? xs[1].data : nullptr, k > 2 ? xs[2].data : nullptr, k > 3 ? xs[3].data : nullptr};
      void* out[2] = {outs[0].data, m > 1 ? outs[1].data : nullptr};
      Check(f.run(out, in, results, row_length));
      return;
    }
  }
  // Chunks of results in C order through buffers: about 1024 elements a chunk (rows: whole rows).
  const size_t per = rows ? std::max<size_t>(row_length, 1) : 1;  // input elements a result
  const size_t chunk = rows ? std::max<size_t>(1, 1024 / per) : 1024;
  std::vector<uint32_t> in_buf[4], out_buf[2];
  for (int a = 0; a < k; ++a) in_buf[a].resize(chunk * per);
  for (int j = 0; j < m; ++j) out_buf[j].resize(chunk);
  std::vector<Walker> in_walk, out_walk;
  for (int a = 0; a < k; ++a) in_walk.emplace_back(xs[a]);
  for (int j = 0; j < m; ++j) out_walk.emplace_back(outs[j]);
  for (size_t done = 0; done < results; done += chunk) {
    const size_t c = std::min(chunk, results - done);
    const void* in[4] = {nullptr, nullptr, nullptr, nullptr};
    void* out[2] = {nullptr, nullptr};
    for (int a = 0; a < k; ++a) {
      in_walk[a].Gather(in_buf[a].data(), rows ? c * row_length : c);
      in[a] = in_buf[a].data();
    }
    for (int j = 0; j < m; ++j) out[j] = out_buf[j].data();
    Check(f.run(out, in, c, row_length));
    for (int j = 0; j < m; ++j) out_walk[j].Scatter(out_buf[j].data(), c);
  }
}

// Below this many elements the call keeps the GIL: the work takes about a microsecond, less than
// releasing and taking back the GIL costs other threads.
constexpr size_t kReleaseGil = 4096;

// The Python names of a row's array arguments, in the order of the C++ call.
const char* InputName(const FunctionInfo& f, int a) {
  static const char* const kXYZW[] = {"x", "y", "z", "w"};
  switch (f.shape) {
    case Shape::kBinary: return a == 0 ? "x1" : "x2";  // NumPy's names for ufuncs of two arguments
    case Shape::kTernary:
    case Shape::kQuaternary: return kXYZW[a];
    case Shape::kScaleExponent: return a == 0 ? "x" : "n";
    case Shape::kRows: return "a";
    default: return "x";
  }
}

// f over its inputs (inputs() handles) into out (None: new arrays).
nb::object Call(const FunctionInfo& f, const nb::handle* x_objs, nb::handle out_obj) {
  const int k = f.inputs(), m = f.outputs();
  const bool rows = f.shape == Shape::kRows;
  std::optional<Operand> xs[4];
  for (int a = 0; a < k; ++a) {
    const Kind kind = KindOf(f.input_type(a));
    nb::handle obj = x_objs[a];
    const bool python_int = PyLong_Check(obj.ptr()) || PyObject_IsInstance(obj.ptr(), g_np_integer.ptr()) == 1;
    if (a > 0 && kind == Kind::kI32 && python_int) {  // one int for every element (ldexp's n)
      const long long v = PyLong_AsLongLong(nb::object(nb::steal(PyNumber_Index(obj.ptr()))).ptr());
      if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        throw nb::value_error((std::string(InputName(f, a)) + ": " + nb::str(obj).c_str() + " is not an int32").c_str());
      }
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
        throw nb::value_error((std::string(InputName(f, a)) + ": " + std::to_string(v) + " is not an int32 (" +
                               std::to_string(std::numeric_limits<int32_t>::min()) + " to " +
                               std::to_string(std::numeric_limits<int32_t>::max()) + ")").c_str());
      }
      xs[a].emplace(xs[0]->shape(), static_cast<int32_t>(v));
      continue;
    }
    xs[a].emplace(obj, InputName(f, a), false, kind);
    if (a > 0 && !std::ranges::equal(xs[a]->shape(), xs[0]->shape())) {
      throw nb::value_error((std::string(InputName(f, a)) + ": shape " + ShapeText(xs[a]->shape()) + " is not " +
                             InputName(f, 0) + "'s shape " + ShapeText(xs[0]->shape()) + " (no broadcasting)").c_str());
    }
  }
  const Operand& x = *xs[0];  // the results take its shape (rows: less the last axis) and type
  const std::string x_name = InputName(f, 0);
  std::vector<int64_t> out_shape(x.shape().begin(), x.shape().end());
  size_t row_length = 0;
  if (rows) {
    if (out_shape.empty()) throw nb::value_error("a: a 0-d array has no last axis to reduce (norm reduces the rows a[..., :])");
    row_length = static_cast<size_t>(out_shape.back());
    out_shape.pop_back();
  }
  const std::string shape_text = ShapeText(out_shape);
  const std::string what = rows ? x_name + "'s shape without its last axis, " + shape_text : x_name + "'s shape " + shape_text;
  nb::object results[2];
  if (out_obj.is_none()) {
    for (int j = 0; j < m; ++j) results[j] = NewArray(x, out_shape, KindOf(f.output_type(j)), !rows);
  } else if (m == 1) {
    results[0] = nb::borrow(out_obj);
  } else {
    if (!nb::isinstance<nb::tuple>(out_obj) && !nb::isinstance<nb::list>(out_obj)) {
      throw nb::type_error(("out: " + std::string(f.name) + " has two results: expected a tuple of two arrays, got " +
                            TypeName(out_obj)).c_str());
    }
    nb::sequence seq = nb::borrow<nb::sequence>(out_obj);
    if (nb::len(seq) != 2) throw nb::value_error(("out: expected 2 arrays, got " + std::to_string(nb::len(seq))).c_str());
    results[0] = seq[0], results[1] = seq[1];
  }
  std::optional<Operand> outs[2];
  View views[2];
  for (int j = 0; j < m; ++j) {
    const std::string arg = m == 1 ? "out" : "out[" + std::to_string(j) + "]";
    outs[j].emplace(results[j], arg, true, KindOf(f.output_type(j)));
    if (!std::ranges::equal(outs[j]->shape(), out_shape)) {
      throw nb::value_error((arg + ": shape " + ShapeText(outs[j]->shape()) + " is not " + what).c_str());
    }
    views[j] = outs[j]->view();
  }
  if (m == 2 && Overlap(views[0], views[1])) throw nb::value_error("out: the two output arrays share memory");
  View in_views[4];
  for (int a = 0; a < k; ++a) in_views[a] = xs[a]->view();
  size_t n = 1;
  for (int64_t d : out_shape) n *= static_cast<size_t>(d);
  if (in_views[0].Count() >= kReleaseGil || n >= kReleaseGil) {
    nb::gil_scoped_release release;
    Apply(f, in_views, views, n, row_length);
  } else {
    Apply(f, in_views, views, n, row_length);
  }
  if (m == 1) return results[0];
  return nb::make_tuple(results[0], results[1]);
}

std::string DocOf(const FunctionInfo& f) {
  std::string args;
  for (int a = 0; a < f.inputs(); ++a) args += std::string(a ? ", " : "") + InputName(f, a);
  std::string doc = "accelmath::" + std::string(f.name) + "(" + args + ")";
  switch (f.shape) {
    case Shape::kRows:
      doc += " of every row a[..., :] of a float32 array (its last axis), any strides: a float32 array of shape "
             "a.shape[:-1] (an empty row gives " + std::string(f.name[0] == 'r' ? "inf" : "0") + ").\n";
      break;
    case Shape::kScaleExponent:
      doc += " element-wise: x float32, n int32 of x's shape (or a Python int for every element), any strides.\n";
      break;
    default:
      if (f.inputs() > 1) {
        doc += " element-wise, of " + std::to_string(f.inputs()) + " float32 arrays of one shape (no broadcasting), any strides.\n";
      } else {
        doc += " element-wise, of a float32 array of any shape and strides.\n";
      }
  }
  if (f.outputs() == 2) {
    doc += "Two results (";
    for (int j = 0; j < 2; ++j) doc += std::string(j ? ", " : "") + KindName(KindOf(f.output_type(j)));
    doc += "): a tuple; out is a tuple of two arrays.\n";
  } else if (f.output_type(0) != ElementType::kF32) {
    doc += std::string("Result: ") + (f.output_type(0) == ElementType::kI32 ? "int32" : "bool") + ".\n";
  }
  char bound[32];
  std::snprintf(bound, sizeof bound, "%g", f.bound_ulp);
  if (f.bound_ulp == 0) {
    doc += "Exact (max error 0 ulp: every result bit for bit); domain: " + std::string(f.domain) + ".\n";
  } else {
    doc += "Max error " + std::string(bound) + " ulp over every float32 input" +
           (f.inputs() > 1 ? " tuple" : f.shape == Shape::kRows ? " row" : "") + "; domain: " + f.domain + ".\n";
  }
  doc += "Bit-identical to the C++ API. Returns out (new arrays of " + std::string(InputName(f, 0)) +
         "'s kind, NumPy or torch, when out is None).";
  return doc;
}

const char* ShapeName(Shape s) {
  switch (s) {
    case Shape::kUnary: return "Unary";
    case Shape::kUnaryPair: return "UnaryPair";
    case Shape::kBinary: return "Binary";
    case Shape::kTernary: return "Ternary";
    case Shape::kQuaternary: return "Quaternary";
    case Shape::kToInt32: return "ToInt32";
    case Shape::kPredicate: return "Predicate";
    case Shape::kSplitExponent: return "SplitExponent";
    case Shape::kScaleExponent: return "ScaleExponent";
    case Shape::kRows: return "Rows";
  }
  return "?";
}

// ---- MX ----------------------------------------------------------------------------------------

namespace mx = accelmath::mx;

std::vector<int64_t> ShapeVec(const Readable& a) { return {a.shape_ptr(), a.shape_ptr() + a.ndim()}; }

nb::object NewBytes(const std::vector<int64_t>& shape) {
  nb::list s;
  for (int64_t d : shape) s.append(d);
  return g_np_empty(nb::tuple(s), "uint8");
}

void* DataOf(nb::handle arr) {
  Writable a = nb::cast<Writable>(arr, false);
  return a.data();
}

void ThrowIf(const mx::Error& e) {
  if (!e.ok()) throw nb::value_error(e.message.c_str());
}

// x: a C-contiguous array whose bits are float32, float16 or bfloat16 (x_type) -> (codes, scales),
// shaped as the CLI shapes them (codes packed along the last dimension for FP4/FP6).
nb::tuple Quantize(nb::handle x_obj, int x_type, int dst_type, int64_t axis, int64_t block, const std::string& round,
                   int64_t scale_alg, int threads) {
  Readable x = nb::cast<Readable>(x_obj, false);
  const std::vector<int64_t> shape = ShapeVec(x);
  mx::QuantizeOptions o;
  o.axis = axis, o.dst_type = static_cast<mx::DType>(dst_type), o.blocksize = block;
  o.round_mode = round.c_str(), o.scale_alg = scale_alg, o.threads = threads;
  int64_t storage[8];
  uint64_t ws = 0;
  mx::QuantizePlan plan;
  const mx::DType xt = static_cast<mx::DType>(x_type), dst = o.dst_type;
  const int bits = static_cast<int>(mx::storage_bytes(dst, 8));
  std::vector<int64_t> yshape = shape;
  // Packed along the last dimension; a last dimension that does not pack evenly is the API's error.
  if (bits != 8 && bits != 0 && !yshape.empty() && (yshape.back() * bits) % 8 == 0) yshape.back() = yshape.back() * bits / 8;
  const auto sspan = mx::scale_shape(shape, axis, block, storage);
  const std::vector<int64_t> sshape(sspan.begin(), sspan.end());
  nb::object y = NewBytes(yshape);
  nb::object s = NewBytes(sshape.empty() ? std::vector<int64_t>{0} : sshape);
  mx::Error e = mx::get_workspace_size({x.data(), xt, shape}, o, {DataOf(y), dst, shape},
                                       {DataOf(s), mx::DType::kFloat8E8M0, sshape}, &ws, &plan);
  ThrowIf(e);
  std::vector<unsigned char> workspace(ws);
  {
    nb::gil_scoped_release release;
    e = mx::run(workspace.data(), ws, plan);
  }
  ThrowIf(e);
  return nb::make_tuple(y, s);
}

// codes (uint8, packed as Quantize returns them) and scales -> elements of out_type (float32,
// float16 or bfloat16 bits) as a NumPy array (uint16 for the 16-bit types).
nb::object Dequantize(nb::handle y_obj, nb::handle s_obj, int elem_type, int64_t axis, int64_t block, int out_type,
                      int threads) {
  Readable y = nb::cast<Readable>(y_obj, false), s = nb::cast<Readable>(s_obj, false);
  std::vector<int64_t> shape = ShapeVec(y);
  const mx::DType elem = static_cast<mx::DType>(elem_type), xt = static_cast<mx::DType>(out_type);
  const int bits = static_cast<int>(mx::storage_bytes(elem, 8));
  if (bits != 8 && bits != 0 && !shape.empty()) {
    if ((shape.back() * 8) % bits != 0) {
      throw nb::value_error(("y: the last dimension (" + std::to_string(shape.back()) + " bytes) does not hold whole " +
                             std::to_string(bits) + "-bit codes").c_str());
    }
    shape.back() = shape.back() * 8 / bits;
  }
  mx::DequantizeOptions o;
  o.axis = axis, o.blocksize = block, o.threads = threads;
  nb::list xs;
  for (int64_t d : shape) xs.append(d);
  nb::object x = g_np_empty(nb::tuple(xs), xt == mx::DType::kFloat32 ? "float32" : xt == mx::DType::kFloat16 ? "float16" : "uint16");
  const std::vector<int64_t> sshape = ShapeVec(s);
  uint64_t ws = 0;
  mx::DequantizePlan plan;
  mx::Error e = mx::get_workspace_size({y.data(), elem, shape}, {s.data(), mx::DType::kFloat8E8M0, sshape}, o,
                                       {DataOf(x), xt, shape}, &ws, &plan);
  ThrowIf(e);
  std::vector<unsigned char> workspace(ws);
  {
    nb::gil_scoped_release release;
    e = mx::run(workspace.data(), ws, plan);
  }
  ThrowIf(e);
  return x;
}

// ---- verify ------------------------------------------------------------------------------------

namespace vf = accelmath::verify;

nb::dict Verify(nb::handle golden, nb::handle actual, const std::string& standard, int dtype, double atol,
                double rtol, double max_error_ratio, double threshold, size_t worst) {
  Readable g = nb::cast<Readable>(golden, false), a = nb::cast<Readable>(actual, false);
  vf::Options o;
  o.standard = standard == "mere-mare" ? vf::Standard::kMereMare : vf::Standard::kDualThreshold;
  o.dtype = static_cast<vf::DType>(dtype);
  o.atol = atol, o.rtol = rtol, o.max_error_ratio = max_error_ratio, o.mere_threshold = threshold;
  o.worst_count = worst;
  const double* gp = static_cast<const double*>(g.data());
  const double* ap = static_cast<const double*>(a.data());
  vf::Report r;
  {
    nb::gil_scoped_release release;
    r = vf::check({gp, g.size()}, {ap, a.size()}, o);
  }
  nb::dict d;
  d["passed"] = r.pass, d["count"] = r.count, d["errors"] = r.errors, d["class_mismatches"] = r.class_mismatches;
  d["error_ratio"] = r.error_ratio, d["mere"] = r.mere, d["mare"] = r.mare;
  d["max_abs"] = r.max_abs, d["max_rel"] = r.max_rel, d["max_ulp"] = r.max_ulp;
  d["atol"] = r.atol, d["rtol"] = r.rtol, d["max_error_ratio"] = r.max_error_ratio, d["threshold"] = r.mere_threshold;
  nb::list w;
  for (const vf::Element& e : r.worst) {
    w.append(nb::make_tuple(e.index, e.golden, e.actual, e.abs_error, e.rel_error, e.ulp_error, e.class_mismatch));
  }
  d["worst"] = w;
  return d;
}

}  // namespace

NB_MODULE(_core, m) {
  nb::module_ np = nb::module_::import_("numpy");
  g_np_empty = nb::object(np.attr("empty")).release();
  g_np_float32 = nb::object(np.attr("float32")).release();
  g_np_int32 = nb::object(np.attr("int32")).release();
  g_np_bool = nb::object(np.attr("bool_")).release();
  g_np_integer = nb::object(np.attr("integer")).release();

  static std::deque<std::string> docs;  // nanobind keeps pointers to the docstrings
  nb::list names;
  for (const FunctionInfo& f : accelmath::functions()) {
    const FunctionInfo* fp = &f;
    docs.push_back(DocOf(f));
    const char* doc = docs.back().c_str();
    const auto out = [] { return nb::arg("out") = nb::none(); };
    switch (f.inputs()) {
      case 1:
        m.def(f.name, [fp](nb::handle x, nb::handle o) { return Call(*fp, &x, o); }, nb::arg(InputName(f, 0)), out(), doc);
        break;
      case 2:
        m.def(f.name, [fp](nb::handle x1, nb::handle x2, nb::handle o) {
          const nb::handle xs[2] = {x1, x2};
          return Call(*fp, xs, o);
        }, nb::arg(InputName(f, 0)), nb::arg(InputName(f, 1)), out(), doc);
        break;
      case 3:
        m.def(f.name, [fp](nb::handle x1, nb::handle x2, nb::handle x3, nb::handle o) {
          const nb::handle xs[3] = {x1, x2, x3};
          return Call(*fp, xs, o);
        }, nb::arg(InputName(f, 0)), nb::arg(InputName(f, 1)), nb::arg(InputName(f, 2)), out(), doc);
        break;
      default:
        m.def(f.name, [fp](nb::handle x1, nb::handle x2, nb::handle x3, nb::handle x4, nb::handle o) {
          const nb::handle xs[4] = {x1, x2, x3, x4};
          return Call(*fp, xs, o);
        }, nb::arg(InputName(f, 0)), nb::arg(InputName(f, 1)), nb::arg(InputName(f, 2)), nb::arg(InputName(f, 3)), out(),
              doc);
        break;
    }
    nb::dict info;
    info["name"] = f.name, info["family"] = f.family, info["inputs"] = f.inputs(), info["outputs"] = f.outputs();
    info["bound_ulp"] = f.bound_ulp, info["domain"] = f.domain, info["shape"] = ShapeName(f.shape);
    nb::list args;
    for (int a = 0; a < f.inputs(); ++a) args.append(InputName(f, a));
    info["args"] = nb::tuple(args);
    names.append(info);
  }
  m.attr("functions") = names;

  m.def("_mx_quantize", &Quantize);
  m.def("_mx_dequantize", &Dequantize);
  m.def("_verify", &Verify);
}
