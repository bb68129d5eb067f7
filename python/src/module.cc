// accelmath._core: the Python extension (nanobind). docs/python.md describes what users see.
//
// Every function of the registry (accelmath/ops.def) becomes accelmath.<name>(x, out=None) (two
// inputs: accelmath.<name>(x1, x2, out=None), arrays of one shape) by one loop over
// accelmath::functions(): nothing here names a math function. Each call
//  - imports x (and out) without a copy, through the buffer protocol or DLPack (NumPy arrays, CPU
//    torch tensors), and checks them before anything is written: float32, on the CPU, out writable
//    and of x's shape; errors are TypeError/ValueError messages that start with the argument's name;
//  - calls the array function once over the whole buffer when x and out are dense in the same
//    order (C or Fortran), and otherwise walks them in C order, 1024 elements at a time, through a
//    stack buffer (any strides, negative ones included); an out that shares memory with an input
//    other than as the very same view makes that input be copied first, so the result is as if the
//    inputs were read whole before anything is written;
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

// numpy.empty and numpy.float32, looked up once at import; never released (their
// references must not be dropped after the interpreter has finalised).
nb::handle g_np_empty, g_np_float32;

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

template <class Array>
std::span<const int64_t> Shape(const Array& a) {
  return {a.shape_ptr(), a.ndim()};
}

// One array as the kernels see it: data, shape and strides in elements.
struct View {
  float* data;
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
  // The bytes the view can touch, [lo, hi); empty views touch none.
  std::pair<uintptr_t, uintptr_t> Extent(size_t n) const {
    if (n == 0) return {0, 0};
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
      const int64_t span = (shape[i] - 1) * stride[i];
      (span < 0 ? lo : hi) += span;
    }
    const auto base = reinterpret_cast<uintptr_t>(data);
    return {base + lo * 4, base + (hi + 1) * 4};
  }
  bool SameAs(const View& o) const {
    if (data != o.data) return false;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] != 1 && stride[i] != o.stride[i]) return false;
    }
    return true;
  }
};

// One float32 array argument, imported without a copy: through the buffer protocol (NumPy arrays,
// the fast path: about 0.1 us) or else DLPack (CPU torch tensors, through nanobind). Checked
// before anything is written; errors name the argument.
class Operand {
 public:
  Operand(nb::handle obj, const std::string& arg, bool writable) : obj_(obj) {
    if (PyObject_CheckBuffer(obj.ptr())) {
      const int flags = PyBUF_STRIDES | PyBUF_FORMAT;
      if (PyObject_GetBuffer(obj.ptr(), &buffer_.view, flags | (writable ? PyBUF_WRITABLE : 0)) == 0) {
        buffer_.held = true;  // released by ~Buffer, also when a check below throws
        const std::string_view format = buffer_.view.format ? buffer_.view.format : "B";
        if (buffer_.view.itemsize != 4 || (format != "f" && format != "<f" && format != "=f" && format != "@f")) {
          throw nb::type_error((arg + ": expected float32, got " + TypeName(obj)).c_str());
        }
        for (int i = 0; i < buffer_.view.ndim; ++i) {
          if (buffer_.view.strides[i] % 4 != 0) {
            throw nb::value_error((arg + ": a stride of " + std::to_string(buffer_.view.strides[i]) +
                                   " bytes is not a whole number of float32 elements").c_str());
          }
          shape_[i] = buffer_.view.shape[i];
          stride_[i] = buffer_.view.strides[i] / 4;
        }
        ndim_ = static_cast<size_t>(buffer_.view.ndim);
        data_ = static_cast<float*>(buffer_.view.buf);
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
    if (writable) {
      Writable w;
      imported = nb::try_cast(obj, w, false);
      dl_ = Readable(w);
    } else {
      imported = nb::try_cast(obj, dl_, false);
    }
    if (!imported) {
      throw nb::type_error((arg + ": expected a " + (writable ? "writable " : "") +
                            "float32 array (NumPy array or CPU tensor), got " + TypeName(obj) +
                            (IsTorchTensor(obj) ? " (a tensor that requires grad needs .detach())" : ""))
                               .c_str());
    }
    if (dl_.device_type() != nb::device::cpu::value) {
      throw nb::value_error((arg + ": the array is not in CPU memory (accelmath runs on the CPU)").c_str());
    }
    if (dl_.dtype() != nb::dtype<float>()) throw nb::type_error((arg + ": expected float32, got " + TypeName(obj)).c_str());
    ndim_ = dl_.ndim();
    if (ndim_ > 64) throw nb::value_error((arg + ": more than 64 dimensions").c_str());
    std::copy_n(dl_.shape_ptr(), ndim_, shape_);
    std::copy_n(dl_.stride_ptr(), ndim_, stride_);
    data_ = static_cast<float*>(const_cast<void*>(dl_.data()));
    torch_ = IsTorchTensor(obj);
    if (writable && torch_ && nb::cast<bool>(obj.attr("requires_grad"))) {
      throw nb::value_error((arg + ": the tensor requires grad, and accelmath's functions are not differentiable "
                                   "(write into a tensor without grad, or under torch.no_grad() into a detached one)").c_str());
    }
  }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;

  View view() const { return {data_, {shape_, ndim_}, {stride_, ndim_}}; }
  std::span<const int64_t> shape() const { return {shape_, ndim_}; }
  size_t size() const {
    size_t n = 1;
    for (size_t i = 0; i < ndim_; ++i) n *= static_cast<size_t>(shape_[i]);
    return n;
  }
  // A new float32 array of this one's shape: torch.empty_like for a tensor, else a NumPy array in
  // Fortran order when this one is (so that the call stays one pass), C order otherwise.
  nb::object NewLike() const {
    if (torch_) return nb::module_::import_("torch").attr("empty_like")(obj_);
    nb::object shape = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(ndim_)));
    for (size_t i = 0; i < ndim_; ++i) PyTuple_SET_ITEM(shape.ptr(), i, PyLong_FromLongLong(shape_[i]));
    const View v = view();
    if (ndim_ > 1 && v.Dense('F') && !v.Dense('C')) return g_np_empty(shape, g_np_float32, "F");
    return g_np_empty(shape, g_np_float32);
  }

 private:
  nb::handle obj_;
  struct Buffer {
    Py_buffer view{};
    bool held = false;
    ~Buffer() {
      if (held) PyBuffer_Release(&view);
    }
  } buffer_;
  bool torch_ = false;
  Readable dl_;
  float* data_ = nullptr;
  size_t ndim_ = 0;
  int64_t shape_[64], stride_[64];  // 64: the most dimensions NumPy and the buffer protocol allow
};

bool Overlap(const View& a, const View& b, size_t n) {
  const auto [alo, ahi] = a.Extent(n);
  const auto [blo, bhi] = b.Extent(n);
  return alo < bhi && blo < ahi;
}

// Visits the elements of a view in C order, a run of the innermost dimension at a time.
class Walker {
 public:
  explicit Walker(const View& v) : v_(v), index_(v.shape.size(), 0) {}
  // Copies the next k elements out of (Gather) or into (Scatter) buf.
  void Gather(float* buf, size_t k) { Move(buf, k, true); }
  void Scatter(const float* buf, size_t k) { Move(const_cast<float*>(buf), k, false); }

 private:
  void Move(float* buf, size_t k, bool gather) {
    const size_t nd = v_.shape.size();
    if (nd == 0) {  // a 0-d array: one element
      if (k) gather ? (buf[0] = v_.data[0]) : (v_.data[0] = buf[0]);
      return;
    }
    const int64_t inner = v_.shape[nd - 1], step = v_.stride[nd - 1];
    while (k > 0) {
      int64_t offset = 0;
      for (size_t i = 0; i < nd; ++i) offset += index_[i] * v_.stride[i];
      const size_t run = std::min<size_t>(k, static_cast<size_t>(inner - index_[nd - 1]));
      float* p = v_.data + offset;
      if (gather) {
        for (size_t j = 0; j < run; ++j) buf[j] = p[static_cast<int64_t>(j) * step];
      } else {
        for (size_t j = 0; j < run; ++j) p[static_cast<int64_t>(j) * step] = buf[j];
      }
      buf += run, k -= run;
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

// f over xs (1 or 2 views of one shape: its inputs) into outs (1 or 2 views of that shape: its
// results); the caller has released the GIL.
void Apply(const accelmath::FunctionInfo& f, View* xs, const View* outs, size_t n) {
  const int k = f.inputs(), m = f.outputs();
  std::vector<float> copies[2];
  std::vector<int64_t> c_strides(xs[0].shape.size());
  int64_t stride = 1;
  for (size_t i = xs[0].shape.size(); i-- > 0;) c_strides[i] = stride, stride *= xs[0].shape[i];
  for (int a = 0; a < k; ++a) {
    bool copy_x = false;
    for (int j = 0; j < m; ++j) copy_x |= Overlap(xs[a], outs[j], n) && !xs[a].SameAs(outs[j]);
    if (copy_x) {  // read the input whole before anything is written; the copy is dense in C order
      copies[a].resize(n);
      Walker(xs[a]).Gather(copies[a].data(), n);
      xs[a] = {copies[a].data(), xs[a].shape, c_strides};
    }
  }
  const View& x1 = xs[0];
  const View& x2 = xs[k - 1];  // src2: read by two-input rows only
  for (char order : {'C', 'F'}) {
    bool dense = true;
    for (int a = 0; a < k; ++a) dense = dense && xs[a].Dense(order);
    for (int j = 0; j < m; ++j) dense = dense && outs[j].Dense(order);
    if (dense) {  // one call over the whole buffer (outs[m - 1]: dst2, ignored by one-result rows)
      Check(f.run({outs[0].data, n}, {outs[m - 1].data, n}, {x1.data, n}, {x2.data, n}, n));
      return;
    }
  }
  constexpr size_t kChunk = 1024;
  float in1[kChunk], in2[kChunk], r1[kChunk], r2[kChunk];
  float* res[2] = {r1, r2};
  std::vector<Walker> walkers;
  for (int j = 0; j < m; ++j) walkers.emplace_back(outs[j]);
  Walker w1(x1), w2(x2);
  for (size_t done = 0; done < n; done += kChunk) {
    const size_t c = std::min(kChunk, n - done);
    w1.Gather(in1, c);
    if (k == 2) w2.Gather(in2, c);
    Check(f.run({r1, c}, {r2, c}, {in1, c}, {k == 2 ? in2 : in1, c}, c));
    for (int j = 0; j < m; ++j) walkers[j].Scatter(res[j], c);
  }
}

// Below this many elements the call keeps the GIL: the work takes about a microsecond, less than
// releasing and taking back the GIL costs other threads.
constexpr size_t kReleaseGil = 4096;

// The Python names of a row's array arguments: x (one input), or x1 and x2 (two inputs, in the
// order of the C++ call, as NumPy's ufuncs of two arguments name them).
const char* InputName(const accelmath::FunctionInfo& f, int a) { return f.inputs() == 1 ? "x" : a == 0 ? "x1" : "x2"; }

// f over its inputs (1 or 2 array handles) into out (None: new arrays).
nb::object Call(const accelmath::FunctionInfo& f, const nb::handle* x_objs, nb::handle out_obj) {
  const int k = f.inputs(), m = f.outputs();
  std::optional<Operand> xs[2];
  for (int a = 0; a < k; ++a) {
    xs[a].emplace(x_objs[a], InputName(f, a), false);
    if (a > 0 && !std::ranges::equal(xs[a]->shape(), xs[0]->shape())) {
      throw nb::value_error((std::string(InputName(f, a)) + ": shape " + ShapeText(xs[a]->shape()) + " is not " +
                             InputName(f, 0) + "'s shape " + ShapeText(xs[0]->shape()) + " (no broadcasting)").c_str());
    }
  }
  const Operand& x = *xs[0];  // the results take its shape (and type, when out is None)
  const std::string x_name = InputName(f, 0);
  nb::object results[2];
  if (out_obj.is_none()) {
    for (int j = 0; j < m; ++j) results[j] = x.NewLike();
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
    outs[j].emplace(results[j], arg, true);
    if (!std::ranges::equal(outs[j]->shape(), x.shape())) {
      throw nb::value_error((arg + ": shape " + ShapeText(outs[j]->shape()) + " is not " + x_name + "'s shape " +
                             ShapeText(x.shape())).c_str());
    }
    views[j] = outs[j]->view();
  }
  const size_t n = x.size();
  if (m == 2 && Overlap(views[0], views[1], n)) throw nb::value_error("out: the two output arrays share memory");
  View in_views[2];
  for (int a = 0; a < k; ++a) in_views[a] = xs[a]->view();
  if (n >= kReleaseGil) {
    nb::gil_scoped_release release;
    Apply(f, in_views, views, n);
  } else {
    Apply(f, in_views, views, n);
  }
  if (m == 1) return results[0];
  return nb::make_tuple(results[0], results[1]);
}

std::string DocOf(const accelmath::FunctionInfo& f) {
  std::string doc = "Element-wise accelmath::" + std::string(f.name);
  if (f.inputs() == 2) {
    doc += "(x1, x2) of two float32 arrays of one shape (no broadcasting), any strides.\n";
  } else {
    doc += " of a float32 array of any shape and strides";
    doc += f.outputs() == 2 ? " (two results; out is a tuple of two arrays).\n" : ".\n";
  }
  char bound[32];
  std::snprintf(bound, sizeof bound, "%g", f.bound_ulp);
  doc += "Max error " + std::string(bound) + " ulp over every float32 input" + (f.inputs() == 2 ? " pair" : "") +
         "; domain: " + f.domain + ".\n";
  doc += "Bit-identical to the C++ API. Returns out (a new array of " + std::string(InputName(f, 0)) +
         "'s type when out is None).";
  return doc;
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

  static std::deque<std::string> docs;  // nanobind keeps pointers to the docstrings
  nb::list names;
  for (const accelmath::FunctionInfo& f : accelmath::functions()) {
    const accelmath::FunctionInfo* fp = &f;
    docs.push_back(DocOf(f));
    if (f.inputs() == 2) {
      m.def(f.name, [fp](nb::handle x1, nb::handle x2, nb::handle out) {
        const nb::handle xs[2] = {x1, x2};
        return Call(*fp, xs, out);
      }, "x1"_a, "x2"_a, "out"_a = nb::none(), docs.back().c_str());
    } else {
      m.def(f.name, [fp](nb::handle x, nb::handle out) { return Call(*fp, &x, out); }, "x"_a, "out"_a = nb::none(),
            docs.back().c_str());
    }
    nb::dict info;
    info["name"] = f.name, info["family"] = f.family, info["inputs"] = f.inputs(), info["outputs"] = f.outputs();
    info["bound_ulp"] = f.bound_ulp, info["domain"] = f.domain;
    names.append(info);
  }
  m.attr("functions") = names;

  m.def("_mx_quantize", &Quantize);
  m.def("_mx_dequantize", &Dequantize);
  m.def("_verify", &Verify);
}
