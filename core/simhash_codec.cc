#include "core/simhash_codec.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "core/file.h"
#include "core/format.h"

namespace seen {
namespace {

// Params layout (docs/FORMAT.md, kind 6): count u64, max_k u32, blocks u32, primary_bits u32,
// table scheme u32, 40 reserved zero bytes.
constexpr uint64_t kParamsBytes = 64;
constexpr uint32_t kTableScheme = 1;

[[noreturn]] void Bad(Code code, const std::string& source, const std::string& what) {
  throw Error(code, source + ": simhash index " + what);
}

// Every bucket offset array starts at 0, never decreases and ends at count, so no bucket
// reaches outside its table: checked even when the payload checksum is skipped.
void CheckOffsets(const uint8_t* payload, uint64_t at, uint64_t buckets, uint64_t count,
                  const std::string& source, const std::string& table) {
  const auto* offsets = reinterpret_cast<const uint32_t*>(payload + at);
  if (offsets[0] != 0 || offsets[buckets] != count) {
    Bad(Code::kInconsistent, source, table + " bucket offsets do not run from 0 to count");
  }
  for (uint64_t b = 0; b < buckets; ++b) {
    if (offsets[b + 1] < offsets[b]) {
      Bad(Code::kInconsistent, source, table + " bucket offsets decrease at bucket " + std::to_string(b));
    }
  }
}

SimhashLayout Decode(const Container& c, const std::string& source) {
  if (c.params_size < kParamsBytes) {
    Bad(Code::kInconsistent, source, "params need 64 bytes, params_size is " + std::to_string(c.params_size));
  }
  const uint64_t count = LoadLe64(c.params + 0);
  const uint32_t max_k = LoadLe32(c.params + 8);
  const uint32_t blocks = LoadLe32(c.params + 12);
  const uint32_t primary_bits = LoadLe32(c.params + 16);
  const uint32_t scheme = LoadLe32(c.params + 20);
  if (scheme != kTableScheme) {
    Bad(Code::kUnsupportedVersion, source, "table scheme " + std::to_string(scheme) + ", this build knows 1");
  }
  if (max_k > kSimhashMaxK) Bad(Code::kInconsistent, source, "max_k " + std::to_string(max_k) + " is over 7");
  if (blocks != std::max<uint32_t>(max_k + 1, 4)) {
    Bad(Code::kInconsistent, source, "blocks " + std::to_string(blocks) + " != max(max_k + 1, 4)");
  }
  if (count > kSimhashMaxEntries) Bad(Code::kTooLarge, source, "count " + std::to_string(count) + " is over 2^32 - 1");
  const uint32_t w0 = SimhashLayout::For(0, max_k, 0).width[0];
  if (primary_bits < w0 || primary_bits > 26) {
    Bad(Code::kInconsistent, source, "primary_bits " + std::to_string(primary_bits) + " is outside " +
                                         std::to_string(w0) + "..26");
  }
  for (uint64_t i = 24; i < kParamsBytes; ++i) {
    if (c.params[i] != 0) Bad(Code::kInconsistent, source, "reserved params byte " + std::to_string(i) + " is not zero");
  }
  const SimhashLayout l = SimhashLayout::For(count, max_k, primary_bits);
  if (c.payload_size != l.bytes) {
    Bad(Code::kInconsistent, source, "payload_size " + std::to_string(c.payload_size) +
                                         " != the " + std::to_string(l.bytes) + " bytes its tables need");
  }
  CheckOffsets(c.payload, l.primary_offsets, uint64_t{1} << primary_bits, count, source, "primary");
  for (uint32_t t = 1; t < blocks; ++t) {
    CheckOffsets(c.payload, l.table_offsets[t], uint64_t{1} << l.width[t], count, source,
                 "table " + std::to_string(t));
  }
  return l;
}

// The parts of index's container, its params encoded into `params`.
Parts PartsOf(const SimhashIndex& index, uint8_t* params) {
  const SimhashLayout& l = index.layout();
  std::memset(params, 0, kParamsBytes);
  StoreLe64(params + 0, l.count);
  StoreLe32(params + 8, l.max_k);
  StoreLe32(params + 12, l.blocks);
  StoreLe32(params + 16, l.primary_bits);
  StoreLe32(params + 20, kTableScheme);
  return {Kind::kSimhashIndex, params, kParamsBytes, {{index.payload(), l.bytes}}};
}

}  // namespace

uint64_t SerializedSize(const SimhashIndex& index) {
  return PayloadOffset(kParamsBytes) + index.layout().bytes;
}

void Serialize(const SimhashIndex& index, uint8_t* out) {
  uint8_t params[kParamsBytes];
  WriteContainer(PartsOf(index, params), out);
}

SimhashIndex DeserializeSimhashIndex(const uint8_t* data, uint64_t len) {
  const Container c = ParseContainer(data, len, Kind::kSimhashIndex, "buffer", true);
  const SimhashLayout l = Decode(c, "buffer");
  Region region = Region::Allocate(l.bytes);
  std::memcpy(region.data(), c.payload, l.bytes);
  return SimhashIndex(l, std::move(region));
}

SimhashIndex ViewSimhashIndex(const uint8_t* data, uint64_t len, bool verify_payload) {
  const Container c = ParseContainer(data, len, Kind::kSimhashIndex, "buffer", verify_payload);
  const SimhashLayout l = Decode(c, "buffer");
  return SimhashIndex(l, Region::Borrow(c.payload, l.bytes));
}

void Save(const SimhashIndex& index, const std::string& path) {
  uint8_t params[kParamsBytes];
  SaveContainer(path, PartsOf(index, params));
}

SimhashIndex OpenSimhashIndex(const std::string& path, bool verify_payload) {
  Region file = MapFile(path, false, verify_payload);
  const Container c = ParseContainer(file.data(), file.size(), Kind::kSimhashIndex, path, verify_payload);
  const SimhashLayout l = Decode(c, path);
  const uint64_t offset = static_cast<uint64_t>(c.payload - file.data());
  return SimhashIndex(l, std::move(file).Narrow(offset, l.bytes));
}

}  // namespace seen
