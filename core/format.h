// The one container format (docs/FORMAT.md): a 64-byte header, kind-specific parameters, a
// 64-byte-aligned payload. Little-endian, checksummed with XXH3-64. This file encodes and
// validates containers in memory; core/file.cc puts them in files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/hash.h"

namespace seen {

enum class Kind : uint32_t {
  kBloom = 1,
  kCounting = 2,
  kScalable = 3,
  kWindow = 4,
  kStore = 5,
  kSimhashIndex = 6,
  kMinhashIndex = 7,
};

const char* KindName(uint32_t kind);

constexpr uint16_t kFormatMajor = 1;
constexpr uint16_t kFormatMinor = 0;
constexpr uint64_t kHeaderBytes = 64;
// Parameters larger than this are refused as absurd before anything is read past them.
constexpr uint64_t kMaxParamsBytes = 4096;

// A validated container: params and payload point into the input bytes.
struct Container {
  const uint8_t* params;
  uint64_t params_size;
  const uint8_t* payload;
  uint64_t payload_size;
};

// The header's flags (docs/FORMAT.md): 0 for a file hashed with its public seed; for keyed
// mode, bit 0 and the key's 56-bit check value above bit 8, so that a wrong key is refused
// clearly and a reader from before keyed mode refuses the file instead of misreading it.
uint64_t KeyFlags(const std::optional<SecretKey>& key);

// A payload may be written from several separate buffers.
struct Piece {
  const uint8_t* data;
  uint64_t size;
};

// Where the payload starts for params of params_size bytes.
uint64_t PayloadOffset(uint64_t params_size);

// What a kind writes: its params and the pieces of its payload, in order. The pieces may be
// live filter memory that concurrent adds change while it is written.
struct Parts {
  Kind kind;
  const uint8_t* params;
  uint64_t params_size;
  std::vector<Piece> payload;
  uint64_t flags = 0;  // KeyFlags of the object's key
};

// The bytes a container of these parts takes.
uint64_t ContainerSize(const Parts& parts);

// Writes the PayloadOffset(params_size) bytes that precede the payload: header, params and
// zero padding, for a payload of payload_size bytes with that XXH3-64 checksum.
void EncodeHead(Kind kind, const uint8_t* params, uint64_t params_size, uint64_t payload_size,
                uint64_t payload_checksum, uint64_t flags, uint8_t* head);

// Serializes into out (ContainerSize bytes): copies the payload first, checksums the copy,
// then writes the head. The container is self-consistent even while adds change the pieces:
// it holds every add completed before the call, and in-flight adds or not.
void WriteContainer(const Parts& parts, uint8_t* out);

// The kind a container's header names, once the header is valid (magic, version, sizes and
// the header checksum): e.g. to pick how to open a file. Throws as ParseContainer does.
uint32_t ContainerKind(const uint8_t* data, uint64_t len, const std::string& source);

// Validates `len` bytes as a container of kind `expected`. `source` names the input in
// errors (a path, or "buffer"). verify_payload = false skips only the payload checksum.
// Throws Error with the code for bad magic, version, truncation, checksum, sizes or kind, and
// kIncompatible when the file's key (none, or its check value) is not `key`.
Container ParseContainer(const uint8_t* data, uint64_t len, Kind expected,
                         const std::string& source, bool verify_payload,
                         const std::optional<SecretKey>& key = std::nullopt);
// The same checks, returning the refusal (the same code and message) instead of throwing it;
// *out is set only when the bytes pass.
Status CheckContainer(const uint8_t* data, uint64_t len, Kind expected, const std::string& source,
                      bool verify_payload, const std::optional<SecretKey>& key, Container* out);

// Recomputes the payload checksum and the header checksum of a container in place (after a
// writable mapping changed its payload).
void ResealContainer(uint8_t* data, uint64_t len);

// Little-endian field access, the same on any host; inline, for the windows' per-key reads.
// A little-endian host copies: compilers do not fold the byte loop into one load for 16-bit
// fields (a ring window's query spent a third of its time on it).
template <class T>
inline T LoadLe(const uint8_t* p) {
  T v = 0;
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    std::memcpy(&v, p, sizeof(T));
  } else {
    for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(p[i]) << (8 * i));
  }
  return v;
}
template <class T>
inline void StoreLe(uint8_t* p, T v) {
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    std::memcpy(p, &v, sizeof(T));
  } else {
    for (size_t i = 0; i < sizeof(T); ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
}
inline uint64_t LoadLe64(const uint8_t* p) { return LoadLe<uint64_t>(p); }
inline uint32_t LoadLe32(const uint8_t* p) { return LoadLe<uint32_t>(p); }
inline uint16_t LoadLe16(const uint8_t* p) { return LoadLe<uint16_t>(p); }
inline void StoreLe64(uint8_t* p, uint64_t v) { StoreLe(p, v); }
inline void StoreLe32(uint8_t* p, uint32_t v) { StoreLe(p, v); }
inline void StoreLe16(uint8_t* p, uint16_t v) { StoreLe(p, v); }

// Doubles are their IEEE-754 bits as a little-endian u64.
inline double LoadLeF64(const uint8_t* p) {
  const uint64_t bits = LoadLe64(p);
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}
inline void StoreLeF64(uint8_t* p, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  StoreLe64(p, bits);
}

// The header and params go through the helpers above. Payload arrays of integers (filter
// words, store users, SimHash index tables) are used in place, mapped from the file with no
// copy, so their host words must be the format's little-endian ones: big-endian hosts
// (s390x) are refused here rather than reading every filter wrong.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "seen's payloads are little-endian words used in place: big-endian hosts are not supported");

}  // namespace seen
