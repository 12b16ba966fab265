// The container codec of a kind whose whole state is one flat payload after fixed params
// (kind 1, the Bloom filter, and kind 2, the counting filter). Traits names the kind, the
// filter and params types, and how params are encoded, and decoded: validated against the
// container, so nothing is sized from them before they agree with the input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/block.h"
#include "core/error.h"
#include "core/file.h"
#include "core/format.h"
#include "core/region.h"

namespace seen {

// The first 40 bytes of both flat kinds' params (docs/FORMAT.md): blocks u64, k u32, block
// scheme u32, seed u64, expected items u64, target fpr f64. P has those fields.

template <class P>
void EncodeBlockedFields(const P& p, uint8_t* out) {
  StoreLe64(out + 0, p.blocks);
  StoreLe32(out + 8, p.k);
  StoreLe32(out + 12, kBlockScheme);
  StoreLe64(out + 16, p.seed);
  StoreLe64(out + 24, p.expected_items);
  StoreLeF64(out + 32, p.target_fpr);
}

// Reads and checks those fields: the block scheme, 1..max_blocks blocks, k in 1..8.
template <class P>
P DecodeBlockedFields(const Container& c, uint64_t max_blocks, const std::string& source) {
  P p;
  p.blocks = LoadLe64(c.params + 0);
  p.k = LoadLe32(c.params + 8);
  const uint32_t scheme = LoadLe32(c.params + 12);
  p.seed = LoadLe64(c.params + 16);
  p.expected_items = LoadLe64(c.params + 24);
  p.target_fpr = LoadLeF64(c.params + 32);
  if (scheme != kBlockScheme) {
    throw Error(Code::kUnsupportedVersion, source + ": block scheme " + std::to_string(scheme) +
                                               ", this build knows scheme " + std::to_string(kBlockScheme));
  }
  if (p.blocks == 0 || p.blocks > max_blocks) {
    throw Error(Code::kTooLarge, source + ": block count " + std::to_string(p.blocks) +
                                     " is outside 1.." + std::to_string(max_blocks));
  }
  if (p.k < kMinK || p.k > kMaxK) {
    throw Error(Code::kInconsistent, source + ": k is " + std::to_string(p.k) + ", expected 1..8");
  }
  return p;
}

template <class Traits>
struct FlatCodec {
  using Filter = typename Traits::Filter;
  using Params = typename Traits::Params;

  static uint64_t SerializedSize(const Filter& filter) {
    return PayloadOffset(Traits::kParamsBytes) + filter.params().bytes();
  }

  static void Serialize(const Filter& filter, uint8_t* out) {
    uint8_t params[Traits::kParamsBytes];
    WriteContainer(Parts(filter, params), out);
  }

  // A writable copy. A keyed file opens only with its key (ParseContainer checks it).
  static Filter Deserialize(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key) {
    const Container c = ParseContainer(data, len, Traits::kKind, "buffer", true, key);
    const Params params = Keyed(Traits::Decode(c, "buffer"), key);
    Region region = Region::Allocate(params.bytes());
    std::memcpy(region.data(), c.payload, params.bytes());
    return Filter(params, std::move(region));
  }

  // Read-only, over the caller's bytes.
  static Filter View(const uint8_t* data, uint64_t len, bool verify_payload,
                     const std::optional<SecretKey>& key) {
    const Container c = ParseContainer(data, len, Traits::kKind, "buffer", verify_payload, key);
    const Params params = Keyed(Traits::Decode(c, "buffer"), key);
    return Filter(params, Region::Borrow(c.payload, params.bytes()));
  }

  static void Save(const Filter& filter, const std::string& path) {
    uint8_t params[Traits::kParamsBytes];
    SaveContainer(path, Parts(filter, params));
  }

  static Filter Open(const std::string& path, bool writable, bool verify_payload,
                     const std::optional<SecretKey>& key) {
    // A verified open reads every byte anyway; populating the map does it in one pass. An
    // unverified open stays lazy: a cold 1 GiB file opens at once.
    Region file = MapFile(path, writable, verify_payload);
    const Container c = ParseContainer(file.data(), file.size(), Traits::kKind, path, verify_payload, key);
    const Params params = Keyed(Traits::Decode(c, path), key);
    if (writable) ResealOnSync(file, path);
    const uint64_t offset = static_cast<uint64_t>(c.payload - file.data());
    return Filter(params, std::move(file).Narrow(offset, params.bytes()));
  }

 private:
  static Params Keyed(Params params, const std::optional<SecretKey>& key) {
    params.key = key;
    return params;
  }

  // The parts of filter's container, its params encoded into `params`.
  static seen::Parts Parts(const Filter& filter, uint8_t* params) {
    Traits::Encode(filter.params(), params);
    return {Traits::kKind, params, Traits::kParamsBytes, {{filter.bytes(), filter.params().bytes()}},
            KeyFlags(filter.params().key)};
  }
};

}  // namespace seen
