#include "core/bloom_codec.h"

#include <cstring>
#include <vector>

#include "core/error.h"
#include "core/flat_codec.h"
#include "core/format.h"
#include "core/sizing.h"

namespace seen {
namespace {

// Bloom params layout (docs/FORMAT.md): blocks u64, k u32, block scheme u32, seed u64,
// expected items u64, target fpr f64, 24 reserved bytes.
constexpr uint64_t kParamsBytes = 64;

void EncodeParams(const BloomParams& p, uint8_t* out) {
  std::memset(out, 0, kParamsBytes);
  EncodeBlockedFields(p, out);
}

// Params and the payload must agree before any memory is sized from them.
BloomParams DecodeParams(const Container& c, const std::string& source) {
  if (c.params_size < kParamsBytes) {
    throw Error(Code::kInconsistent, source + ": bloom params need " + std::to_string(kParamsBytes) +
                                         " bytes, params_size is " + std::to_string(c.params_size));
  }
  const auto p = DecodeBlockedFields<BloomParams>(c, kMaxFilterBytes / kBlockBytes, source);
  if (c.payload_size != p.bytes()) {
    throw Error(Code::kInconsistent, source + ": payload_size " + std::to_string(c.payload_size) +
                                         " != blocks * 64 = " + std::to_string(p.bytes()));
  }
  return p;
}

struct Traits {
  using Filter = Bloom;
  using Params = BloomParams;
  static constexpr Kind kKind = Kind::kBloom;
  static constexpr uint64_t kParamsBytes = seen::kParamsBytes;
  static void Encode(const Params& p, uint8_t* out) { EncodeParams(p, out); }
  static Params Decode(const Container& c, const std::string& source) { return DecodeParams(c, source); }
};
using Codec = FlatCodec<Traits>;

}  // namespace

uint64_t SerializedSize(const Bloom& filter) { return Codec::SerializedSize(filter); }

void Serialize(const Bloom& filter, uint8_t* out) { Codec::Serialize(filter, out); }

Bloom Deserialize(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key) {
  return Codec::Deserialize(data, len, key);
}

Bloom View(const uint8_t* data, uint64_t len, bool verify_payload,
           const std::optional<SecretKey>& key) {
  return Codec::View(data, len, verify_payload, key);
}

void Save(const Bloom& filter, const std::string& path) { Codec::Save(filter, path); }

Bloom Open(const std::string& path, bool writable, bool verify_payload,
           const std::optional<SecretKey>& key) {
  return Codec::Open(path, writable, verify_payload, key);
}

}  // namespace seen
