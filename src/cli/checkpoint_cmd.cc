// `accelmath quantize --in model.safetensors ...` and `accelmath dequantize --in model-mx.safetensors`:
// MX block quantization of a whole checkpoint (docs/mx.md, "Checkpoints").
//
// Quantize: every tensor whose name matches --include (default: every name) and not --exclude is
// selected. A selected floating-point tensor (F32, F16, BF16) is quantized along its last axis into
// W (uint8 codes, packed as the API packs them) and W.mx_scale (uint8 E8M0, the API's scale layout),
// or with --gguf into W alone as ggml block_mxfp4 rows (17 bytes per 32 elements); every other
// tensor is copied unchanged. A selected F64 or FP8 (F8_*) tensor, a selected floating-point tensor
// of rank 0 or whose last axis is not a multiple of the block, a name clash with a generated
// W.mx_scale and a W.mx_scale name over the 4096 bytes a reader takes are errors that name the
// tensor; so is a --block (or, to dequantize, a recorded blocksize) the API does not take. The
// rules, the original dtype and shape of each quantized tensor go into __metadata__ under
// "accelmath.mx" (a JSON string); the input's own metadata are kept.
// Dequantize reverses it from that record: each quantized tensor back to its dtype and shape.
// Both memory-map the input and hold one tensor's result at a time; the output is written to a
// temporary file renamed into place at the end, so an error leaves no output file.
#include <algorithm>
#include <cstring>
#include <regex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "accelmath/mx.h"
#include "accelmath/types.h"
#include "cli/mx_cmd.h"
#include "cli/progress.h"
#include "io/npy.h"
#include "io/safetensors.h"

namespace accelmath::cli {
namespace {

using io::NpyError;
using io::StTensor;
using mx::DType;
using Json = nlohmann::json;  // objects as std::map: O(log n) a key (an ordered_json record of n tensors cost n^2)

constexpr const char* kMetaKey = "accelmath.mx";
constexpr const char* kScaleSuffix = ".mx_scale";
const char* const kAlgNames[] = {"ocp", "rceil", "ceil", "even"};

struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void Fail(const std::string& msg) { throw CheckpointError(msg); }

// An output whose header no reader would accept (a million tensors and their scales) is an error,
// not a file that cannot be read back.
void CheckHeaderSize(const std::string& out, const std::string& header) {
  if (header.size() - 8 > io::kMaxSafetensorsHeader) {
    Fail(out + ": its header would be " + std::to_string(header.size() - 8) + " bytes, over the 100 MB that readers accept");
  }
}

// The library's dtype of a safetensors floating-point dtype MX takes; false for any other.
bool SourceType(const std::string& st, DType* t) {
  if (st == "F32") *t = DType::kFloat32;
  else if (st == "F16") *t = DType::kFloat16;
  else if (st == "BF16") *t = DType::kBFloat16;
  else return false;
  return true;
}

// A safetensors floating-point dtype that MX does not take (float64 and the FP8 types): a selected
// tensor of one is an error, not a tensor copied as it is.
bool UnsupportedFloat(const std::string& st) { return st == "F64" || st.rfind("F8_", 0) == 0; }

int ElemBits(DType t) { return static_cast<int>(mx::storage_bytes(t, 8)); }

// Whether the API takes `block` as a blocksize (the library's rule: mx::scale_shape is empty where
// it is not), checked before any tensor's last axis is divided by it.
bool ValidBlock(int64_t block) {
  int64_t storage[8];
  const int64_t shape[] = {block};
  return !mx::scale_shape(shape, -1, block, storage).empty();
}

std::vector<int64_t> ScaleShape(const std::vector<int64_t>& shape, int64_t block) {
  int64_t storage[8];
  const auto s = mx::scale_shape(shape, -1, block, storage);
  return {s.begin(), s.end()};
}

// Widens n float32/float16/bfloat16 values to float32 (exactly).
std::vector<float> Widen(const unsigned char* p, uint64_t n, DType t) {
  std::vector<float> x(n);
  if (t == DType::kFloat32) {
    std::memcpy(x.data(), p, n * 4);
    return x;
  }
  for (uint64_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, p + 2 * i, 2);
    x[i] = t == DType::kFloat16 ? to_float(float16{h}) : to_float(bfloat16{h});
  }
  return x;
}

// ggml block_mxfp4 rows <-> the API's packed E2M1 codes and scales, along the last axis with
// blocks of 32: block b of a row has scale e and 16 bytes qs, element j in qs[j]'s low nibble and
// element j + 16 in its high nibble; the API packs elements 2i, 2i + 1 into byte i (low first) and
// puts the row's scales in pairs (the last pair padded with 0x00).
void GgmlToApi(const unsigned char* g, int64_t rows, int64_t blocks, unsigned char* codes, unsigned char* scales) {
  const int64_t pairs = (blocks + 1) / 2;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t b = 0; b < blocks; ++b) {
      const unsigned char* blk = g + (r * blocks + b) * 17;
      scales[r * pairs * 2 + b] = blk[0];
      unsigned char* c = codes + (r * blocks + b) * 16;
      for (int j = 0; j < 16; j += 2) {
        c[j / 2] = static_cast<unsigned char>((blk[1 + j] & 0xF) | (blk[2 + j] & 0xF) << 4);
        c[8 + j / 2] = static_cast<unsigned char>(blk[1 + j] >> 4 | (blk[2 + j] >> 4) << 4);
      }
    }
    if (blocks % 2) scales[r * pairs * 2 + blocks] = 0;
  }
}

std::string Shape(const std::vector<int64_t>& s) { return StTensor{"", "", s}.shape_string(); }

}  // namespace

int quantize_checkpoint(const CheckpointQuantizeArgs& a) {
  try {
    DType dst;
    if (!mx::parse_dtype(a.dst.c_str(), &dst) || ElemBits(dst) == 0 || dst == DType::kFloat8E8M0 ||
        dst == DType::kFloat32 || dst == DType::kFloat16 || dst == DType::kBFloat16 || dst == DType::kUInt8) {
      Fail("--dst '" + a.dst + "': expected e4m3, e5m2, e3m2, e2m3, e2m1 or e1m2");
    }
    int64_t alg = -1;
    for (int64_t i = 0; i < 4; ++i) {
      if (a.scale_alg == kAlgNames[i] || a.scale_alg == std::to_string(i)) alg = i;
    }
    if (alg < 0) Fail("--scale-alg '" + a.scale_alg + "': expected 0 or ocp, 1 or rceil (FP8 only), 2 or ceil, 3 or even");
    mx::RoundMode round;
    if (!mx::parse_round_mode(a.round.c_str(), &round)) Fail("--round '" + a.round + "': expected rint, round or floor");
    if (!ValidBlock(a.block)) Fail("--block " + std::to_string(a.block) + ": expected a multiple of 32 in [32, 1024]");
    if (a.gguf && (dst != DType::kFloat4E2M1 || a.block != 32 || alg != 0)) {
      Fail("--gguf writes ggml's MXFP4 blocks: it needs --dst e2m1, --block 32 and --scale-alg ocp");
    }
    std::regex include, exclude;
    try {
      if (!a.include.empty()) include = std::regex(a.include);
      if (!a.exclude.empty()) exclude = std::regex(a.exclude);
    } catch (const std::regex_error& e) {
      Fail("--include/--exclude: not a valid regular expression (" + std::string(e.what()) + ")");
    }
    io::OutputSet out({a.out});
    const io::SafetensorsFile in(a.in);
    std::set<std::string> names;
    for (const StTensor& t : in.tensors()) names.insert(t.name);
    for (const auto& [k, v] : in.metadata()) {
      if (k == kMetaKey) Fail(a.in + ": already MX-quantized (its __metadata__ has \"accelmath.mx\"); dequantize it first");
    }

    // The plan: each input tensor, selected or not, and the output tensors.
    struct Item {
      const StTensor* t;
      DType src;
      bool quantize;
    };
    std::vector<Item> items;
    std::vector<StTensor> outs;
    std::string record = "{";  // the record's tensors as JSON text, in file order: no DOM of them (docs/reliability.md)
    uint64_t total = 0;
    for (const StTensor& t : in.tensors()) {
      const bool selected = (a.include.empty() || std::regex_search(t.name, include)) &&
                            (a.exclude.empty() || !std::regex_search(t.name, exclude));
      DType src = DType::kFloat32;
      const bool floating = SourceType(t.dtype, &src);
      const std::string what = "tensor " + io::quoted(t.name, 256) + " (" + t.dtype + ", shape " + t.shape_string() + ")";
      if (selected && UnsupportedFloat(t.dtype)) {
        Fail(what + ": unsupported dtype for MX (float32, float16 or bfloat16 only); leave it out with --exclude");
      }
      if (!selected || !floating) {
        items.push_back({&t, src, false});
        outs.push_back(t);
        total += t.end - t.begin;
        continue;
      }
      if (t.shape.empty()) Fail(what + ": rank 0, no axis to block along; leave it out with --exclude");
      if (t.shape.size() > 7) Fail(what + ": rank " + std::to_string(t.shape.size()) + ", MX takes at most 7");
      if (t.shape.back() % a.block != 0) {
        Fail(what + ": last axis " + std::to_string(t.shape.back()) + " is not a multiple of --block " +
             std::to_string(a.block) + "; leave it out with --exclude");
      }
      if (!a.gguf && t.name.size() + std::strlen(kScaleSuffix) > io::kMaxSafetensorsName) {
        Fail(what + ": its scales' name (the name + \"" + kScaleSuffix + "\") would be longer than the " +
             std::to_string(io::kMaxSafetensorsName) + " bytes a tensor name may have; leave it out with --exclude");
      }
      if (names.count(t.name + kScaleSuffix) && !a.gguf) {
        Fail(what + ": its scales would be written as " + io::quoted(t.name + kScaleSuffix, 256) + ", which the input already has");
      }
      items.push_back({&t, src, true});
      std::vector<int64_t> codes = t.shape;
      if (a.gguf) {
        codes.back() = t.shape.back() / 32 * 17;
      } else {
        codes.back() = t.shape.back() * ElemBits(dst) / 8;
      }
      outs.push_back({t.name, "U8", codes});
      if (!a.gguf) outs.push_back({t.name + kScaleSuffix, "U8", ScaleShape(t.shape, a.block)});
      if (record.size() > 1) record += ',';
      record += Json(t.name).dump();
      record += ":{\"dtype\":" + Json(t.dtype).dump() + ",\"shape\":" + Json(t.shape).dump() + "}";
      total += t.end - t.begin;
    }
    // The record's text in the order docs/mx.md gives (a JSON object would sort its keys).
    const std::string meta = "{\"format\":" + Json(mx::dtype_name(dst)).dump() + ",\"axis\":-1,\"blocksize\":" +
                             std::to_string(a.block) + ",\"round\":" + Json(a.round).dump() + ",\"scale_alg\":" +
                             Json(kAlgNames[alg]).dump() + ",\"layout\":" + Json(a.gguf ? "ggml_mxfp4" : "codes+scale").dump() +
                             ",\"tensors\":" + record + "}}";
    auto metadata = in.metadata();
    metadata.emplace_back(kMetaKey, meta);
    const std::string header = io::safetensors_header(outs, metadata);
    CheckHeaderSize(a.out, header);

    out.begin(0);
    out.append(0, header.data(), header.size());
    Progress progress("quantize " + a.in, total, "bytes", !a.quiet);
    std::size_t next = 0;  // index into outs
    std::vector<unsigned char> codes, scales;
    for (const Item& it : items) {
      const StTensor& t = *it.t;
      const unsigned char* data = in.data(t);
      if (!it.quantize) {
        out.append(0, data, t.end - t.begin);
        in.release(t);
        ++next;
        progress.add(t.end - t.begin);
        continue;
      }
      const StTensor& oc = outs[next++];
      codes.assign(oc.count(), 0);
      if (a.gguf) {
        const std::vector<float> x = Widen(data, t.count(), it.src);
        const mx::Error e = mx::to_ggml_mxfp4(x, codes, round);
        if (!e.ok()) Fail("tensor " + io::quoted(t.name, 256) + ": " + e.message);
      } else {
        const StTensor& os = outs[next++];
        scales.assign(os.count(), 0);
        mx::QuantizeOptions o;
        o.axis = -1, o.dst_type = dst, o.blocksize = a.block, o.round_mode = a.round.c_str(), o.scale_alg = alg,
        o.threads = a.threads;
        const mx::Error e = t.count() == 0 ? mx::Error{} : mx::quantize({data, it.src, t.shape}, {codes.data(), dst, t.shape},
                                                                         {scales.data(), DType::kFloat8E8M0, os.shape}, o);
        if (!e.ok()) Fail("tensor " + io::quoted(t.name, 256) + ": " + e.message);
      }
      out.append(0, codes.data(), codes.size());
      if (!a.gguf) out.append(0, scales.data(), scales.size());
      in.release(t);
      progress.add(t.end - t.begin);
    }
    progress.finish();
    out.commit();
  } catch (const NpyError& e) {
    std::fprintf(stderr, "accelmath: error: %s\n", io::printable(e.what()).c_str());
    return 2;
  } catch (const CheckpointError& e) {
    std::fprintf(stderr, "accelmath: error: %s\n", io::printable(e.what()).c_str());
    return 2;
  }
  return 0;
}

int dequantize_checkpoint(const CheckpointDequantizeArgs& a) {
  try {
    io::OutputSet out({a.out});
    const io::SafetensorsFile in(a.in);
    std::string text;
    auto metadata = in.metadata();
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
      if (it->first == kMetaKey) {
        text = it->second;
        metadata.erase(it);
        break;
      }
    }
    if (text.empty()) Fail(a.in + ": not an MX checkpoint of accelmath (no \"accelmath.mx\" in its __metadata__)");
    const std::string bad = a.in + ": __metadata__ \"accelmath.mx\" is corrupt: ";
    Json meta;
    try {
      meta = Json::parse(text);
    } catch (const Json::exception&) {
      Fail(bad + "not JSON");
    }
    DType elem;
    if (!meta.is_object() || !meta.contains("format") || !meta["format"].is_string() || !meta.contains("blocksize") ||
        !meta["blocksize"].is_number_integer() || !meta.contains("layout") || !meta["layout"].is_string() ||
        !meta.contains("tensors") || !meta["tensors"].is_object() || !meta.contains("axis") || meta["axis"] != -1) {
      Fail(bad + "expected format, axis -1, blocksize, layout and tensors");
    }
    const std::string layout = meta["layout"].get<std::string>();
    const int64_t block = meta["blocksize"].get<int64_t>();
    if (!mx::parse_dtype(meta["format"].get<std::string>().c_str(), &elem) || ElemBits(elem) == 0) Fail(bad + "unknown format");
    if (!ValidBlock(block)) Fail(bad + "blocksize " + std::to_string(block) + " is not a multiple of 32 in [32, 1024]");
    if (layout != "codes+scale" && !(layout == "ggml_mxfp4" && elem == DType::kFloat4E2M1 && block == 32)) {
      Fail(bad + "unknown layout " + io::quoted(layout, 64));
    }
    const Json& record = meta["tensors"];
    std::unordered_map<std::string, const StTensor*> by_name;
    for (const StTensor& t : in.tensors()) by_name.emplace(t.name, &t);
    auto find = [&](const std::string& name) -> const StTensor* {
      const auto it = by_name.find(name);
      return it == by_name.end() ? nullptr : it->second;
    };

    // The plan: each input tensor either copied, or the codes of a record entry (its scales skipped).
    struct Item {
      const StTensor* codes;
      const StTensor* scales;  // null for ggml blocks
      DType x_type;
      std::vector<int64_t> shape;
    };
    std::vector<Item> items;
    std::vector<StTensor> outs;
    std::set<std::string> scale_names;
    for (const auto& [name, r] : record.items()) {
      DType xt;
      if (!r.is_object() || !r.contains("dtype") || !r["dtype"].is_string() || !SourceType(r["dtype"].get<std::string>(), &xt) ||
          !r.contains("shape") || !r["shape"].is_array() || r["shape"].empty() || r["shape"].size() > 7) {
        Fail(bad + "entry " + io::quoted(name, 256) + " needs a dtype (F32, F16 or BF16) and a shape of rank 1 to 7");
      }
      if (layout == "codes+scale") scale_names.insert(name + kScaleSuffix);
    }
    uint64_t total = 0;
    for (const StTensor& t : in.tensors()) {
      if (scale_names.count(t.name)) continue;
      if (!record.contains(t.name)) {
        items.push_back({&t, nullptr, DType::kFloat32, {}});
        outs.push_back(t);
        total += t.end - t.begin;
        continue;
      }
      const Json& r = record[t.name];
      Item it{&t, nullptr, DType::kFloat32, {}};
      SourceType(r["dtype"].get<std::string>(), &it.x_type);
      for (const Json& d : r["shape"]) {
        if (!d.is_number_unsigned() || d.get<uint64_t>() > (uint64_t{1} << 60)) Fail(bad + "entry " + io::quoted(t.name, 256) + " has a bad shape");
        it.shape.push_back(d.get<int64_t>());
      }
      std::vector<int64_t> want = it.shape;
      if (want.back() % block != 0) Fail(bad + "entry " + io::quoted(t.name, 256) + ": last axis not a multiple of the block");
      want.back() = layout == "ggml_mxfp4" ? want.back() / 32 * 17 : want.back() * ElemBits(elem) / 8;
      const std::string what = "tensor " + io::quoted(t.name, 256) + " (" + t.dtype + ", shape " + t.shape_string() + ")";
      if (t.dtype != "U8" || t.shape != want) Fail(what + ": the codes of shape " + Shape(it.shape) + " should be U8 of shape " + Shape(want));
      if (layout == "codes+scale") {
        it.scales = find(t.name + kScaleSuffix);
        if (it.scales == nullptr) Fail(what + ": its scales " + io::quoted(t.name + kScaleSuffix, 256) + " are missing");
        const std::vector<int64_t> sw = ScaleShape(it.shape, block);
        if (it.scales->dtype != "U8" || it.scales->shape != sw) {
          Fail("tensor " + io::quoted(it.scales->name, 256) + " (" + it.scales->dtype + ", shape " + it.scales->shape_string() +
               "): the scales should be U8 of shape " + Shape(sw));
        }
      }
      outs.push_back({t.name, r["dtype"].get<std::string>(), it.shape});
      total += t.end - t.begin;
      items.push_back(std::move(it));
    }
    for (const auto& [name, r] : record.items()) {
      if (find(name) == nullptr) {
        Fail(a.in + ": tensor " + io::quoted(name, 256) + " is in the \"accelmath.mx\" record but not in the file");
      }
    }
    const std::string header = io::safetensors_header(outs, metadata);
    CheckHeaderSize(a.out, header);
    out.begin(0);
    out.append(0, header.data(), header.size());
    Progress progress("dequantize " + a.in, total, "bytes", !a.quiet);
    std::vector<unsigned char> x, codes, scales;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& it = items[i];
      const StTensor& t = *it.codes;
      if (it.shape.empty()) {
        out.append(0, in.data(t), t.end - t.begin);
        in.release(t);
        progress.add(t.end - t.begin);
        continue;
      }
      x.assign(outs[i].end - outs[i].begin, 0);
      const unsigned char* c = in.data(t);
      const unsigned char* s = it.scales ? in.data(*it.scales) : nullptr;
      const std::vector<int64_t> sshape = ScaleShape(it.shape, block);
      if (!it.scales) {  // ggml blocks -> the API's codes and scales
        const int64_t blocks = it.shape.back() / 32, rows = int64_t(outs[i].count()) / std::max<int64_t>(it.shape.back(), 1);
        codes.assign(mx::storage_bytes(elem, outs[i].count()), 0);
        scales.assign(StTensor{"", "", sshape}.count(), 0);
        GgmlToApi(c, rows, blocks, codes.data(), scales.data());
        c = codes.data(), s = scales.data();
      }
      mx::DequantizeOptions o;
      o.axis = -1, o.blocksize = block, o.threads = a.threads;
      const mx::Error e = outs[i].count() == 0 ? mx::Error{}
                                               : mx::dequantize({c, elem, it.shape}, {s, DType::kFloat8E8M0, sshape},
                                                                {x.data(), it.x_type, it.shape}, o);
      if (!e.ok()) Fail("tensor " + io::quoted(t.name, 256) + ": " + e.message);
      out.append(0, x.data(), x.size());
      in.release(t);
      if (it.scales) in.release(*it.scales);
      progress.add(t.end - t.begin);
    }
    progress.finish();
    out.commit();
  } catch (const NpyError& e) {
    std::fprintf(stderr, "accelmath: error: %s\n", io::printable(e.what()).c_str());
    return 2;
  } catch (const CheckpointError& e) {
    std::fprintf(stderr, "accelmath: error: %s\n", io::printable(e.what()).c_str());
    return 2;
  }
  return 0;
}

}  // namespace accelmath::cli
