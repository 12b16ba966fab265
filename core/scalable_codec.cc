#include "core/real_text.h"
#include "core/scalable_codec.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "core/block.h"
#include "core/error.h"
#include "core/file.h"
#include "core/format.h"
#include "core/sizing.h"

namespace seen {
namespace {

// Scalable params layout (docs/FORMAT.md, kind 3): a 64-byte head (initial capacity u64,
// fpr f64, growth f64, tightening f64, seed u64, sub-filter count u32, block scheme u32,
// 16 reserved bytes), then one 64-byte row per sub-filter (blocks u64, k u32, reserved
// u32, seed u64, capacity u64, items u64, target fpr f64, 16 reserved bytes). The payload
// is the sub-filters' blocks, one after another in row order.
constexpr uint64_t kHeadBytes = 64;
constexpr uint64_t kRowBytes = 64;

uint64_t ParamsBytes(size_t subs) { return kHeadBytes + kRowBytes * subs; }

std::vector<uint8_t> EncodeParams(const Scalable& f) {
  std::vector<uint8_t> out(ParamsBytes(f.subs().size()), 0);
  const ScalableOptions& o = f.options();
  StoreLe64(&out[0], o.initial_capacity);
  StoreLeF64(&out[8], o.fpr);
  StoreLeF64(&out[16], o.growth);
  StoreLeF64(&out[24], o.tightening);
  StoreLe64(&out[32], o.seed);
  StoreLe32(&out[40], static_cast<uint32_t>(f.subs().size()));
  StoreLe32(&out[44], kBlockScheme);
  for (size_t i = 0; i < f.subs().size(); ++i) {
    const SubFilter& s = f.subs()[i];
    uint8_t* row = &out[kHeadBytes + kRowBytes * i];
    StoreLe64(row + 0, s.bloom.params().blocks);
    StoreLe32(row + 8, s.bloom.params().k);
    StoreLe64(row + 16, s.bloom.params().seed);
    StoreLe64(row + 24, s.capacity);
    StoreLe64(row + 32, s.items);
    StoreLeF64(row + 40, s.bloom.params().target_fpr);
  }
  return out;
}

bool Zero(const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

// A row must be the sub-filter the head's options grow at position i (its capacity, seed and
// fpr), with at least log2(1 / fpr) bits per key of capacity, the floor no filter beats. So
// the head cannot promise the next add a sub-filter out of proportion to the payload (a 1 KB
// file whose initial capacity said 2^27 keys once made the next add map 2.3 GB): that one
// holds growth times the newest's capacity, at tightening times its fpr.
template <class Fail>
void RequireGrownFrom(const ScalableOptions& o, uint32_t i, const BloomParams& row, const Fail& fail) {
  const std::string name = "sub-filter " + std::to_string(i) + ": ";
  uint64_t capacity = 0;
  try {
    capacity = Scalable::CapacityOf(o, i);
  } catch (const Error& e) {
    fail(Code::kTooLarge, name + e.what());
  }
  if (row.expected_items != capacity || row.seed != Scalable::SeedOf(o, i) || row.target_fpr != Scalable::FprOf(o, i)) {
    fail(Code::kInconsistent, name + "capacity, seed or fpr differ from what the head's initial capacity " +
                                  std::to_string(o.initial_capacity) + ", fpr, growth and tightening give");
  }
  if (static_cast<double>(row.blocks) * kBlockBytes * 8 < static_cast<double>(capacity) * std::log2(1 / row.target_fpr)) {
    fail(Code::kInconsistent, name + std::to_string(row.blocks) + " blocks cannot hold " + std::to_string(capacity) +
                                  " keys at fpr " + RealText(row.target_fpr));
  }
}

struct Decoded {
  ScalableOptions options;
  std::vector<BloomParams> params;
  std::vector<uint64_t> capacity, items;
};

// Every row is checked, and the blocks summed without overflow, before anything is sized
// from them: the payload must hold exactly the sub-filters the rows describe.
Decoded DecodeParams(const Container& c, const std::string& source) {
  auto fail = [&](Code code, const std::string& what) { throw Error(code, source + ": " + what); };
  if (c.params_size < kHeadBytes) fail(Code::kInconsistent, "scalable params are shorter than 64 bytes");
  Decoded d;
  ScalableOptions& o = d.options;
  o.initial_capacity = LoadLe64(c.params + 0);
  o.fpr = LoadLeF64(c.params + 8);
  o.growth = LoadLeF64(c.params + 16);
  o.tightening = LoadLeF64(c.params + 24);
  o.seed = LoadLe64(c.params + 32);
  const uint32_t subs = LoadLe32(c.params + 40);
  const uint32_t scheme = LoadLe32(c.params + 44);
  if (scheme != kBlockScheme) {
    fail(Code::kUnsupportedVersion, "block scheme " + std::to_string(scheme) + ", this build knows 1");
  }
  if (subs == 0 || subs > kMaxSubFilters) {
    fail(Code::kInconsistent, "sub-filter count " + std::to_string(subs) + " is outside 1.." +
                                  std::to_string(kMaxSubFilters));
  }
  if (c.params_size != ParamsBytes(subs)) {
    fail(Code::kInconsistent, "params_size " + std::to_string(c.params_size) + " != 64 + 64 * " +
                                  std::to_string(subs) + " sub-filters");
  }
  if (!Zero(c.params + 48, 16)) fail(Code::kInconsistent, "reserved params bytes 48..63 are not 0");
  try {
    Scalable::Validate(o);
  } catch (const Error& e) {
    fail(Code::kInconsistent, e.what());
  }
  uint64_t total = 0;
  for (uint32_t i = 0; i < subs; ++i) {
    const uint8_t* row = c.params + kHeadBytes + kRowBytes * i;
    const std::string name = "sub-filter " + std::to_string(i) + ": ";
    BloomParams p;
    p.blocks = LoadLe64(row + 0);
    p.k = LoadLe32(row + 8);
    p.seed = LoadLe64(row + 16);
    const uint64_t capacity = LoadLe64(row + 24);
    const uint64_t items = LoadLe64(row + 32);
    p.expected_items = capacity;
    p.target_fpr = LoadLeF64(row + 40);
    if (p.blocks == 0 || p.blocks > kMaxFilterBytes / kBlockBytes - total / kBlockBytes) {
      fail(Code::kTooLarge, name + "block count " + std::to_string(p.blocks) +
                                " takes the filter past the 16 TiB limit or is 0");
    }
    if (p.k < kMinK || p.k > kMaxK) fail(Code::kInconsistent, name + "k is " + std::to_string(p.k) + ", expected 1..8");
    if (!Zero(row + 12, 4) || !Zero(row + 48, 16)) fail(Code::kInconsistent, name + "reserved bytes are not 0");
    if (capacity == 0 || items > capacity) {
      fail(Code::kInconsistent, name + std::to_string(items) + " items in a capacity of " + std::to_string(capacity));
    }
    if (i + 1 < subs && items < capacity) fail(Code::kInconsistent, name + "is not full but is not the newest");
    if (!(p.target_fpr > 0.0 && p.target_fpr < 1.0)) fail(Code::kInconsistent, name + "target fpr is outside (0, 1)");
    RequireGrownFrom(o, i, p, fail);
    total += p.bytes();
    d.params.push_back(p);
    d.capacity.push_back(capacity);
    d.items.push_back(items);
  }
  if (c.payload_size != total) {
    fail(Code::kInconsistent, "payload_size " + std::to_string(c.payload_size) +
                                  " != the sub-filters' blocks * 64 = " + std::to_string(total));
  }
  return d;
}

// The filter over the payload: each sub-filter a private copy, or read-only bytes borrowed
// from the mapping that `backing` keeps alive.
Scalable Build(const Decoded& d, const uint8_t* payload, bool copy, Region backing) {
  std::vector<SubFilter> subs;
  uint64_t offset = 0;
  for (size_t i = 0; i < d.params.size(); ++i) {
    const uint64_t bytes = d.params[i].bytes();
    Region region = copy ? Region::Allocate(bytes) : Region::Borrow(payload + offset, bytes);
    if (copy) std::memcpy(region.data(), payload + offset, bytes);
    subs.push_back({Bloom(d.params[i], std::move(region)), d.capacity[i], d.items[i]});
    offset += bytes;
  }
  return Scalable(d.options, std::move(subs), std::move(backing), !copy);
}

// The decoded filter under `key` (the file holds only its check value, checked already).
Decoded Keyed(Decoded d, const std::optional<SecretKey>& key) {
  d.options.key = key;
  for (BloomParams& p : d.params) p.key = key;
  return d;
}

// The parts of f's container, over its params encoded into `params`.
Parts PartsOf(const Scalable& f, const std::vector<uint8_t>& params) {
  Parts parts{Kind::kScalable, params.data(), params.size(), {}, KeyFlags(f.options().key)};
  for (const SubFilter& s : f.subs()) parts.payload.push_back({s.bloom.bytes(), s.bloom.params().bytes()});
  return parts;
}

}  // namespace

uint64_t SerializedSize(const Scalable& filter) {
  return PayloadOffset(ParamsBytes(filter.subs().size())) + filter.bytes();
}

void Serialize(const Scalable& filter, uint8_t* out) {
  const std::vector<uint8_t> params = EncodeParams(filter);
  WriteContainer(PartsOf(filter, params), out);
}

Scalable DeserializeScalable(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key) {
  const Container c = ParseContainer(data, len, Kind::kScalable, "buffer", true, key);
  return Build(Keyed(DecodeParams(c, "buffer"), key), c.payload, true, Region());
}

void Save(const Scalable& filter, const std::string& path) {
  const std::vector<uint8_t> params = EncodeParams(filter);
  SaveContainer(path, PartsOf(filter, params));
}

Scalable OpenScalable(const std::string& path, bool writable, bool verify_payload,
                      const std::optional<SecretKey>& key) {
  Region file = MapFile(path, false, verify_payload);
  const Container c = ParseContainer(file.data(), file.size(), Kind::kScalable, path, verify_payload, key);
  const Decoded d = Keyed(DecodeParams(c, path), key);
  if (writable) return Build(d, c.payload, true, Region());
  return Build(d, c.payload, false, std::move(file));
}

}  // namespace seen
