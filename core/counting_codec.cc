#include "core/counting_codec.h"

#include <cstring>
#include <vector>

#include "core/error.h"
#include "core/flat_codec.h"
#include "core/format.h"
#include "core/sizing.h"

namespace seen {
namespace {

// Counting params layout (docs/FORMAT.md, kind 2): blocks u64, k u32, block scheme u32,
// seed u64, expected items u64, target fpr f64, counter bits u32, 20 reserved bytes.
constexpr uint64_t kParamsBytes = 64;

void EncodeParams(const CountingParams& p, uint8_t* out) {
  std::memset(out, 0, kParamsBytes);
  EncodeBlockedFields(p, out);
  StoreLe32(out + 40, kCounterBits);
}

// Params and the payload must agree before any memory is sized from them.
CountingParams DecodeParams(const Container& c, const std::string& source) {
  auto fail = [&](Code code, const std::string& what) { throw Error(code, source + ": " + what); };
  if (c.params_size != kParamsBytes) {
    fail(Code::kInconsistent, "counting params need " + std::to_string(kParamsBytes) +
                                  " bytes, params_size is " + std::to_string(c.params_size));
  }
  const auto p = DecodeBlockedFields<CountingParams>(c, kMaxCountingBlocks, source);
  const uint32_t counter_bits = LoadLe32(c.params + 40);
  if (counter_bits != kCounterBits) {
    fail(Code::kUnsupportedVersion, "counter width " + std::to_string(counter_bits) +
                                        " bits, this build knows " + std::to_string(kCounterBits));
  }
  for (uint64_t i = 44; i < kParamsBytes; ++i) {
    if (c.params[i] != 0) fail(Code::kInconsistent, "reserved params byte " + std::to_string(i) + " is not 0");
  }
  if (c.payload_size != p.bytes()) {
    fail(Code::kInconsistent, "payload_size " + std::to_string(c.payload_size) +
                                   " != blocks * 320 = " + std::to_string(p.bytes()));
  }
  return p;
}

struct Traits {
  using Filter = Counting;
  using Params = CountingParams;
  static constexpr Kind kKind = Kind::kCounting;
  static constexpr uint64_t kParamsBytes = seen::kParamsBytes;
  static void Encode(const Params& p, uint8_t* out) { EncodeParams(p, out); }
  static Params Decode(const Container& c, const std::string& source) { return DecodeParams(c, source); }
};
using Codec = FlatCodec<Traits>;

}  // namespace

uint64_t SerializedSize(const Counting& filter) { return Codec::SerializedSize(filter); }

void Serialize(const Counting& filter, uint8_t* out) { Codec::Serialize(filter, out); }

Counting DeserializeCounting(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key) {
  return Codec::Deserialize(data, len, key);
}

Counting ViewCounting(const uint8_t* data, uint64_t len, bool verify_payload,
           const std::optional<SecretKey>& key) {
  return Codec::View(data, len, verify_payload, key);
}

void Save(const Counting& filter, const std::string& path) { Codec::Save(filter, path); }

Counting OpenCounting(const std::string& path, bool writable, bool verify_payload,
           const std::optional<SecretKey>& key) {
  return Codec::Open(path, writable, verify_payload, key);
}

}  // namespace seen
