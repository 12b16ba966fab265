#include "core/minhash_codec.h"

#include <cmath>
#include <vector>

#include "core/error.h"
#include "core/file.h"
#include "core/format.h"

namespace seen {
namespace {

// Params layout (docs/FORMAT.md, kind 7): count u64, bins u32, shingle u32, seed u64,
// threshold f64, bands u32, rows u32, table scheme u32, 20 reserved zero bytes.
constexpr uint64_t kParamsBytes = 64;
constexpr uint32_t kTableScheme = 1;
// Per document: its id (8), its (id, slot) entry (16) and a (key, slot) entry per band (8),
// then its bins' low bytes.
constexpr uint64_t kIdBytes = 8, kByIdBytes = 16, kBandEntryBytes = 8;

[[noreturn]] void Bad(Code code, const std::string& source, const std::string& what) {
  throw Error(code, source + ": minhash index " + what);
}

uint64_t PayloadBytes(uint64_t count, uint32_t bins, uint32_t bands) {
  return count * (kIdBytes + kByIdBytes + bands * kBandEntryBytes + bins);
}

struct Encoded {
  uint8_t params[kParamsBytes];
  std::vector<uint8_t> payload;
};

Encoded Encode(const MinhashIndex& index) {
  const MinhashTables t = index.Compacted();
  const MinhashOptions& o = index.options();
  const uint64_t count = t.ids.size();
  Encoded e;
  std::memset(e.params, 0, kParamsBytes);
  StoreLe64(e.params + 0, count);
  StoreLe32(e.params + 8, o.bins);
  StoreLe32(e.params + 12, o.shingle);
  StoreLe64(e.params + 16, o.seed);
  StoreLeF64(e.params + 24, index.threshold());
  StoreLe32(e.params + 32, index.shape().bands);
  StoreLe32(e.params + 36, index.shape().rows);
  StoreLe32(e.params + 40, kTableScheme);
  e.payload.resize(PayloadBytes(count, o.bins, index.shape().bands));
  uint8_t* p = e.payload.data();
  for (uint64_t id : t.ids) StoreLe64(p, id), p += kIdBytes;
  for (const auto& [id, slot] : t.by_id) StoreLe64(p, id), StoreLe32(p + 8, slot), StoreLe32(p + 12, 0), p += kByIdBytes;
  for (const auto& band : t.bands) {
    for (const auto& [key, slot] : band) StoreLe32(p, key), StoreLe32(p + 4, slot), p += kBandEntryBytes;
  }
  if (!t.low_bytes.empty()) std::memcpy(p, t.low_bytes.data(), t.low_bytes.size());  // no NULL to memcpy
  return e;
}

Parts PartsOf(const Encoded& e, const MinhashIndex& index) {
  return {Kind::kMinhashIndex, e.params, kParamsBytes, {{e.payload.data(), e.payload.size()}}, KeyFlags(index.options().key)};
}

// What a validated container holds.
struct Checked {
  MinhashOptions options;
  double threshold;
  uint64_t count;
  uint32_t bands;
};

// Every field is checked against what an index of these options would hold, so a damaged
// or hostile file is refused instead of answering wrong or reading outside its tables.
Checked Check(const Container& c, const std::optional<SecretKey>& key, const std::string& source) {
  if (c.params_size < kParamsBytes) {
    Bad(Code::kInconsistent, source, "params need 64 bytes, params_size is " + std::to_string(c.params_size));
  }
  Checked k;
  k.count = LoadLe64(c.params + 0);
  k.options.bins = LoadLe32(c.params + 8);
  k.options.shingle = LoadLe32(c.params + 12);
  k.options.seed = LoadLe64(c.params + 16);
  k.options.key = key;
  k.threshold = LoadLeF64(c.params + 24);
  k.bands = LoadLe32(c.params + 32);
  const uint32_t rows = LoadLe32(c.params + 36);
  const uint32_t scheme = LoadLe32(c.params + 40);
  if (scheme != kTableScheme) {
    Bad(Code::kUnsupportedVersion, source, "table scheme " + std::to_string(scheme) + ", this build knows 1");
  }
  for (uint64_t i = 44; i < kParamsBytes; ++i) {
    if (c.params[i] != 0) Bad(Code::kInconsistent, source, "reserved params byte " + std::to_string(i) + " is not zero");
  }
  try {
    ValidateMinhashOptions(k.options);
  } catch (const Error& e) {
    Bad(Code::kInconsistent, source, e.what());
  }
  if (!(k.threshold > 0 && k.threshold <= 1)) Bad(Code::kInconsistent, source, "threshold is outside (0, 1]");
  const LshShape shape = ChooseLshShape(k.options.bins, k.threshold, kLshRecall);
  if (k.bands != shape.bands || rows != shape.rows) {
    Bad(Code::kInconsistent, source, "bands and rows " + std::to_string(k.bands) + " x " + std::to_string(rows) +
                                         " are not the " + std::to_string(shape.bands) + " x " +
                                         std::to_string(shape.rows) + " its bins and threshold give");
  }
  const uint64_t count = k.count;
  if (count > UINT32_MAX) Bad(Code::kTooLarge, source, "count " + std::to_string(count) + " is over 2^32 - 1");
  if (c.payload_size != PayloadBytes(count, k.options.bins, k.bands)) {
    Bad(Code::kInconsistent, source, "payload_size " + std::to_string(c.payload_size) + " != the " +
                                         std::to_string(PayloadBytes(count, k.options.bins, k.bands)) +
                                         " bytes its count needs");
  }
  const uint8_t* ids = c.payload;
  const uint8_t* p = ids + count * kIdBytes;
  std::vector<bool> listed(count, false);
  for (uint64_t i = 0; i < count; ++i, p += kByIdBytes) {
    const uint64_t id = LoadLe64(p);
    const uint32_t slot = LoadLe32(p + 8);
    if (slot >= count || listed[slot] || LoadLe64(ids + slot * kIdBytes) != id || LoadLe32(p + 12) != 0 ||
        (i > 0 && id <= LoadLe64(p - kByIdBytes))) {
      Bad(Code::kInconsistent, source, "id entry " + std::to_string(i) + " is not the next id of a slot of its own");
    }
    listed[slot] = true;
  }
  for (uint32_t b = 0; b < k.bands; ++b) {
    for (uint64_t i = 0; i < count; ++i, p += kBandEntryBytes) {
      const MinhashBandEntry entry{LoadLe32(p), LoadLe32(p + 4)};
      if (entry.second >= count ||
          (i > 0 && entry <= MinhashBandEntry{LoadLe32(p - kBandEntryBytes), LoadLe32(p - kBandEntryBytes + 4)})) {
        Bad(Code::kInconsistent, source, "band " + std::to_string(b) + " entry " + std::to_string(i) +
                                             " is out of order or names no slot");
      }
    }
  }
  return k;
}

// A writable index of its own copy of a checked container's tables.
MinhashIndex Copied(const Container& c, const Checked& k) {
  MinhashTables t;
  const uint8_t* p = c.payload;
  t.ids.resize(k.count);
  for (auto& id : t.ids) id = LoadLe64(p), p += kIdBytes;
  t.by_id.resize(k.count);
  for (auto& entry : t.by_id) entry = {LoadLe64(p), LoadLe32(p + 8)}, p += kByIdBytes;
  t.bands.resize(k.bands);
  for (auto& band : t.bands) {
    band.resize(k.count);
    for (auto& entry : band) entry = {LoadLe32(p), LoadLe32(p + 4)}, p += kBandEntryBytes;
  }
  t.low_bytes.assign(p, p + k.count * k.options.bins);
  return MinhashIndex(k.options, k.threshold, std::move(t));
}

}  // namespace

uint64_t SerializedSize(const MinhashIndex& index) {
  return PayloadOffset(kParamsBytes) + PayloadBytes(index.size(), index.options().bins, index.shape().bands);
}

void Serialize(const MinhashIndex& index, uint8_t* out) {
  const Encoded e = Encode(index);
  WriteContainer(PartsOf(e, index), out);
}

void Save(const MinhashIndex& index, const std::string& path) {
  const Encoded e = Encode(index);
  SaveContainer(path, PartsOf(e, index));
}

MinhashIndex DeserializeMinhashIndex(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key) {
  const Container c = ParseContainer(data, len, Kind::kMinhashIndex, "buffer", true, key);
  return Copied(c, Check(c, key, "buffer"));
}

MinhashIndex OpenMinhashIndex(const std::string& path, const std::optional<SecretKey>& key, bool read_only,
                              bool verify_payload) {
  Region file = MapFile(path, false, verify_payload);
  const Container c = ParseContainer(file.data(), file.size(), Kind::kMinhashIndex, path, verify_payload, key);
  const Checked k = Check(c, key, path);
  if (!read_only) return Copied(c, k);
  const uint64_t offset = static_cast<uint64_t>(c.payload - file.data());
  return MinhashIndex(k.options, k.threshold, k.count, std::move(file).Narrow(offset, c.payload_size));
}

}  // namespace seen
