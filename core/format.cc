#include "core/format.h"

#include <cstring>

#include "core/error.h"
#include "core/hash.h"

namespace seen {
namespace {

// Header layout: see docs/FORMAT.md.
constexpr uint8_t kMagic[8] = {0x89, 'S', 'E', 'E', 'N', '\r', '\n', 0x1a};
constexpr size_t kOffMajor = 8, kOffMinor = 10, kOffKind = 12, kOffParamsSize = 16,
                 kOffPayloadOffset = 24, kOffPayloadSize = 32, kOffPayloadChecksum = 40,
                 kOffFlags = 48, kOffHeaderChecksum = 56;

uint64_t HeaderChecksum(const uint8_t* data, uint64_t params_size) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, data, kOffHeaderChecksum);
  XXH3_64bits_update(&state, data + kHeaderBytes, params_size);
  return XXH3_64bits_digest(&state);
}

uint64_t PayloadChecksum(const uint8_t* payload, uint64_t size) {
  return XXH3_64bits(payload, size);
}

Status Refuse(Code code, const std::string& source, const std::string& what) {
  return Status::Refused(code, source + ": " + what);
}

// The flags of a keyed file written before issue 33, whose check value was SipHash-1-3 of the
// label under the key itself. Accepted on open until the release after the one that stopped
// writing them (docs/SECURITY.md); never written.
uint64_t OldKeyFlags(const SecretKey& key) {
  static const char kLabel[] = "seen key check";
  return 1 | (SipHash13(key.k0, key.k1, kLabel, sizeof kLabel - 1) >> 8 << 8);
}

}  // namespace

const char* KindName(uint32_t kind) {
  switch (kind) {
    case static_cast<uint32_t>(Kind::kBloom): return "bloom";
    case static_cast<uint32_t>(Kind::kCounting): return "counting";
    case static_cast<uint32_t>(Kind::kScalable): return "scalable";
    case static_cast<uint32_t>(Kind::kWindow): return "window";
    case static_cast<uint32_t>(Kind::kStore): return "store";
    case static_cast<uint32_t>(Kind::kSimhashIndex): return "simhash index";
    case static_cast<uint32_t>(Kind::kMinhashIndex): return "minhash index";
    default: return "unknown";
  }
}

uint64_t PayloadOffset(uint64_t params_size) {
  return (kHeaderBytes + params_size + 63) / 64 * 64;
}

uint64_t ContainerSize(const Parts& parts) {
  uint64_t size = PayloadOffset(parts.params_size);
  for (const Piece& piece : parts.payload) size += piece.size;
  return size;
}

void EncodeHead(Kind kind, const uint8_t* params, uint64_t params_size, uint64_t payload_size,
                uint64_t payload_checksum, uint64_t flags, uint8_t* head) {
  const uint64_t offset = PayloadOffset(params_size);
  std::memset(head, 0, offset);
  std::memcpy(head, kMagic, sizeof kMagic);
  StoreLe16(head + kOffMajor, kFormatMajor);
  StoreLe16(head + kOffMinor, kFormatMinor);
  StoreLe32(head + kOffKind, static_cast<uint32_t>(kind));
  StoreLe64(head + kOffParamsSize, params_size);
  StoreLe64(head + kOffPayloadOffset, offset);
  StoreLe64(head + kOffPayloadSize, payload_size);
  StoreLe64(head + kOffPayloadChecksum, payload_checksum);
  StoreLe64(head + kOffFlags, flags);
  std::memcpy(head + kHeaderBytes, params, params_size);
  StoreLe64(head + kOffHeaderChecksum, HeaderChecksum(head, params_size));
}

void WriteContainer(const Parts& parts, uint8_t* out) {
  const uint64_t offset = PayloadOffset(parts.params_size);
  uint8_t* payload = out + offset;
  uint64_t size = 0;
  for (const Piece& piece : parts.payload) {
    if (piece.size > 0) std::memcpy(payload + size, piece.data, piece.size);
    size += piece.size;
  }
  EncodeHead(parts.kind, parts.params, parts.params_size, size, PayloadChecksum(payload, size), parts.flags, out);
}

namespace {

// The header's checks (magic, version, sizes, header checksum); *kind is what it names.
Status CheckHeader(const uint8_t* data, uint64_t len, const std::string& source, uint32_t* kind) {
  if (data == nullptr && len > 0) return Refuse(Code::kInvalidArgument, source, "NULL data");
  if (len < kHeaderBytes) {
    return Refuse(Code::kTruncated, source, "has " + std::to_string(len) + " bytes, the header alone needs " +
                                                std::to_string(kHeaderBytes));
  }
  if (std::memcmp(data, kMagic, sizeof kMagic) != 0) {
    return Refuse(Code::kBadMagic, source, "not a seen file (bad magic in bytes 0..7)");
  }
  const uint16_t major = LoadLe16(data + kOffMajor);
  if (major != kFormatMajor) {
    return Refuse(Code::kUnsupportedVersion, source, "format major version " + std::to_string(major) +
                                                         ", this build reads " + std::to_string(kFormatMajor));
  }
  const uint64_t params_size = LoadLe64(data + kOffParamsSize);
  if (params_size > kMaxParamsBytes) {
    return Refuse(Code::kTooLarge, source, "params_size " + std::to_string(params_size) + " is over " +
                                               std::to_string(kMaxParamsBytes));
  }
  if (len < kHeaderBytes + params_size) {
    return Refuse(Code::kTruncated, source, "ends at byte " + std::to_string(len) + ", inside the " +
                                                std::to_string(params_size) + "-byte params");
  }
  if (LoadLe64(data + kOffHeaderChecksum) != HeaderChecksum(data, params_size)) {
    return Refuse(Code::kBadChecksum, source, "header checksum mismatch (header or params corrupt)");
  }
  *kind = LoadLe32(data + kOffKind);
  return {};
}

}  // namespace

uint32_t ContainerKind(const uint8_t* data, uint64_t len, const std::string& source) {
  uint32_t kind = 0;
  ThrowIfRefused(CheckHeader(data, len, source, &kind));
  return kind;
}

uint64_t KeyFlags(const std::optional<SecretKey>& key) {
  return key ? 1 | (key->CheckValue() << 8) : 0;
}

Status CheckContainer(const uint8_t* data, uint64_t len, Kind expected, const std::string& source,
                      bool verify_payload, const std::optional<SecretKey>& key, Container* out) {
  uint32_t kind = 0;
  if (Status header = CheckHeader(data, len, source, &kind); !header.ok()) return header;
  const uint64_t params_size = LoadLe64(data + kOffParamsSize);
  if (kind != static_cast<uint32_t>(expected)) {
    return Refuse(Code::kWrongKind, source, std::string("holds a ") + KindName(kind) + " (kind " +
                                                std::to_string(kind) + "), expected a " +
                                                KindName(static_cast<uint32_t>(expected)));
  }
  const uint64_t offset = LoadLe64(data + kOffPayloadOffset);
  const uint64_t payload_size = LoadLe64(data + kOffPayloadSize);
  if (offset % 64 != 0 || offset < kHeaderBytes + params_size) {
    return Refuse(Code::kInconsistent, source, "payload_offset " + std::to_string(offset) +
                                                   " is not a multiple of 64 past the params");
  }
  if (payload_size > UINT64_MAX - offset) {
    return Refuse(Code::kTooLarge, source, "payload_size " + std::to_string(payload_size) + " overflows");
  }
  const uint64_t total = offset + payload_size;
  if (len < total) {
    return Refuse(Code::kTruncated, source, "has " + std::to_string(len) + " bytes, the header declares " +
                                                std::to_string(total));
  }
  if (len > total) {
    return Refuse(Code::kInconsistent, source, "has " + std::to_string(len - total) +
                                                   " bytes after the declared end at " + std::to_string(total));
  }
  const uint64_t flags = LoadLe64(data + kOffFlags);
  if (flags != 0 && (flags & 0xff) != 1) {
    return Refuse(Code::kInconsistent, source, "flags field has unknown bits set");
  }
  if (flags != KeyFlags(key) && !(key && flags == OldKeyFlags(*key))) {
    if (flags == 0) return Refuse(Code::kIncompatible, source, "was written without a secret key: open it without one");
    if (!key) return Refuse(Code::kIncompatible, source, "was written with a secret key (keyed mode): open it with that key");
    return Refuse(Code::kIncompatible, source, "was written with another secret key (its check value differs)");
  }
  if (verify_payload &&
      LoadLe64(data + kOffPayloadChecksum) != PayloadChecksum(data + offset, payload_size)) {
    return Refuse(Code::kBadChecksum, source, "payload checksum mismatch (payload corrupt)");
  }
  *out = {data + kHeaderBytes, params_size, data + offset, payload_size};
  return {};
}

Container ParseContainer(const uint8_t* data, uint64_t len, Kind expected,
                         const std::string& source, bool verify_payload,
                         const std::optional<SecretKey>& key) {
  Container c{};
  ThrowIfRefused(CheckContainer(data, len, expected, source, verify_payload, key, &c));
  return c;
}

void ResealContainer(uint8_t* data, uint64_t len) {
  const uint64_t params_size = LoadLe64(data + kOffParamsSize);
  const uint64_t offset = LoadLe64(data + kOffPayloadOffset);
  StoreLe64(data + kOffPayloadChecksum, PayloadChecksum(data + offset, len - offset));
  StoreLe64(data + kOffHeaderChecksum, HeaderChecksum(data, params_size));
}

}  // namespace seen
