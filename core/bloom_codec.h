// A Bloom filter in the container format (kind 1): to and from bytes and files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/bloom.h"

namespace seen {

uint64_t SerializedSize(const Bloom& filter);
// Writes SerializedSize(filter) bytes to out.
void Serialize(const Bloom& filter, uint8_t* out);
// A writable copy of a validated container.
Bloom Deserialize(const uint8_t* data, uint64_t len,
                  const std::optional<SecretKey>& key = std::nullopt);
// A read-only filter over the caller's bytes, no copy.
Bloom View(const uint8_t* data, uint64_t len, bool verify_payload,
           const std::optional<SecretKey>& key = std::nullopt);

void Save(const Bloom& filter, const std::string& path);
Bloom Open(const std::string& path, bool writable, bool verify_payload,
           const std::optional<SecretKey>& key = std::nullopt);

}  // namespace seen
